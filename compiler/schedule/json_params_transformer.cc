// The transformer ops' params <-> JSON (docs/schedule.md §7), beside json_params.cc: the same
// convention of {"op": <op_name>} plus the struct's fields under their C++ names, enums by name.
#include <variant>

#include "compiler/schedule/json_internal.h"

namespace edgesim::json_detail {

namespace {

const char* float_op_name(FloatStep::Op o) {
  switch (o) {
    case FloatStep::Op::Add: return "add";
    case FloatStep::Op::Sub: return "sub";
    case FloatStep::Op::Mul: return "mul";
    case FloatStep::Op::Div: return "div";
    case FloatStep::Op::Round: return "round";
    case FloatStep::Op::Clip: return "clip";
  }
  return "add";
}

template <class E>
E by_name(const In& in, const char* key, std::initializer_list<std::pair<const char*, E>> names) {
  const std::string s = in.get<std::string>(key);
  for (const auto& [n, e] : names)
    if (s == n) return e;
  in.fail(key, "unknown value '" + s + "'");
}

struct Writer {
  json operator()(const SoftmaxParams& p) const {
    return {{"kind", p.kind == SoftmaxParams::Kind::ITAMax ? "itamax" : "isoftmax"}, {"coeff_a", p.coeff_a},
            {"coeff_b", p.coeff_b}, {"coeff_c", p.coeff_c}, {"log2", p.log2}, {"n_levels", p.n_levels}};
  }
  json operator()(const NormParams& p) const {
    return {{"kind", p.kind == NormParams::Kind::Layer ? "layer" : "rms"}, {"log2_d", p.log2_d},
            {"n_levels", p.n_levels}, {"weight", p.weight}, {"bias", p.bias}};
  }
  json operator()(const ActParams& p) const {
    return {{"kind", p.kind == ActParams::Kind::GELU ? "gelu" : "hardswish"}, {"one_over_six", p.one_over_six},
            {"six", p.six}, {"three", p.three}, {"b", p.b}, {"one", p.one}, {"rq", rq_to(p.rq)}};
  }
  json operator()(const MeanParams& p) const { return {{"axes", p.axes}, {"keepdims", p.keepdims}}; }
  json operator()(const GatherParams& p) const { return {{"axis", p.axis}, {"index", p.index}}; }
  json operator()(const FloatChainParams& p) const {
    json steps = json::array();
    for (const FloatStep& s : p.steps)
      steps.push_back({{"op", float_op_name(s.op)}, {"value", s.value}, {"reversed", s.reversed}, {"lo", s.lo},
                       {"hi", s.hi}});
    return {{"steps", steps}};
  }
  template <class P>
  json operator()(const P&) const { throw std::logic_error("transformer_params_to: not a transformer op"); }
};

}  // namespace

json transformer_params_to(const OpParams& p) { return std::visit(Writer{}, p); }

OpParams transformer_params_from(OpKind kind, const In& in) {
  switch (kind) {
    case OpKind::Softmax: {
      SoftmaxParams p;
      p.kind = by_name<SoftmaxParams::Kind>(in, "kind", {{"isoftmax", SoftmaxParams::Kind::ISoftmax},
                                                         {"itamax", SoftmaxParams::Kind::ITAMax}});
      p.coeff_a = in.get<int64_t>("coeff_a"), p.coeff_b = in.get<int64_t>("coeff_b");
      p.coeff_c = in.get<int64_t>("coeff_c"), p.log2 = in.get<int64_t>("log2");
      p.n_levels = in.get<int64_t>("n_levels");
      return p;
    }
    case OpKind::Norm: {
      NormParams p;
      p.kind = by_name<NormParams::Kind>(in, "kind", {{"rms", NormParams::Kind::RMS}, {"layer", NormParams::Kind::Layer}});
      p.log2_d = in.get<int>("log2_d"), p.n_levels = in.get<int64_t>("n_levels");
      p.weight = in.get<std::vector<int64_t>>("weight"), p.bias = in.get<std::vector<int64_t>>("bias");
      return p;
    }
    case OpKind::Act: {
      ActParams p;
      p.kind = by_name<ActParams::Kind>(in, "kind", {{"hardswish", ActParams::Kind::Hardswish},
                                                     {"gelu", ActParams::Kind::GELU}});
      p.one_over_six = in.get<int64_t>("one_over_six"), p.six = in.get<int64_t>("six");
      p.three = in.get<int64_t>("three"), p.b = in.get<int64_t>("b"), p.one = in.get<int64_t>("one");
      p.rq = rq_from(in.sub("rq"));
      return p;
    }
    case OpKind::Mean: return MeanParams{in.get<std::vector<int64_t>>("axes"), in.get<bool>("keepdims")};
    case OpKind::Gather: return GatherParams{in.get<int64_t>("axis"), in.get<int64_t>("index")};
    case OpKind::FloatChain: {
      FloatChainParams p;
      for (const In& s : in.list("steps")) {
        FloatStep f;
        f.op = by_name<FloatStep::Op>(s, "op", {{"add", FloatStep::Op::Add}, {"sub", FloatStep::Op::Sub},
                                                {"mul", FloatStep::Op::Mul}, {"div", FloatStep::Op::Div},
                                                {"round", FloatStep::Op::Round}, {"clip", FloatStep::Op::Clip}});
        f.value = s.get<float>("value"), f.reversed = s.get<bool>("reversed");
        f.lo = s.get<float>("lo"), f.hi = s.get<float>("hi");
        p.steps.push_back(f);
      }
      return p;
    }
    default: in.fail("op", "unknown op");
  }
}

}  // namespace edgesim::json_detail
