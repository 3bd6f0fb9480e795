// Schedule <-> JSON (format in docs/schedule.md "JSON"). Every struct has a writer and a reader;
// enums travel as their names ("L2", "dma", "conv", "integer", "u8"), OpParams as an object
// with "op" plus the fields of that params struct. A Dma command carries only its Dma fields
// and a Compute only its Compute fields. Objects are written with sorted keys (nlohmann's
// default), integers exactly and doubles with round-trip precision, so writing what was read
// reproduces the input byte for byte. Reader errors name the JSON path of the bad key.
#include "compiler/schedule/json.h"

#include <stdexcept>
#include <string>

#include "compiler/schedule/json_internal.h"
#include "platforms/util/hash.h"

namespace edgesim {

using nlohmann::json;
using json_detail::In;
using json_detail::params_from;
using json_detail::params_to;

namespace {

// ---------------------------------------------------------------- enums
Level level_of(const In& in, const std::string& s) {
  for (Level l : {Level::L3, Level::L2, Level::L1, Level::WMEM})
    if (s == level_name(l)) return l;
  in.fail("level", "unknown level '" + s + "'");
}

DType dtype_of(const In& in, const std::string& s) {
  DType t;
  if (!dtype_from_name(s, t)) in.fail("dtype", "unknown dtype '" + s + "'");
  return t;
}

// ---------------------------------------------------------------- tiling
json tiling_to(const LayerTiling& t) {
  const L3Tiling& a = t.l3;
  const L1Tiling& b = t.l1;
  json j = {{"node", t.node}, {"policy", t.policy}, {"reported_l1", t.reported_l1},
          {"l3", {{"input_in_l3", a.input_in_l3}, {"output_in_l3", a.output_in_l3},
                  {"weights_in_l3", a.weights_in_l3}, {"n_out", a.n_out}, {"h_out", a.h_out},
                  {"h_in", a.h_in}, {"db_x", a.db_x}, {"db_w", a.db_w}, {"db_o", a.db_o}}},
          {"l1", {{"n_out", b.n_out}, {"h_out", b.h_out}, {"w_out", b.w_out}, {"n_in", b.n_in},
                  {"h_in", b.h_in}, {"w_in", b.w_in}, {"db", b.db}, {"whole", b.whole},
                  {"l1_bytes", b.l1_bytes}}}};
  if (t.net != NetTiling{})
    j["net"] = {{"prefetch", t.net.prefetch}, {"consts_l3", t.net.consts_l3}, {"fuse", t.net.fuse},
                {"sibling", t.net.sibling}};
  return j;
}

LayerTiling tiling_from(const In& in) {
  LayerTiling t;
  t.node = in.get<int>("node");
  t.policy = in.get<std::string>("policy");
  t.reported_l1 = in.get<int64_t>("reported_l1");
  const In a = in.sub("l3");
  t.l3.input_in_l3 = a.get<bool>("input_in_l3");
  t.l3.output_in_l3 = a.get<bool>("output_in_l3");
  t.l3.weights_in_l3 = a.get<bool>("weights_in_l3");
  t.l3.n_out = a.get<int64_t>("n_out"), t.l3.h_out = a.get<int64_t>("h_out"), t.l3.h_in = a.get<int64_t>("h_in");
  t.l3.db_x = a.get<int>("db_x"), t.l3.db_w = a.get<int>("db_w"), t.l3.db_o = a.get<int>("db_o");
  const In b = in.sub("l1");
  t.l1.n_out = b.get<int64_t>("n_out"), t.l1.h_out = b.get<int64_t>("h_out"), t.l1.w_out = b.get<int64_t>("w_out");
  t.l1.n_in = b.get<int64_t>("n_in"), t.l1.h_in = b.get<int64_t>("h_in"), t.l1.w_in = b.get<int64_t>("w_in");
  t.l1.db = b.get<int>("db");
  t.l1.whole = b.get<bool>("whole");
  t.l1.l1_bytes = b.get<int64_t>("l1_bytes");
  if (in.j.contains("net")) {   // cross-layer decisions (optional: absent = none)
    const In c = in.sub("net");
    t.net.prefetch = c.get<int>("prefetch");
    if (t.net.prefetch < 0) c.fail("prefetch", "must be >= 0");
    if (c.j.contains("consts_l3")) t.net.consts_l3 = c.get<bool>("consts_l3");
    if (c.j.contains("fuse")) t.net.fuse = c.get<bool>("fuse");
    if (c.j.contains("sibling")) t.net.sibling = c.get<bool>("sibling");
  }
  return t;
}

// ---------------------------------------------------------------- commands
json side_to(const DmaSide& d) { return {{"buffer", d.buffer}, {"offset", d.offset}, {"stride", d.stride}}; }
DmaSide side_from(const In& in) {
  DmaSide d;
  d.buffer = in.get<int>("buffer");
  d.offset = in.get<int64_t>("offset");
  d.stride = in.get<std::array<int64_t, 2>>("stride");
  return d;
}

json view_to(const BufView& v) {
  return {{"buffer", v.buffer}, {"offset", v.offset}, {"dtype", dtype_name(v.dtype)}, {"shape", v.shape},
          {"strides", v.strides}};
}
BufView view_from(const In& in) {
  BufView v;
  v.buffer = in.get<int>("buffer");
  v.offset = in.get<int64_t>("offset");
  v.dtype = dtype_of(in, in.get<std::string>("dtype"));
  v.shape = in.get<Shape>("shape");
  v.strides = in.get<Shape>("strides");
  return v;
}

json npu_weights_to(const NpuWeightGeom& g) {
  return {{"impl", g.impl}, {"op", npu_op_name(g.op)}, {"ko", g.ko}, {"ki", g.ki}, {"k", g.k}, {"w_bits", g.w_bits},
          {"rows", g.rows}, {"row_bytes", g.row_bytes}, {"channels_per_row", g.channels_per_row}};
}

NpuWeightGeom npu_weights_from(const In& in) {
  NpuWeightGeom g;
  g.impl = in.get<std::string>("impl");
  const std::string op = in.get<std::string>("op");
  if (op == npu_op_name(NpuOp::Conv3x3)) g.op = NpuOp::Conv3x3;
  else if (op == npu_op_name(NpuOp::Conv1x1)) g.op = NpuOp::Conv1x1;
  else if (op == npu_op_name(NpuOp::Dw3x3)) g.op = NpuOp::Dw3x3;
  else in.fail("op", "unknown NPU op '" + op + "'");
  g.ko = in.get<int64_t>("ko");
  g.ki = in.get<int64_t>("ki");
  g.k = in.get<int64_t>("k");
  g.w_bits = in.get<int64_t>("w_bits");
  g.rows = in.get<int64_t>("rows");
  g.row_bytes = in.get<int64_t>("row_bytes");
  g.channels_per_row = in.get<int64_t>("channels_per_row");
  return g;
}

json command_to(const Command& c) {
  json j{{"id", c.id}, {"engine", c.engine}, {"deps", c.deps}, {"note", c.note}};
  if (c.loop) j["loop"] = true;
  if (c.kind == Command::Kind::Dma) {
    j["kind"] = "dma";
    j["src"] = side_to(c.src);
    j["dst"] = side_to(c.dst);
    j["count"] = c.count;
  } else {
    j["kind"] = "compute";
    j["node"] = c.node;
    j["params"] = params_to(c.params);
    json ins = json::array(), outs = json::array();
    for (const BufView& v : c.inputs) ins.push_back(view_to(v));
    for (const BufView& v : c.outputs) outs.push_back(view_to(v));
    j["inputs"] = ins;
    j["outputs"] = outs;
    j["macs"] = c.macs;
    if (c.engine == "mvu") j["unit"] = c.unit;
    if (c.engine == "aimc") j["aimc_program"] = c.aimc_program;
    if (c.npu_weights) {
      j["npu_weights"] = npu_weights_to(*c.npu_weights);
      j["npu_row0"] = c.npu_row0;
      j["npu_skip"] = c.npu_skip;
      if (c.npu_ho > 0) j["npu_hw"] = {c.npu_ho, c.npu_wo};
    }
  }
  return j;
}

Command command_from(const In& in) {
  Command c;
  c.id = in.get<int>("id");
  c.engine = in.get<std::string>("engine");
  c.deps = in.get<std::vector<int>>("deps");
  c.note = in.get<std::string>("note");
  if (in.j.contains("loop")) c.loop = in.get<bool>("loop");
  const std::string kind = in.get<std::string>("kind");
  if (kind == "dma") {
    c.kind = Command::Kind::Dma;
    c.src = side_from(in.sub("src"));
    c.dst = side_from(in.sub("dst"));
    c.count = in.get<std::array<int64_t, 3>>("count");
  } else if (kind == "compute") {
    c.kind = Command::Kind::Compute;
    c.node = in.get<int>("node");
    c.params = params_from(in.sub("params"));
    for (const In& v : in.list("inputs")) c.inputs.push_back(view_from(v));
    for (const In& v : in.list("outputs")) c.outputs.push_back(view_from(v));
    c.macs = in.get<int64_t>("macs");
    if (c.engine == "mvu") c.unit = in.get<int>("unit");
    if (c.engine == "aimc") c.aimc_program = in.get<bool>("aimc_program");
    if (in.j.contains("npu_weights")) {
      c.npu_weights = npu_weights_from(in.sub("npu_weights"));
      c.npu_row0 = in.get<int64_t>("npu_row0");
      c.npu_skip = in.get<int64_t>("npu_skip");
      if (in.j.contains("npu_hw")) {
        const auto hw = in.get<std::vector<int64_t>>("npu_hw");
        if (hw.size() != 2 || hw[0] <= 0 || hw[1] <= 0) in.fail("npu_hw", "expected [rows, cols], both positive");
        c.npu_ho = hw[0], c.npu_wo = hw[1];
      }
    }
  } else {
    in.fail("kind", "unknown command kind '" + kind + "' (dma, compute)");
  }
  return c;
}

}  // namespace

json schedule_to_json(const Schedule& s) {
  json buffers = json::array(), placements = json::array(), steps = json::array();
  for (const Buffer& b : s.buffers)
    buffers.push_back({{"id", b.id}, {"level", level_name(b.level)}, {"offset", b.offset}, {"bytes", b.bytes},
                       {"name", b.name}, {"first_step", b.first_step}, {"last_step", b.last_step}});
  for (const Placement& p : s.placements) {
    json j{{"tensor", p.tensor}, {"buffer", p.buffer}, {"offset", p.offset}, {"strides", p.strides}};
    if (p.npu_weights) j["npu_weights"] = npu_weights_to(*p.npu_weights);
    placements.push_back(j);
  }
  for (const Step& st : s.steps) {
    json cmds = json::array();
    for (const Command& c : st.commands) cmds.push_back(command_to(c));
    json j{{"node", st.node}, {"name", st.name}, {"tiled", st.tiled}, {"buffering", st.buffering},
           {"commands", cmds}};
    if (st.tiled) j["tiling"] = tiling_to(st.tiling);
    steps.push_back(j);
  }
  return {{"format", "edgesim-schedule"}, {"version", 1}, {"network", s.network}, {"platform", s.platform},
          {"policy", s.policy}, {"buffering", s.buffering}, {"network_loop", s.network_loop}, {"buffers", buffers}, {"placements", placements},
          {"steps", steps}, {"high_water", s.high_water}};
}

Schedule schedule_from_json(const json& j) {
  const In in{j, "schedule"};
  if (in.get<std::string>("format") != "edgesim-schedule") in.fail("format", "expected \"edgesim-schedule\"");
  if (in.get<int>("version") != 1) in.fail("version", "unsupported version (expected 1)");
  Schedule s;
  s.network = in.get<std::string>("network");
  s.platform = in.get<std::string>("platform");
  s.policy = in.get<std::string>("policy");
  s.buffering = in.get<std::string>("buffering");
  if (in.j.contains("network_loop")) s.network_loop = in.get<std::string>("network_loop");
  for (const In& b : in.list("buffers")) {
    Buffer x;
    x.id = b.get<int>("id");
    x.level = level_of(b, b.get<std::string>("level"));
    x.offset = b.get<int64_t>("offset");
    x.bytes = b.get<int64_t>("bytes");
    x.name = b.get<std::string>("name");
    x.first_step = b.get<int>("first_step");
    x.last_step = b.get<int>("last_step");
    s.buffers.push_back(x);
  }
  for (const In& p : in.list("placements")) {
    Placement x;
    x.tensor = p.get<int>("tensor");
    x.buffer = p.get<int>("buffer");
    x.offset = p.get<int64_t>("offset");
    x.strides = p.get<Shape>("strides");
    if (p.j.contains("npu_weights")) x.npu_weights = npu_weights_from(p.sub("npu_weights"));
    s.placements.push_back(x);
  }
  for (const In& st : in.list("steps")) {
    Step x;
    x.node = st.get<int>("node");
    x.name = st.get<std::string>("name");
    x.tiled = st.get<bool>("tiled");
    x.buffering = st.get<int>("buffering");
    if (x.tiled) x.tiling = tiling_from(st.sub("tiling"));
    for (const In& c : st.list("commands")) x.commands.push_back(command_from(c));
    s.steps.push_back(std::move(x));
  }
  s.high_water = in.get<std::array<int64_t, 4>>("high_water");
  return s;
}

json tiling_to_json(const LayerTiling& t) { return tiling_to(t); }
LayerTiling tiling_from_json(const json& j) { return tiling_from(In{j, "tiling"}); }

uint64_t schedule_digest(const Schedule& s) {
  nlohmann::json j = schedule_to_json(s);
  j.erase("network");
  return Fnv1a().text(j.dump()).value();
}

std::string schedule_hash(const Schedule& s) { return hash_label(schedule_digest(s)); }

}  // namespace edgesim
