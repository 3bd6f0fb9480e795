// Catch2 v2 entry point. The tests link SystemC (sim/), whose libsystemc.so also defines main():
// the sc_main stub below satisfies its reference and is never called.
// No tune cache file (EDGESIM_TUNE_CACHE empty, as ctest sets it): tests never write the user's
// tune cache, also when the binary runs outside ctest.
#define CATCH_CONFIG_RUNNER
#include <cstdlib>

#include <catch2/catch.hpp>

extern "C" int sc_main(int, char**) { return 0; }

int main(int argc, char* argv[]) {
  setenv("EDGESIM_TUNE_CACHE", "", 1);
  return Catch::Session().run(argc, argv);
}
