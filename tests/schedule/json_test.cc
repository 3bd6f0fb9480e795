// Schedule JSON: schedules of real networks (and one command per OpParams variant) survive
// to_json -> from_json -> to_json byte for byte, and a missing key is reported by its path.
#include <catch2/catch.hpp>

#include "compiler/frontend/import.h"
#include "compiler/schedule/build.h"
#include "compiler/schedule/json.h"
#include "platforms/loader/loader.h"
#include "schedule/sched_util.h"
#include "support/paths.h"

using namespace edgesim;

namespace {

PlatformSpec platform(const std::string& name) {
  return load_platform(test::source_dir() + "/platforms/" + name + ".yaml");
}

void round_trip(const Schedule& s) {
  const std::string a = schedule_to_json(s).dump();
  const Schedule back = schedule_from_json(nlohmann::json::parse(a));
  const std::string b = schedule_to_json(back).dump();
  REQUIRE(a.size() == b.size());
  CHECK(a == b);
  CHECK(back.steps.size() == s.steps.size());
  CHECK(back.buffers.size() == s.buffers.size());
  CHECK(back.high_water == s.high_water);
}

Requant full_rq() {
  Requant r;
  r.kind = Requant::Kind::Float;
  r.axis = 1;
  r.k = {3, -4};
  r.lambda = {INT64_MIN, INT64_MAX};
  r.mul = 7;
  r.shift = 9;
  r.round = 256;
  r.div = 511;
  r.scale = {0.1, 1.0 / 3.0, 1e-30};
  r.zp = -3;
  r.lo = -128;
  r.hi = 127;
  return r;
}

}  // namespace

TEST_CASE("schedule json: real networks round-trip byte-identically", "[schedule][json]") {
  for (const std::string net : {"tiny", "resnet8"}) {
    const Graph g = import_onnx(test::source_dir() + "/models/" + net + "/model.onnx");
    auto t = test::fixed_tilings(g, 4, 3, 5);
    t[1].l3.input_in_l3 = true, t[1].l3.h_out = 4, t[1].l3.db_x = 2, t[1].reported_l1 = 1234;
    round_trip(build_schedule(g, platform("siracusa"), t, {"double"}));
    round_trip(build_schedule(g, platform("gap9"), test::fixed_tilings(g, 0, 0, 0, true), {"single"}));
    round_trip(build_schedule(g, platform("gap8"), test::fixed_tilings(g, 8, 4, 0)));
    round_trip(build_schedule(g, platform("gap9"), {}));
  }
}

TEST_CASE("schedule json: a shared DORY network round-trips", "[schedule][json][shared]") {
  const std::string path = test::shared_networks() + "/dory/eegnetDW_1d_8b_1xW/eegnet_id_8b.onnx";
  REQUIRE_DATA(path);
  const Graph g = import_onnx(path);
  round_trip(build_schedule(g, platform("gap8"), test::fixed_tilings(g, 2, 0, 100)));
}

