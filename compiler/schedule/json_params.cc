// OpParams and Requant <-> JSON (docs/schedule.md §7): {"op": <op_name>} plus the fields of the
// params struct under their C++ names; enums by name; float32 scales written as JSON numbers
// (exact as doubles, so they read back to the same float).
#include <algorithm>
#include <variant>

#include "compiler/schedule/json_internal.h"

namespace edgesim::json_detail {

namespace {

const char* rq_kind_name(Requant::Kind k) {
  switch (k) {
    case Requant::Kind::None: return "none";
    case Requant::Kind::Integer: return "integer";
    case Requant::Kind::Float: return "float";
  }
  return "none";
}

Requant::Kind rq_kind(const In& in, const std::string& s) {
  if (s == "none") return Requant::Kind::None;
  if (s == "integer") return Requant::Kind::Integer;
  if (s == "float") return Requant::Kind::Float;
  in.fail("kind", "unknown requant kind '" + s + "'");
}

}  // namespace

// ---------------------------------------------------------------- Requant
json rq_to(const Requant& r) {
  return json{{"kind", rq_kind_name(r.kind)}, {"axis", r.axis}, {"k", r.k}, {"lambda", r.lambda},
              {"mul", r.mul}, {"shift", r.shift}, {"round", r.round}, {"div", r.div},
              {"scale", r.scale}, {"zp", r.zp}, {"lo", r.lo}, {"hi", r.hi}};
}

Requant rq_from(const In& in) {
  Requant r;
  r.kind = rq_kind(in, in.get<std::string>("kind"));
  r.axis = in.get<int>("axis");
  r.k = in.get<std::vector<int64_t>>("k");
  r.lambda = in.get<std::vector<int64_t>>("lambda");
  r.mul = in.get<int64_t>("mul");
  r.shift = in.get<int>("shift");
  r.round = in.get<int64_t>("round");
  r.div = in.get<int64_t>("div");
  r.scale = in.get<std::vector<double>>("scale");
  r.zp = in.get<int64_t>("zp");
  r.lo = in.get<int64_t>("lo");
  r.hi = in.get<int64_t>("hi");
  return r;
}

namespace {

std::vector<double> widen(const std::vector<float>& v) { return std::vector<double>(v.begin(), v.end()); }
std::vector<float> narrow(const std::vector<double>& v) {
  std::vector<float> r;
  for (double d : v) r.push_back(static_cast<float>(d));
  return r;
}

// ---------------------------------------------------------------- OpParams
struct ParamsWriter {
  json operator()(const ConvParams& p) const {
    return {{"kh", p.kh}, {"kw", p.kw}, {"sh", p.sh}, {"sw", p.sw}, {"dh", p.dh}, {"dw", p.dw},
            {"pad_t", p.pad_t}, {"pad_l", p.pad_l}, {"pad_b", p.pad_b}, {"pad_r", p.pad_r},
            {"groups", p.groups}, {"is_1d", p.is_1d}, {"bias", p.bias}, {"x_zp", p.x_zp},
            {"w_zp", p.w_zp}, {"rq", rq_to(p.rq)}};
  }
  json operator()(const GemmParams& p) const {
    return {{"trans_a", p.trans_a}, {"trans_b", p.trans_b}, {"bias", p.bias}, {"bias_shape", p.bias_shape},
            {"a_zp", p.a_zp}, {"b_zp", p.b_zp}, {"rq", rq_to(p.rq)}};
  }
  json operator()(const AddParams& p) const {
    return {{"mul1", p.mul1}, {"add1", p.add1}, {"shift1", p.shift1}, {"mul2", p.mul2}, {"add2", p.add2},
            {"shift2", p.shift2}, {"shift_sum", p.shift_sum}, {"rq", rq_to(p.rq)}};
  }
  json operator()(const MulParams& p) const { return {{"rq", rq_to(p.rq)}}; }
  json operator()(const PoolParams& p) const {
    return {{"kind", p.kind == PoolParams::Kind::Max ? "max" : "sum"}, {"kh", p.kh}, {"kw", p.kw},
            {"sh", p.sh}, {"sw", p.sw}, {"pad_t", p.pad_t}, {"pad_l", p.pad_l}, {"pad_b", p.pad_b},
            {"pad_r", p.pad_r}, {"ceil_mode", p.ceil_mode}, {"global", p.global}, {"is_1d", p.is_1d},
            {"x_zp", p.x_zp}, {"rq", rq_to(p.rq)}};
  }
  json operator()(const ClipParams& p) const { return {{"lo", p.lo}, {"hi", p.hi}}; }
  json operator()(const RequantParams& p) const { return {{"rq", rq_to(p.rq)}}; }
  json operator()(const PadParams& p) const { return {{"pads", p.pads}, {"value", p.value}}; }
  json operator()(const ConcatParams& p) const { return {{"axis", p.axis}}; }
  json operator()(const ReshapeParams&) const { return json::object(); }
  json operator()(const TransposeParams& p) const {
    json j{{"perm", p.perm}};
    if (!p.relayout.empty()) j["relayout"] = p.relayout;
    if (p.par_axis >= 0) j["par_axis"] = p.par_axis;
    if (p.runtime_index) j["runtime_index"] = true;
    return j;
  }
  json operator()(const QuantizeParams& p) const {
    return {{"axis", p.axis}, {"scale", widen(p.scale)}, {"zp", p.zp}};
  }
  json operator()(const DequantizeParams& p) const {
    return {{"axis", p.axis}, {"scale", widen(p.scale)}, {"zp", p.zp}};
  }
  template <class P>
  json operator()(const P& p) const { return transformer_params_to(OpParams{p}); }
};

}  // namespace

json params_to(const OpParams& p) {
  json j = std::visit(ParamsWriter{}, p);
  j["op"] = op_name(static_cast<OpKind>(p.index()));
  return j;
}

OpParams params_from(const In& in) {
  const std::string op = in.get<std::string>("op");
  int kind = -1;
  for (int k = 0; k <= static_cast<int>(OpKind::FloatChain); ++k)
    if (op == op_name(static_cast<OpKind>(k))) kind = k;
  if (kind < 0) in.fail("op", "unknown op '" + op + "'");
  switch (static_cast<OpKind>(kind)) {
    case OpKind::Conv: {
      ConvParams p;
      p.kh = in.get<int64_t>("kh"), p.kw = in.get<int64_t>("kw");
      p.sh = in.get<int64_t>("sh"), p.sw = in.get<int64_t>("sw");
      p.dh = in.get<int64_t>("dh"), p.dw = in.get<int64_t>("dw");
      p.pad_t = in.get<int64_t>("pad_t"), p.pad_l = in.get<int64_t>("pad_l");
      p.pad_b = in.get<int64_t>("pad_b"), p.pad_r = in.get<int64_t>("pad_r");
      p.groups = in.get<int64_t>("groups");
      p.is_1d = in.get<bool>("is_1d");
      p.bias = in.get<std::vector<int64_t>>("bias");
      p.x_zp = in.get<int64_t>("x_zp");
      p.w_zp = in.get<std::vector<int64_t>>("w_zp");
      p.rq = rq_from(in.sub("rq"));
      return p;
    }
    case OpKind::Gemm: {
      GemmParams p;
      p.trans_a = in.get<bool>("trans_a"), p.trans_b = in.get<bool>("trans_b");
      p.bias = in.get<std::vector<int64_t>>("bias");
      p.bias_shape = in.get<Shape>("bias_shape");
      p.a_zp = in.get<std::vector<int64_t>>("a_zp");
      p.b_zp = in.get<std::vector<int64_t>>("b_zp");
      p.rq = rq_from(in.sub("rq"));
      return p;
    }
    case OpKind::Add: {
      AddParams p;
      p.mul1 = in.get<int64_t>("mul1"), p.add1 = in.get<int64_t>("add1"), p.shift1 = in.get<int64_t>("shift1");
      p.mul2 = in.get<int64_t>("mul2"), p.add2 = in.get<int64_t>("add2"), p.shift2 = in.get<int64_t>("shift2");
      p.shift_sum = in.get<int64_t>("shift_sum");
      p.rq = rq_from(in.sub("rq"));
      return p;
    }
    case OpKind::Mul: {
      MulParams p;
      p.rq = rq_from(in.sub("rq"));
      return p;
    }
    case OpKind::Pool: {
      PoolParams p;
      const std::string k = in.get<std::string>("kind");
      if (k != "max" && k != "sum") in.fail("kind", "unknown pool kind '" + k + "'");
      p.kind = k == "max" ? PoolParams::Kind::Max : PoolParams::Kind::Sum;
      p.kh = in.get<int64_t>("kh"), p.kw = in.get<int64_t>("kw");
      p.sh = in.get<int64_t>("sh"), p.sw = in.get<int64_t>("sw");
      p.pad_t = in.get<int64_t>("pad_t"), p.pad_l = in.get<int64_t>("pad_l");
      p.pad_b = in.get<int64_t>("pad_b"), p.pad_r = in.get<int64_t>("pad_r");
      p.ceil_mode = in.get<bool>("ceil_mode"), p.global = in.get<bool>("global");
      p.is_1d = in.get<bool>("is_1d");
      p.x_zp = in.get<int64_t>("x_zp");
      p.rq = rq_from(in.sub("rq"));
      return p;
    }
    case OpKind::Clip: return ClipParams{in.get<int64_t>("lo"), in.get<int64_t>("hi")};
    case OpKind::Requant: {
      RequantParams p;
      p.rq = rq_from(in.sub("rq"));
      return p;
    }
    case OpKind::Pad: return PadParams{in.get<std::vector<int64_t>>("pads"), in.get<int64_t>("value")};
    case OpKind::Concat: return ConcatParams{in.get<int64_t>("axis")};
    case OpKind::Reshape: return ReshapeParams{};
    case OpKind::Transpose: {
      TransposeParams t{in.get<std::vector<int64_t>>("perm"), ""};
      if (in.has("relayout")) {
        t.relayout = in.get<std::string>("relayout");
        if (t.relayout != "nchw_to_hwc" && t.relayout != "hwc_to_nchw")
          in.fail("relayout", "unknown layout conversion '" + t.relayout + "'");
      }
      if (in.has("par_axis")) {
        t.par_axis = in.get<int>("par_axis");
        if (t.par_axis < 0 || t.par_axis >= static_cast<int>(std::max<size_t>(t.perm.size(), 4)))
          in.fail("par_axis", "axis " + std::to_string(t.par_axis) + " out of range");
      }
      if (in.has("runtime_index")) t.runtime_index = in.get<bool>("runtime_index");
      return t;
    }
    case OpKind::Quantize:
      return QuantizeParams{in.get<int>("axis"), narrow(in.get<std::vector<double>>("scale")),
                            in.get<std::vector<int64_t>>("zp")};
    case OpKind::Dequantize:
      return DequantizeParams{in.get<int>("axis"), narrow(in.get<std::vector<double>>("scale")),
                              in.get<std::vector<int64_t>>("zp")};
    default: return transformer_params_from(static_cast<OpKind>(kind), in);
  }
  in.fail("op", "unknown op '" + op + "'");
}

}  // namespace edgesim::json_detail
