// Branch order (compiler/tune/branch_order.h) on an inception-style block: a stem conv forks into
// four branches concatenated at the end (1x1; 1x1 reduce -> 3x3; 1x1 reduce -> 3x3; 3x3 max pool
// -> 1x1), their reduce layers wide so that the order matters. Every legal order of the graph is
// enumerated here: the chosen order has the lowest activation peak L2 of them all (and lower
// than the graph's own order), it is legal, and the reordered network runs bit-exact.
#include <algorithm>
#include <filesystem>
#include <random>
#include <set>

#include <catch2/catch.hpp>

#include "compiler/frontend/import.h"
#include "compiler/schedule/build.h"
#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "compiler/tune/branch_order.h"
#include "kernels/interpreter/interpreter.h"
#include "platforms/loader/loader.h"
#include "schedule/conv_layers.h"
#include "schedule/sched_util.h"
#include "sim/exec/executor.h"
#include "sim/exec/verify.h"
#include "support/paths.h"

using namespace edgesim;

namespace {


// stem -> {a: 1x1 -> 8 | b: 1x1 -> 48 -> 3x3 -> 8 | c: 1x1 -> 32 -> 3x3 -> 4 | d: max pool 3x3 -> 1x1 -> 4}
// -> concat (24 channels). The graph lists the reduce layers first, as ONNX exporters often do.
Graph inception() {
  Graph g;
  g.name = "inception";
  const int x = g.add_tensor({"x", DType::U8, {1, 16, 12, 12}, std::nullopt, false});
  g.inputs = {x};
  const int s = test::fixed_conv(g, x, 16, 1, "stem");
  const int b1 = test::fixed_conv(g, s, 48, 1, "b_reduce");
  const int c1 = test::fixed_conv(g, s, 32, 1, "c_reduce");
  const int a = test::fixed_conv(g, s, 8, 1, "a_1x1");
  PoolParams pp;
  pp.kind = PoolParams::Kind::Max;
  pp.kh = pp.kw = 3;
  pp.pad_t = pp.pad_l = pp.pad_b = pp.pad_r = 1;
  pp.rq.lo = 0;
  pp.rq.hi = 255;
  const int d0 = g.add_tensor({"d_pool_y", DType::U8, {1, 16, 12, 12}, std::nullopt, false});
  g.nodes.push_back(Node{"d_pool", pp, {s}, {d0}, {"MaxPool"}});
  const int b2 = test::fixed_conv(g, b1, 8, 3, "b_3x3");
  const int c2 = test::fixed_conv(g, c1, 4, 3, "c_3x3");
  const int d1 = test::fixed_conv(g, d0, 4, 1, "d_1x1");
  const int y = g.add_tensor({"y", DType::U8, {1, 24, 12, 12}, std::nullopt, false});
  g.nodes.push_back(Node{"concat", ConcatParams{1}, {a, b2, c2, d1}, {y}, {"Concat"}});
  g.outputs = {y};
  g.validate();
  return g;
}

}  // namespace

TEST_CASE("branch order: the chosen order has the lowest peak L2 of all legal orders (inception block)",
          "[tune][branch]") {
  const Graph g = inception();
  const BranchOrder b = choose_branch_order(g);
  CHECK(b.regions >= 1);
  CHECK(b.changed());
  // Every legal order of the whole graph, enumerated independently of the tuner's regions.
  const auto all = all_topological_orders(g, 100000);
  REQUIRE(all.size() > 100);
  int64_t lowest = INT64_MAX, highest = 0;
  for (const auto& o : all) {
    const int64_t p = activation_l2_peak(g, o);
    lowest = std::min(lowest, p);
    highest = std::max(highest, p);
  }
  INFO("orders " << all.size() << " lowest " << lowest << " highest " << highest << " given " << b.peak_before << " chosen "
                 << b.peak_after);
  CHECK(highest > lowest);                     // the order matters on this block
  CHECK(b.peak_after == lowest);               // and the tuner found the best
  CHECK(b.peak_before > lowest);               // which the graph's own order is not
  CHECK(activation_l2_peak(g, b.order) == b.peak_after);
  CHECK(std::find(all.begin(), all.end(), b.order) != all.end());   // a legal order
  // The reordered network, scheduled and simulated, computes what the graph computes.
  const Graph r = reorder_nodes(g, b.order);
  const PlatformSpec spec = load_platform(test::source_dir() + "/platforms/gap8.yaml");
  const Schedule s = build_schedule(r, spec, tile_graph(r, spec, "dory"), {});
  const Schedule s0 = build_schedule(g, spec, tile_graph(g, spec, "dory"), {});
  CHECK(s.high_water[static_cast<size_t>(Level::L2)] < s0.high_water[static_cast<size_t>(Level::L2)]);
  const auto in = test::random_inputs(g, 5);
  InterpreterOptions io;
  io.keep_all = true;
  const SimOutcome out = simulate(r, s, spec, in, {});
  CHECK(verify_against_interpreter(r, *out.values, interpret(g, in, io)).ok);
}