TEST_CASE("schedule json: every OpParams variant and Requant field round-trips", "[schedule][json]") {
  Schedule s;
  s.network = "synthetic \"quoted\"";
  s.platform = "p";
  s.policy = "dory";
  s.buffering = "double";
  s.high_water = {1, 2, 3, 4};
  Buffer b;
  b.id = 0, b.level = Level::WMEM, b.offset = 8, b.bytes = 16, b.name = "w", b.first_step = 0, b.last_step = 0;
  s.buffers.push_back(b);
  s.placements.push_back(Placement{0, 0, 4, {6, 1}, std::nullopt});
  Step st;
  st.node = 0, st.name = "all", st.tiled = true, st.buffering = 2;
  st.tiling.node = 0, st.tiling.policy = "dory";
  st.tiling.l3 = L3Tiling{true, false, true, 3, 4, 5, 2, 1, 2};
  st.tiling.l1.n_out = 1, st.tiling.l1.whole = true, st.tiling.l1.l1_bytes = 99;
  ConvParams conv;
  conv.kh = 3, conv.pad_b = 2, conv.groups = 4, conv.is_1d = true, conv.bias = {1, -2}, conv.x_zp = 5;
  conv.w_zp = {7}, conv.rq = full_rq();
  GemmParams gemm;
  gemm.trans_a = true, gemm.bias = {1, 2}, gemm.bias_shape = {1, 2}, gemm.a_zp = {3}, gemm.b_zp = {4, 5};
  gemm.rq = full_rq();
  AddParams add;
  add.mul1 = 2, add.shift2 = 3, add.shift_sum = 1, add.rq = full_rq();
  PoolParams pool;
  pool.kind = PoolParams::Kind::Sum, pool.global = true, pool.ceil_mode = true, pool.x_zp = -1;
  const std::vector<OpParams> all = {
      conv, gemm, add, MulParams{full_rq()}, pool, ClipParams{-5, 6}, RequantParams{full_rq()},
      PadParams{{0, 1, 2, 3}, -7}, ConcatParams{2}, ReshapeParams{}, TransposeParams{{0, 2, 3, 1}, ""},
      QuantizeParams{1, {0.5f, 0.1f}, {0, 3}}, DequantizeParams{-1, {1e-3f}, {128}},
      TransposeParams{{0, 1, 2, 3}, "nchw_to_hwc", 1, true}};
  int id = 0;
  for (const OpParams& p : all) {
    Command c;
    c.id = id++;
    c.kind = Command::Kind::Compute;
    c.engine = "cluster";
    c.params = p;
    c.node = 0;
    c.macs = 12345678901LL;
    c.inputs.push_back(BufView{0, 2, DType::I16, {1, 2}, {2, 1}});
    c.outputs.push_back(BufView{0, 0, DType::F32, {2}, {1}});
    st.commands.push_back(c);
  }
  Command d;
  d.id = id++;
  d.kind = Command::Kind::Dma;
  d.engine = "l3_dma";
  d.deps = {0, 3};
  d.note = "copy";
  d.src = DmaSide{0, 1, {2, 3}};
  d.dst = DmaSide{0, 4, {5, 6}};
  d.count = {7, 8, 9};
  st.commands.push_back(d);
  s.steps.push_back(st);
  round_trip(s);
  const Schedule back = schedule_from_json(schedule_to_json(s));
  for (size_t i = 0; i < all.size(); ++i) CHECK(back.steps[0].commands[i].params.index() == all[i].index());
  const auto& q = std::get<QuantizeParams>(back.steps[0].commands[11].params);
  CHECK(q.scale[1] == 0.1f);
  const auto& r = std::get<ConvParams>(back.steps[0].commands[0].params).rq;
  CHECK(r.scale[1] == 1.0 / 3.0);
  CHECK(r.lambda[0] == INT64_MIN);
  CHECK(back.steps[0].commands.back().count == std::array<int64_t, 3>{7, 8, 9});
  // A layout conversion's tile keeps its split axis and runtime-index flag.
  const auto& tp = std::get<TransposeParams>(back.steps[0].commands[13].params);
  CHECK(tp.relayout == "nchw_to_hwc");
  CHECK(tp.par_axis == 1);
  CHECK(tp.runtime_index);
  CHECK(std::get<TransposeParams>(back.steps[0].commands[10].params).par_axis == -1);
  nlohmann::json bad = schedule_to_json(s);
  bad["steps"][0]["commands"][13]["params"]["par_axis"] = 9;
  CHECK_THROWS_WITH(schedule_from_json(bad), Catch::Contains("par_axis") && Catch::Contains("out of range"));
  CHECK(back.steps[0].tiling.l3.h_in == 5);
}

TEST_CASE("schedule json: errors name the key path", "[schedule][json]") {
  const Graph g = import_onnx(test::source_dir() + "/models/tiny/model.onnx");
  nlohmann::json j = schedule_to_json(build_schedule(g, platform("siracusa"), test::fixed_tilings(g, 4, 4, 4)));
  j["steps"][2]["commands"][1].erase("count");
  if (j["steps"][2]["commands"][1]["kind"] == "compute") j["steps"][2]["commands"][1].erase("params");
  CHECK_THROWS_WITH(schedule_from_json(j), Catch::Contains("schedule.steps[2].commands[1]."));
  nlohmann::json k = schedule_to_json(build_schedule(g, platform("siracusa"), {}));
  k["buffers"][0]["level"] = "L4";
  CHECK_THROWS_WITH(schedule_from_json(k), Catch::Contains("L4"));
  CHECK_THROWS_WITH(schedule_from_json(nlohmann::json::object()), Catch::Contains("format"));
  // Regression (found by fuzz_schedule_json, UBSan): 2.56e30 where an int64 belongs was cast.
  nlohmann::json f = schedule_to_json(build_schedule(g, platform("siracusa"), {}));
  f["buffers"][0]["bytes"] = 2.55556e30;
  CHECK_THROWS_WITH(schedule_from_json(f), Catch::Contains("schedule.buffers[0].bytes") && Catch::Contains("expected an integer"));
}
