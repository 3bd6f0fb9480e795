// [sweep] grid parsing and point order, record encodings (CSV / JSON round trips), presets.
#include <catch2/catch.hpp>

#include "sim/sweep/evaluate.h"
#include "sim/sweep/grid.h"
#include "sim/sweep/preset.h"
#include "sim/sweep/record.h"
#include "support/paths.h"
#include "support/temp_dir.h"

using namespace edgesim::sweep;

TEST_CASE("sweep grid: --set parsing", "[sweep]") {
  const Axis a = parse_axis("l1.size=64KiB, 128KiB,256KiB");
  CHECK(a.key == "l1.size");
  CHECK(a.values == std::vector<std::string>{"64KiB", "128KiB", "256KiB"});
  CHECK(parse_axis("l2.size=1MiB").values.size() == 1);   // one value: a fixed override
  CHECK_THROWS_WITH(parse_axis("l1.size"), Catch::Contains("expected KEY=V1,V2"));
  CHECK_THROWS_WITH(parse_axis("=1"), Catch::Contains("empty key"));
  CHECK_THROWS_WITH(parse_axis("l1.size=1,,2"), Catch::Contains("empty value for l1.size"));
  CHECK_THROWS_WITH(parse_axis("l1.size=1,1"), Catch::Contains("given twice"));
}

TEST_CASE("sweep grid: lexical order, first axis slowest, networks outermost", "[sweep]") {
  std::vector<Axis> axes = {parse_axis("a=1,2"), parse_axis("b=x,y,z")};
  REQUIRE(grid_size(axes) == 6);
  CHECK(grid_point(axes, 0) == std::vector<std::string>{"1", "x"});
  CHECK(grid_point(axes, 1) == std::vector<std::string>{"1", "y"});
  CHECK(grid_point(axes, 3) == std::vector<std::string>{"2", "x"});
  CHECK(grid_point(axes, 5) == std::vector<std::string>{"2", "z"});
  CHECK(point_overrides(axes, grid_point(axes, 4)) == std::vector<std::string>{"a=2", "b=y"});
  CHECK(point_label(axes, grid_point(axes, 4)) == "a=2 b=y");
  CHECK(varied_axes({parse_axis("a=1"), parse_axis("b=1,2")}) == std::vector<size_t>{1});

  merge_axis(axes, parse_axis("a=7"));   // replaces in place
  merge_axis(axes, parse_axis("c=q"));   // appended
  REQUIRE(axes.size() == 3);
  CHECK(axes[0].values == std::vector<std::string>{"7"});
  CHECK(axes[2].key == "c");

  SweepSpec s;
  s.axes = {parse_axis("a=1,2")};
  s.networks = {"n0.onnx", "n1.onnx"};
  REQUIRE(point_count(s) == 4);
  CHECK(point_at(s, 1).network == 0);
  CHECK(point_at(s, 1).values == std::vector<std::string>{"2"});
  CHECK(point_at(s, 2).network == 1);
  CHECK(network_name("models/resnet8/model.onnx") == "resnet8");
  CHECK(network_name("x/net.onnx") == "net");
  CHECK(network_name("dory/PenguiNet_32/model_int.onnx") == "PenguiNet_32");

  // Policies and engine sets are outer dimensions: network, policy, engine set, grid.
  s.policies = {"dory", "deeploy"};
  s.engine_sets = {{"npu", "cluster"}, {"cluster"}};
  REQUIRE(point_count(s) == 16);
  const PointRef p = point_at(s, 7);   // network 0, deeploy, {cluster}, a=2
  CHECK(p.network == 0);
  CHECK(p.policy == "deeploy");
  CHECK(p.engines == std::vector<std::string>{"cluster"});
  CHECK(p.values == std::vector<std::string>{"2"});
  CHECK(point_at(s, 8).network == 1);
  CHECK(point_at(s, 2).engines == std::vector<std::string>{"cluster"});
  CHECK(engines_label({"npu", "cluster"}) == "npu,cluster");
}

