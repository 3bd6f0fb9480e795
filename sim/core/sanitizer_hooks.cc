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
#include <sanitizer/common_interface_defs.h>
#include <sanitizer/lsan_interface.h>
#endif

namespace edgesim {

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

#ifdef EDGESIM_ASAN
LeakCheckPause::LeakCheckPause() { __lsan_disable(); }
LeakCheckPause::~LeakCheckPause() { __lsan_enable(); }
#else
LeakCheckPause::LeakCheckPause() = default;
LeakCheckPause::~LeakCheckPause() = default;
#endif

}  // namespace edgesim
