// Catch2 v2 entry point. The tests link SystemC (sim/), whose libsystemc.so also defines main():
// the sc_main stub below satisfies its reference and is never called.
// The `tuned` policy's cache is kept in memory: tests never write the user's tune cache.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "compiler/tune/tuned_policy.h"

extern "C" int sc_main(int, char**) { return 0; }

int main(int argc, char* argv[]) {
  edgesim::tune_settings().cache_path.clear();
  return Catch::Session().run(argc, argv);
}