TEST_CASE("sweep grid: linked keys vary together as one axis", "[sweep]") {
  std::vector<Axis> axes = parse_link("cluster.n_cores=1,2,4,8:budgets.dory.n_cores=1,2,4,8", 0);
  REQUIRE(axes.size() == 2);
  axes.push_back(parse_axis("l1.size=64KiB,128KiB"));
  CHECK(grid_size(axes) == 8);   // 4 linked steps x 2, not 4 x 4 x 2
  CHECK(grid_point(axes, 0) == std::vector<std::string>{"1", "1", "64KiB"});
  CHECK(grid_point(axes, 5) == std::vector<std::string>{"4", "4", "128KiB"});
  CHECK(varied_axes(axes) == std::vector<size_t>{0, 2});
  CHECK(axis_title(axes, 0) == "cluster.n_cores (+ budgets.dory.n_cores)");
  CHECK(axis_title(axes, 2) == "l1.size");
  CHECK_THROWS_WITH(parse_link("a=1,2:b=1,2,3", 0), Catch::Contains("a has 2 values but b has 3"));
  CHECK_THROWS_WITH(parse_link("a=1,2", 0), Catch::Contains("link at least two keys"));
  CHECK_THROWS_WITH(parse_link("a=1:a=2", 0), Catch::Contains("key a given twice"));
}

TEST_CASE("sweep networks: folder names for generic stems, NAME=path, collisions qualified", "[sweep]") {
  SweepSpec s;
  name_networks(s, {"a/dscnn_test/model_int.onnx", "b/dscnn_test/model_int.onnx", "x/resnet8/model.onnx", "mine=n.onnx"});
  CHECK(s.networks == std::vector<std::string>{"a/dscnn_test/model_int.onnx", "b/dscnn_test/model_int.onnx",
                                               "x/resnet8/model.onnx", "n.onnx"});
  CHECK(s.network_names == std::vector<std::string>{"a/dscnn_test", "b/dscnn_test", "resnet8", "mine"});
  CHECK(spec_network_name(s, 3) == "mine");
  CHECK_THROWS_WITH(name_networks(s, {"x=a.onnx", "x=b.onnx"}), Catch::Contains("two networks are named 'x'"));
  CHECK_THROWS_WITH(name_networks(s, {"=a.onnx"}), Catch::Contains("empty NAME"));
  CHECK_THROWS_WITH(name_networks(s, {"d/n.onnx", "d/n.onnx"}), Catch::Contains("give one a name with NAME=path"));
}

TEST_CASE("sweep records: CSV and JSON round trips are byte-exact", "[sweep]") {
  const std::vector<std::string> keys = {"l1.size", "l2.size"};
  PointRecord ok;
  ok.network = "tiny";
  ok.platform = "platforms/gap8.yaml";
  ok.policy = "dory";
  ok.values = {"64KiB", "512KiB"};
  ok.status = "ok";
  ok.total_cycles = 123456;
  ok.macs = 98765;
  ok.time_ms = round4(123456.0 * 1e3 / 175e6);
  ok.mac_per_cycle = round4(98765.0 / 123456.0);
  ok.has_layers = true;
  ok.layers = {{"L0", "conv 3x3", 100, 80, 15, 5}};
  PointRecord bad = ok;
  bad.status = "infeasible";
  bad.reason = "layer 3 'a,b' needs \"more\" L1";
  bad.layers.clear();

  const std::string csv = csv_header(keys) + "\n" + csv_row(ok) + "\n" + csv_row(bad) + "\n";
  CHECK(csv_header(keys) ==
        "network,platform,policy,engines,l1.size,l2.size,status,total_cycles,time_ms,macs,mac_per_cycle,energy_uj,reason,carried_from");
  CHECK(csv_row(ok) == "tiny,platforms/gap8.yaml,dory,,64KiB,512KiB,ok,123456,0.7055,98765,0.8000,,,");
  CHECK(csv_row(bad) == "tiny,platforms/gap8.yaml,dory,,64KiB,512KiB,infeasible,,,,,,\"layer 3 'a,b' needs \"\"more\"\" L1\",");
  const std::vector<PointRecord> back = records_from_csv(csv, keys);
  REQUIRE(back.size() == 2);
  CHECK(csv_row(back[0]) == csv_row(ok));
  CHECK(csv_row(back[1]) == csv_row(bad));
  CHECK(back[1].reason == bad.reason);
  CHECK_FALSE(back[0].has_layers);
  CHECK(records_from_csv(csv, {"l1.size"}).empty());   // another grid's file: nothing reused
  CHECK(records_from_csv("# command: edgesim sweep\n# edgesim: 0.1.0\n" + csv, keys).size() == 2);   // provenance lines
  PointRecord npu = ok;
  npu.engines = "npu,cluster";
  CHECK(csv_row(npu) == "tiny,platforms/gap8.yaml,dory,\"npu,cluster\",64KiB,512KiB,ok,123456,0.7055,98765,0.8000,,,");
  CHECK(record_key(npu, keys) != record_key(ok, keys));
  CHECK(csv_row(records_from_csv(csv_header(keys) + "\n" + csv_row(npu) + "\n", keys).at(0)) == csv_row(npu));

  // A tuned point that runs the plan of a point with less memory (carry.h): the plan travels in
  // JSON only, the point it came from in both.
  PointRecord carried = ok;
  carried.policy = "tuned";
  carried.plan = {{"order", {0}}, {"library", ""}};
  carried.carried_from = "l1.size=48KiB l2.size=512KiB";
  CHECK(csv_row(carried) == "tiny,platforms/gap8.yaml,tuned,,64KiB,512KiB,ok,123456,0.7055,98765,0.8000,,,"
                            "l1.size=48KiB l2.size=512KiB");
  const PointRecord carried_csv = records_from_csv(csv_header(keys) + "\n" + csv_row(carried) + "\n", keys).at(0);
  CHECK(carried_csv.carried_from == carried.carried_from);
  CHECK(carried_csv.plan.is_null());
  const auto cj = record_from_json(nlohmann::json::parse(record_to_json(carried, keys).dump()), keys);
  REQUIRE(cj);
  CHECK(cj->plan == carried.plan);
  CHECK(cj->carried_from == carried.carried_from);
  CHECK(record_to_json(ok, keys).count("plan") == 0);

  const auto j = record_to_json(ok, keys);
  const auto r = record_from_json(nlohmann::json::parse(j.dump()), keys);
  REQUIRE(r);
  CHECK(record_to_json(*r, keys).dump() == j.dump());
  CHECK(r->layers.at(0).dma_wait == 15);
  CHECK(record_key(*r, keys) == record_key(ok, keys));
  CHECK_FALSE(record_from_json(nlohmann::json::parse(j.dump()), {"l1.size"}));
  CHECK_FALSE(record_from_json(nlohmann::json::parse("[1,2]"), keys));
}

