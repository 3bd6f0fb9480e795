// What the simulator tells the sanitizers, in a sanitized build only (docs/hardening.md,
// "Sanitizers"); without ASan both do nothing.
#pragma once

namespace edgesim {

// Debian's libsystemc 2.3.4 tells AddressSanitizer about each coroutine switch
// (__sanitizer_start_switch_fiber), but gives the main context's stack as 0 bytes at address 0:
// after a simulation ASan believes the main thread's stack is empty, warns at the next exception
// ("ASan is ignoring requested __asan_handle_no_return ... top: 0x000000000000") and no longer
// clears the stack poison of frames an exception skips. SimContext gives the main stack's real
// bounds back to ASan after each simulation.
void restore_asan_stack_bounds();

// SystemC maps each coroutine stack with mmap and unmaps it when its simulation context is
// deleted, with the frames of threads still waiting on it; LLVM 14's ASan leaves the shadow of
// unmapped memory as it was, so the next mapping of those pages (a later simulation's stack, a
// Python arena) carried the old frames' poison: "stack-use-after-scope" on a variable of a new
// frame (a function's prologue writes the shadow of its redzones, not of its variables; test
// `npu property: NPU layers with L3 slabs (small L2) simulate bit-exactly`) and
// "stack-buffer-underflow" in CPython's PyMem_Calloc (test `notebook`). Two hooks, no-ops
// without ASan:
//  - clear_stale_stack_poison(), called first in every SC_THREAD, clears the poison of the current
//    coroutine stack up to the top of the caller's frame and records the stack;
//  - clear_coroutine_stacks(), called when a simulation context is deleted, clears the poison of
//    every stack recorded in this OS thread.
void clear_stale_stack_poison();
void clear_coroutine_stacks();

// LeakSanitizer ignores what this thread allocates between leak_check_disable() and
// leak_check_enable(), and while an object of LeakCheckPause lives: around MPI_Init and
// MPI_Finalize, where Open MPI allocates what it keeps until the process ends (in components it
// unloads before the leak check, so no suppression could name them). No-ops without ASan.
void leak_check_disable();
void leak_check_enable();

class LeakCheckPause {
 public:
  LeakCheckPause();
  ~LeakCheckPause();
  LeakCheckPause(const LeakCheckPause&) = delete;
  LeakCheckPause& operator=(const LeakCheckPause&) = delete;
};

}  // namespace edgesim
