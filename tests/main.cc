// Catch2 v2 entry point. When the tests link SystemC (sim/), libsystemc.so also defines main()
// and this file must then add an `extern "C" int sc_main(int, char**)` stub, as sim/cli/main.cc does.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
