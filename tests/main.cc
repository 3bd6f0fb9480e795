// Catch2 v2 entry point. The tests link SystemC (sim/), whose libsystemc.so also defines main():
// the sc_main stub below satisfies its reference and is never called.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

extern "C" int sc_main(int, char**) { return 0; }
