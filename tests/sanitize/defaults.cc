// Run-time defaults of the sanitizers, compiled into every executable of an EDGESIM_SANITIZE
// build (CMakeLists.txt adds this file to each one), so that ctest, the CLI tests' child
// processes and the fuzz targets all run with the same settings without an environment.
// docs/hardening.md explains each setting and suppression.
extern "C" {

// Any report ends the process with a failure; leaks are reported at exit.
__attribute__((used)) const char* __asan_default_options() {
  return "detect_leaks=1:check_initialization_order=1:strict_init_order=1:detect_stack_use_after_return=0:"
         "external_symbolizer_path=/usr/lib/llvm-14/bin/llvm-symbolizer";
}

__attribute__((used)) const char* __ubsan_default_options() {
  return "print_stacktrace=1:halt_on_error=1:external_symbolizer_path=/usr/lib/llvm-14/bin/llvm-symbolizer";
}

// Open MPI's progress thread (a libevent loop it starts in MPI_Init) keeps 32 bytes to the end of
// an MPI rank, allocated in components it unloads before the leak check: the stack names
// libevent only when unwound slowly, which the MPI sweep test asks for in its ranks
// (tests/sweep/sweep_cli_test.cc). What Open MPI allocates in the main thread during MPI_Init and
// MPI_Finalize is ignored at the source (sim/core/sanitizer_hooks.h).
__attribute__((used)) const char* __lsan_default_suppressions() { return "leak:libevent_core-2.1.so\n"; }

}  // extern "C"
