// Sanitizer hooks (sanitizer_hooks.h).
#include "sim/core/sanitizer_hooks.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define EDGESIM_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define EDGESIM_ASAN 1
#endif

#ifdef EDGESIM_ASAN
#include <pthread.h>
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#include <sanitizer/lsan_interface.h>

#include <cstdint>
#include <utility>
#include <vector>
#endif

namespace edgesim {

#ifdef EDGESIM_ASAN
namespace {
// The coroutine stacks entered in this OS thread since the last clear_coroutine_stacks().
thread_local std::vector<std::pair<const char*, size_t>> coroutine_stacks;
void record_stack(const char* lo, size_t size) { coroutine_stacks.emplace_back(lo, size); }
}  // namespace
#endif

void restore_asan_stack_bounds() {
#ifdef EDGESIM_ASAN
  // A switch from the current stack to itself, with its bounds as the kernel gave them.
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
  void* bottom = nullptr;
  size_t size = 0;
  const bool ok = pthread_attr_getstack(&attr, &bottom, &size) == 0;
  pthread_attr_destroy(&attr);
  if (!ok) return;
  void* fake_stack = nullptr;
  __sanitizer_start_switch_fiber(&fake_stack, bottom, size);
  __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
#endif
}

// Not inlined, not instrumented (its own variables may lie on stale poison): the region cleared
// ends at the top of its caller's frame, so the caller's variables are clear too.
__attribute__((noinline, no_sanitize("address"))) void clear_stale_stack_poison() {
#ifdef EDGESIM_ASAN
  // The stack's size from ASan, which SystemC tells at each switch (__sanitizer_start_switch_fiber;
  // a switch to no stack returns the current bounds, a switch back restores them). Its bottom is
  // taken from ASan only when the caller's frame lies inside: for the second coroutine of each
  // simulation ASan still held the first one's bottom (seen in test `notebook`). Otherwise the
  // stack ends at the page above the caller's frame, which is the stack's first (the caller is
  // the thread's entry), and is as large as the others (edgesim gives no thread its own size).
  void* fake_stack = nullptr;
  const void* bottom = nullptr;
  size_t size = 0;
  __sanitizer_start_switch_fiber(&fake_stack, nullptr, 0);
  __sanitizer_finish_switch_fiber(fake_stack, &bottom, &size);
  __sanitizer_start_switch_fiber(&fake_stack, bottom, size);
  __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wframe-address"
  const auto here = reinterpret_cast<uintptr_t>(__builtin_frame_address(1));
#pragma GCC diagnostic pop
  auto lo = reinterpret_cast<uintptr_t>(bottom);
  if (size == 0 || here <= size) return;
  if (here <= lo || here > lo + size) {
    const uintptr_t page = 4096;
    lo = (here + page - 1) / page * page - size;
  }
  ASAN_UNPOISON_MEMORY_REGION(reinterpret_cast<void*>(lo), here - lo);
  record_stack(reinterpret_cast<const char*>(lo), size);
#endif
}

void clear_coroutine_stacks() {
#ifdef EDGESIM_ASAN
  for (const auto& [lo, size] : coroutine_stacks) ASAN_UNPOISON_MEMORY_REGION(lo, size);
  coroutine_stacks.clear();
#endif
}

#ifdef EDGESIM_ASAN
void leak_check_disable() { __lsan_disable(); }
void leak_check_enable() { __lsan_enable(); }
#else
void leak_check_disable() {}
void leak_check_enable() {}
#endif
LeakCheckPause::LeakCheckPause() { leak_check_disable(); }
LeakCheckPause::~LeakCheckPause() { leak_check_enable(); }

}  // namespace edgesim
