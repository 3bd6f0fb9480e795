// Sibling convs in the tuner (compiler/tune/siblings.h): on a block whose input feeds two 1x1
// convs concatenated (an inception block's 1x1 branches), the network plans are offered the pair as one
// step when the pair alone simulates faster that way; the tuned plan is never slower than DORY's
// and, with the pair as siblings, runs bit-exact. The sibling footprint is the builder's L1.
#include <iostream>

#include <catch2/catch.hpp>

#include "compiler/schedule/build.h"
#include "compiler/tiler/policy.h"
#include "compiler/tune/network_tune.h"
#include "compiler/tune/siblings.h"
#include "kernels/interpreter/interpreter.h"
#include "platforms/loader/loader.h"
#include "schedule/conv_layers.h"
#include "schedule/sched_util.h"
#include "sim/exec/executor.h"
#include "sim/exec/verify.h"
#include "support/paths.h"
#include "tune/tune_simulated.h"

using namespace edgesim;

namespace {


// x (64 x 32 x 32) -> {b: 1x1 -> 32 | c: 1x1 -> 24} -> concat (56 channels).
Graph block() {
  Graph g;
  g.name = "reduce_pair";
  const int x = g.add_tensor({"x", DType::U8, {1, 64, 32, 32}, std::nullopt, false});
  g.inputs = {x};
  const int b1 = test::fixed_conv(g, x, 32, 1, "b_1x1");
  const int c1 = test::fixed_conv(g, x, 24, 1, "c_1x1");
  const int y = g.add_tensor({"y", DType::U8, {1, 56, 32, 32}, std::nullopt, false});
  g.nodes.push_back(Node{"concat", ConcatParams{1}, {b1, c1}, {y}, {"Concat"}});
  g.outputs = {y};
  g.validate();
  return g;
}

}  // namespace

TEST_CASE("tuner: sibling 1x1 convs reading one input are offered as one step and run bit-exact", "[tune][siblings]") {
  const PlatformSpec spec = load_platform(test::source_dir() + "/platforms/gap8.yaml");
  const Graph g = block();
  REQUIRE(sibling_of(g, 0) == 1);

  // The footprint the tuner filters candidates with is what the builder allocates in L1.
  std::vector<LayerTiling> t = test::fixed_tilings(g, 0, 2, 32);
  for (LayerTiling& l : t) l.policy = "tuned", l.l1.db = 2, l.l1.n_out = g.tensor(g.nodes[static_cast<size_t>(l.node)].outputs[0]).shape[1];
  t.at(0).net.sibling = true;
  const Schedule s = build_schedule(g, spec, t, {});
  CHECK(s.steps.at(0).commands.size() > 0);
  CHECK(s.steps.at(1).commands.empty());
  CHECK(sibling_l1_footprint(g, 0, 1, 2, 32, 2) == s.high_water[static_cast<size_t>(Level::L1)]);

  const NetworkTuneResult r = test::tune_simulated(g, spec);
  for (const std::string& c : r.changes) std::cout << "  siblings tune: " << c << "\n";
  std::cout << "  siblings tune: dory " << r.dory << ", tuned " << r.tuned << "\n";
  REQUIRE(r.tuned > 0);
  CHECK(r.tuned <= r.dory);
  bool any = false;
  for (const LayerTiling& l : r.tilings) any |= l.net.sibling;
  CHECK(any);   // on this block the pair as one step is faster (the input is 64 KiB, read once)
  Graph run = g;
  apply_network(run, r);
  const Schedule tuned = build_schedule(run, spec, r.tilings, {});
  const auto in = test::random_inputs(run, 9);
  InterpreterOptions io;
  io.keep_all = true;
  CHECK(verify_against_interpreter(run, *simulate(run, tuned, spec, in, {}).values, interpret(run, in, io)).ok);
}
