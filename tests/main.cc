// Catch2 v2 entry point. libsystemc.so (linked by sim/ tests in later issues) defines main(),
// so the test binary provides its own and, when SystemC is linked, an sc_main stub.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