TEST_CASE("sweep presets: grid, overrides and errors", "[sweep]") {
  edgesim::test::TempDir dir;
  const std::string f = dir.write("configs/p.yaml",
                                  "platform: platforms/gap8.yaml\npolicy: deeploy\n"
                                  "set:\n  l2.size: [256KiB, 512KiB]\n  l1.size: 64KiB\n");
  const Preset p = read_preset(f);
  CHECK(p.policy == "deeploy");
  CHECK(read_preset(dir.write("configs/q.yaml", "policy: [dory, deeploy]\n")).policy == "dory,deeploy");
  REQUIRE(p.axes.size() == 2);
  CHECK(p.axes[0].key == "l2.size");   // file order
  CHECK(p.axes[0].values == std::vector<std::string>{"256KiB", "512KiB"});
  CHECK(p.axes[1].values == std::vector<std::string>{"64KiB"});
  CHECK_THROWS_WITH(read_preset(dir.write("b.yaml", "platfrom: x\n")), Catch::Contains("unknown key 'platfrom'"));
  CHECK_THROWS_WITH(read_preset(dir.write("c.yaml", "set: [1]\n")), Catch::Contains("set must map"));
  CHECK_THROWS_WITH(read_preset(dir.file("none.yaml")), Catch::Contains("cannot open sweep preset"));
  // Keys the YAML walk rejects name the file and line (a non-scalar key, a duplicate key).
  CHECK_THROWS_WITH(read_preset(dir.write("d.yaml", "? [a, b]\n: 1\n")), Catch::Contains("d.yaml:1"));
  CHECK_THROWS_WITH(read_preset(dir.write("e.yaml", "set:\n  l1.size: 1KiB\n  l1.size: 2KiB\n")),
                    Catch::Contains("e.yaml:3"));
  // Nested keys under set are one axis, as dotted ones.
  CHECK(read_preset(dir.write("f.yaml", "set:\n  l1: {size: [1KiB, 2KiB]}\n")).axes.at(0).key == "l1.size");
  // The shipped presets parse and describe an 8x8 L1 x L2 grid.
  for (const char* name : {"sweep-l1-l2-siracusa.yaml", "sweep-l1-l2-gap8.yaml"}) {
    const Preset q = read_preset(edgesim::test::source_dir() + "/configs/" + name);
    CHECK(varied_axes(q.axes).size() == 2);
    CHECK(grid_size(q.axes) == 64);
  }
}