namespace {

// The region by its definition, from every node's descendants (O(nodes^2): small graphs only).
std::vector<int> region_by_definition(const Graph& g, int t) {
  std::vector<int> producer(g.tensors.size(), -1);
  std::vector<std::vector<int>> readers(g.tensors.size());
  for (size_t k = 0; k < g.nodes.size(); ++k) {
    for (int o : g.nodes[k].outputs) producer[static_cast<size_t>(o)] = static_cast<int>(k);
    for (int i : g.nodes[k].inputs)
      if (!g.tensor(i).is_const()) readers[static_cast<size_t>(i)].push_back(static_cast<int>(k));
  }
  std::vector<std::set<int>> desc(g.nodes.size());
  for (size_t k = g.nodes.size(); k-- > 0;)
    for (int o : g.nodes[k].outputs)
      for (int c : readers[static_cast<size_t>(o)]) {
        desc[k].insert(c);
        desc[k].insert(desc[static_cast<size_t>(c)].begin(), desc[static_cast<size_t>(c)].end());
      }
  const std::vector<int>& cs = readers[static_cast<size_t>(t)];
  if (cs.size() < 2) return {};
  auto reaches = [&](int from, int k) { return from == k || desc[static_cast<size_t>(from)].count(k) > 0; };
  int join = -1;
  for (int k = 0; k < static_cast<int>(g.nodes.size()) && join < 0; ++k)
    if (std::all_of(cs.begin(), cs.end(), [&](int c) { return reaches(c, k); })) join = k;
  if (join < 0) return {};
  std::vector<int> region;
  for (int k = 0; k < static_cast<int>(g.nodes.size()); ++k)
    if (k != join && std::any_of(cs.begin(), cs.end(), [&](int c) { return reaches(c, k); }) &&
        desc[static_cast<size_t>(k)].count(join))
      region.push_back(k);
  return region;
}

}  // namespace

TEST_CASE("branch order: regions equal their definition on every bundled and shared network", "[tune]") {
  // branch_region sweeps from the fork to the join; the definition holds every node's descendants,
  // which took 2.4 GB on a chain of 10,000 layers (issue 36 #12).
  std::vector<std::string> models;
  for (const char* m : {"tiny", "resnet8"}) models.push_back(test::source_dir() + "/models/" + m + "/model.onnx");
  REQUIRE_DATA(test::shared_networks());
  for (const auto& e : std::filesystem::recursive_directory_iterator(test::shared_networks())) {
    const std::string p = e.path().string();   // one microLlama: its variants differ in shapes only
    const bool variant = p.find("/microLlama") != std::string::npos && p.find("/microLlama64/") == std::string::npos;
    if (e.path().extension() == ".onnx" && e.file_size() < (8 << 20) && !variant) models.push_back(p);
  }
  size_t forks = 0;
  for (const std::string& m : models) {
    Graph g;
    try {
      g = import_onnx(m);
    } catch (const std::exception&) {
      continue;   // a graph edgesim does not import (float, unsupported op) has no regions to check
    }
    for (size_t t = 0; t < g.tensors.size(); ++t) {
      const std::vector<int> want = region_by_definition(g, static_cast<int>(t));
      INFO(m << " tensor " << g.tensors[t].name);
      CHECK(branch_region(g, static_cast<int>(t)) == want);
      forks += !want.empty();
    }
  }
  CHECK(forks > 50);   // residual blocks, attention heads
}
