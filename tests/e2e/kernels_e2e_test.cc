// The optimised kernels on whole networks: the golden model computed with the optimised kernels
// (the default) and with the reference kernels only (KernelSet::Reference, `--reference-kernels`)
// gives the same bits for every tensor of every network of models/ and ../shared/networks.
#include <catch2/catch.hpp>

#include "e2e/e2e_nets.h"

using namespace edgesim;

TEST_CASE("e2e kernels: optimised and reference kernels agree on every tensor of every network", "[e2e][optimized]") {
  REQUIRE_DATA(test::shared_networks());
  std::vector<std::string> files = test::model_files();
  for (const char* sub : {"/dory", "/deeploy"})
    for (const std::string& f : test::onnx_below(test::shared_networks() + sub)) files.push_back(f);
  size_t rejected = 0, compared = 0;
  for (const test::Net& n : test::load_nets(files, "", rejected)) {
    InterpreterOptions o;
    o.keep_all = true;
    o.kernels = KernelSet::Reference;
    const InterpreterResult ref = interpret(n.graph, n.inputs, o);
    REQUIRE(ref.values.size() == n.want.values.size());
    for (size_t t = 0; t < ref.values.size(); ++t) {
      INFO(n.path << " tensor " << n.graph.tensors[t].name);
      REQUIRE(ref.values[t].has_value() == n.want.values[t].has_value());
      if (ref.values[t]) CHECK(ref.values[t]->same_values(*n.want.values[t]));
    }
    ++compared;
  }
  CHECK(compared >= 20);
}
