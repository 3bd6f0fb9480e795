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

// LeakSanitizer ignores what is allocated while an object of this type lives in this thread:
// around MPI_Init and MPI_Finalize, where Open MPI allocates what it keeps until the process ends
// (in components it unloads before the leak check, so no suppression could name them).
class LeakCheckPause {
 public:
  LeakCheckPause();
  ~LeakCheckPause();
  LeakCheckPause(const LeakCheckPause&) = delete;
  LeakCheckPause& operator=(const LeakCheckPause&) = delete;
};

}  // namespace edgesim
