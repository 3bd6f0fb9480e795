// assign_engines (assign_engine.h): preference order, the NPU's exactness rules, WMEM homing.
#include "compiler/passes/assign_engine.h"

#include <algorithm>
#include <functional>
#include <stdexcept>

#include <fmt/format.h>

#include "compiler/passes/diana_rules.h"
#include "compiler/passes/engine_registry.h"

namespace edgesim {

namespace {

bool has(const std::vector<int64_t>& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }
bool has(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

bool npu_present(const PlatformSpec& s) { return npu_encoded(s) || (s.npu.present && s.npu.impl == "soma"); }

std::string engine_missing(const PlatformSpec& s, const std::string& e) {
  const EngineDef* d = find_engine(e);
  if (!d) {
    std::string known;
    for (const EngineDef* x : engine_defs()) known += (known.empty() ? "" : ", ") + x->name;
    return "unknown engine (known: " + known + "; on DIANA also digital, analog, host)";
  }
  return d->missing(s);
}

// DIANA's role names for its engines (engine_role), accepted in engine lists: the engine the
// platform has whose role the name is.
std::string engine_of_role(const PlatformSpec& s, const std::string& e) {
  if (find_engine(e)) return e;
  for (const EngineDef* d : engine_defs())
    if (d->role && d->missing(s).empty() && d->role(s) == e) return d->name;
  return e;
}

// Whether engine e's refusal of a node of kind k is an offload warning.
bool warns(const PlatformSpec& s, const std::string& e, OpKind k) {
  const EngineDef* d = find_engine(e);
  return d && d->warns && d->warns(s, k);
}

int64_t range_lo(DType t) { return t == DType::U8 ? 0 : t == DType::I8 ? -128 : INT32_MIN; }
int64_t range_hi(DType t) { return t == DType::U8 ? 255 : t == DType::I8 ? 127 : INT32_MAX; }

NpuOp npu_op(const ConvParams& p, bool depthwise) {
  if (depthwise) return NpuOp::Dw3x3;
  return p.kh == 1 ? NpuOp::Conv1x1 : NpuOp::Conv3x3;
}

// The requantisation rules the NPU's normalisation unit reproduces exactly: y = clamp((acc ·
// scale[c] + bias[c]) >> shift) with scale = k·mul (unsigned, ≤ 32 bit) and bias = b·scale +
// λ·mul + r (int32), per output channel c (b: the node's bias for that channel, 0 if none).
std::string npu_requant_rejects(const Requant& rq, const TensorDesc& y, const NpuSpec& npu, int64_t cout,
                                const std::function<int64_t(int64_t)>& bias_of) {
  if (!rq.enabled()) {
    if (y.dtype != DType::I32 || !has(npu.out_bits, 32)) return "raw accumulator output needs 32-bit npu.out_bits";
    return "";
  }
  if (rq.kind != Requant::Kind::Integer) return "float requantisation";
  if (rq.div != 0) return "exact-divisor requantisation (not a shift)";
  if (y.dtype != DType::U8 && y.dtype != DType::I8) return "output is not 8-bit";
  if (!has(npu.out_bits, 8)) return "8-bit outputs not in npu.out_bits";
  if (rq.shift < 0 || rq.shift > 31) return fmt::format("shift {}", rq.shift);
  const int64_t lo = range_lo(y.dtype), hi = range_hi(y.dtype);
  if (rq.hi != hi || (rq.lo != lo && rq.lo != 0)) return fmt::format("clamp [{}, {}] is neither the output range nor ReLU", rq.lo, rq.hi);
  for (int64_t c = 0; c < cout; ++c) {
    const int64_t k = rq.k.size() == 1 ? rq.k[0] : rq.k.at(static_cast<size_t>(c));
    const int64_t l = rq.lambda.size() == 1 ? rq.lambda[0] : rq.lambda.at(static_cast<size_t>(c));
    const __int128 scale = static_cast<__int128>(k) * rq.mul;
    if (scale < 0 || scale > UINT32_MAX) return fmt::format("channel {}: scale {} does not fit unsigned 32 bit", c, static_cast<int64_t>(scale));
    const __int128 bias = static_cast<__int128>(bias_of(c)) * scale + static_cast<__int128>(l) * rq.mul + rq.round;
    if (bias < INT32_MIN || bias > INT32_MAX) return fmt::format("channel {}: bias does not fit int32", c);
  }
  return "";
}

// A Gemm / MatMul with constant weights as N-EUREKA's 1x1 conv over its rows (Deeploy's
// RequantizedGemmToPwPass, [60] LoweringOptimizationPasses.py: pwIn [B, 1, M, K], weights [N, K];
// "The Linear layers will automatically be executed by the NPU", [60] tutorial). Activations x
// activations MatMuls stay on the cluster; so do requants that vary along the rows (the conv's
// normalisation is per output channel) and NE16 (no GEMM lowering in the flows).
std::string npu_gemm_rejects(const Graph& g, const Node& n, const PlatformSpec& spec) {
  const NpuSpec& npu = spec.npu;
  const GemmParams& p = n.as<GemmParams>();
  if (npu.impl != "neureka") return "GEMM lowering to the NPU exists for N-EUREKA only";
  if (n.inputs.size() != 2 || n.outputs.size() != 1) return "unexpected operands";
  const TensorDesc& a = g.tensor(n.inputs[0]);
  const TensorDesc& w = g.tensor(n.inputs[1]);
  const TensorDesc& y = g.tensor(n.outputs[0]);
  if (!w.is_const()) return "B is a runtime tensor (activations x activations stay on the cluster)";
  if (w.shape.size() != 2) return "batched weights";
  if (p.trans_a || a.shape.size() < 2 || a.shape.size() > 3) return "A is not [M, K] or [B, M, K]";
  if (!has(npu.ops, "conv1x1") || !has(npu.kernel_sizes, 1)) return "conv1x1 not in npu.ops";
  if (a.dtype != DType::U8 && a.dtype != DType::I8) return "input is not 8-bit";
  if (static_cast<int64_t>(dtype_size(a.dtype)) * 8 != npu.act_bits) return "input bits differ from npu.act_bits";
  if (!p.a_zp.empty() || !p.b_zp.empty()) return "zero points";
  if (w.dtype != DType::I8) return "weights are not signed 8-bit";
  if (!has(npu.w_bits, 8)) return "8-bit weights not in npu.w_bits";
  for (const Node& o : g.nodes)
    if (&o != &n && std::find(o.inputs.begin(), o.inputs.end(), n.inputs[1]) != o.inputs.end())
      return "weights shared with another node";
  const int64_t cols = y.shape.back();
  const int last = static_cast<int>(y.shape.size()) - 1;
  if (p.rq.enabled() && p.rq.axis >= 0 && p.rq.axis != last && p.rq.channels() > 1)
    return "requant varies along the rows (the NPU normalises per output channel)";
  Shape bs = p.bias_shape;
  while (!bs.empty() && bs.front() == 1) bs.erase(bs.begin());
  if (p.bias.size() > 1 && !(bs.size() == 1 && bs[0] == cols)) return "bias varies along the rows";
  return npu_requant_rejects(p.rq, y, npu, cols, [&](int64_t c) {
    return p.bias.empty() ? 0 : p.bias.size() == 1 ? p.bias[0] : p.bias.at(static_cast<size_t>(c));
  });
}

// The N-EUREKA / NE16 rules for one conv node (assign_engine.h).
std::string npu_rejects(const Graph& g, const Node& n, const PlatformSpec& spec) {
  const NpuSpec& npu = spec.npu;
  if (n.kind() == OpKind::Gemm) return npu_gemm_rejects(g, n, spec);
  if (n.kind() != OpKind::Conv) return std::string(op_name(n.kind())) + " is not a convolution";
  const ConvParams& p = n.as<ConvParams>();
  if (n.inputs.size() != 2 || n.outputs.size() != 1) return "unexpected operands";
  const TensorDesc& x = g.tensor(n.inputs[0]);
  const TensorDesc& w = g.tensor(n.inputs[1]);
  const TensorDesc& y = g.tensor(n.outputs[0]);
  if (x.shape.size() != 4 || y.shape.size() != 4 || p.is_1d) return "not a 2-D convolution";
  const bool dw = p.depthwise(x.shape[1], y.shape[1]);
  if (p.groups != 1 && !dw) return fmt::format("grouped convolution ({} groups)", p.groups);
  if (p.kh != p.kw || (p.kh != 1 && p.kh != 3)) return fmt::format("kernel {}x{} (npu: 1x1, 3x3)", p.kh, p.kw);
  if (!has(npu.kernel_sizes, p.kh)) return fmt::format("kernel {}x{} not in npu.kernel_sizes", p.kh, p.kw);
  const char* op = dw ? (p.kh == 3 ? "dw3x3" : "dw1x1") : (p.kh == 3 ? "conv3x3" : "conv1x1");
  if (!has(npu.ops, op)) return fmt::format("{} not in npu.ops", op);
  if (p.dh != 1 || p.dw != 1) return "dilation";
  if (p.sh != p.sw || !has(npu.strides, p.sh)) return fmt::format("stride {}x{} not in npu.strides", p.sh, p.sw);
  if (x.dtype != DType::U8 && x.dtype != DType::I8) return "input is not 8-bit";
  // pulp-nnx: NE16 streams unsigned inputs only (N-EUREKA has an input-signed flag); both drivers
  // pad by at most 2 (NE16_MAX_PAD, NEUREKA_MAX_PAD).
  if (x.dtype == DType::I8 && spec.npu.impl == "ne16") return "signed input (NE16 takes uint8)";
  if (std::max({p.pad_t, p.pad_l, p.pad_b, p.pad_r}) > 2) return "padding above 2";
  if (static_cast<int64_t>(dtype_size(x.dtype)) * 8 != npu.act_bits) return "input bits differ from npu.act_bits";
  if (p.x_zp != 0) return "input zero point";
  if (!w.is_const()) return "weights are not constant";
  if (w.dtype != DType::I8) return "weights are not signed 8-bit";
  if (!has(npu.w_bits, 8)) return "8-bit weights not in npu.w_bits";
  for (int64_t z : p.w_zp)
    if (z != 0) return "weight zero point";
  for (const Node& o : g.nodes)
    if (&o != &n && std::find(o.inputs.begin(), o.inputs.end(), n.inputs[1]) != o.inputs.end())
      return "weights shared with another node";
  return npu_requant_rejects(p.rq, y, npu, y.shape[1], [&](int64_t c) {
    return p.bias.empty() ? 0 : p.bias.at(static_cast<size_t>(c));
  });
}

// The BARVINN MVU rules: a dense 2-D convolution of 8-bit integer tensors with raw int32 outputs,
// which the bit-serial array computes exactly. Capacities are checked when the schedule is built.
std::string mvu_rejects(const Graph& g, const Node& n, const PlatformSpec& spec) {
  if (n.kind() != OpKind::Conv) return std::string(op_name(n.kind())) + " is not a convolution";
  const ConvParams& p = n.as<ConvParams>();
  if (n.inputs.size() != 2 || n.outputs.size() != 1) return "unexpected operands";
  const TensorDesc& x = g.tensor(n.inputs[0]);
  const TensorDesc& w = g.tensor(n.inputs[1]);
  const TensorDesc& y = g.tensor(n.outputs[0]);
  if (x.shape.size() != 4 || y.shape.size() != 4) return "not a 2-D convolution";
  if (p.groups != 1) return fmt::format("grouped convolution ({} groups)", p.groups);
  if (p.dh != 1 || p.dw != 1) return "dilation";
  if (x.dtype != DType::U8 && x.dtype != DType::I8) return "input is not 8-bit";
  // pulp-nnx: NE16 streams unsigned inputs only (N-EUREKA has an input-signed flag); both drivers
  // pad by at most 2 (NE16_MAX_PAD, NEUREKA_MAX_PAD).
  if (x.dtype == DType::I8 && spec.npu.impl == "ne16") return "signed input (NE16 takes uint8)";
  if (std::max({p.pad_t, p.pad_l, p.pad_b, p.pad_r}) > 2) return "padding above 2";
  if (!w.is_const() || (w.dtype != DType::U8 && w.dtype != DType::I8)) return "weights are not constant 8-bit";
  if (p.x_zp != 0) return "input zero point";
  for (int64_t z : p.w_zp)
    if (z != 0) return "weight zero point";
  const int64_t lo = spec.mvu.prec_min, hi = spec.mvu.prec_max;
  if (8 < lo || 8 > hi) return "8-bit precision outside mvu.prec_min..prec_max";
  // The MVU's quantizer keeps `oprec` bits below a chosen MSB; whether that equals a requant's
  // clamp is not established, so only raw int32 accumulators are mapped (docs/npu.md).
  if (p.rq.enabled() || y.dtype != DType::I32) return "only raw int32 outputs (the quantizer is not modelled bit-exactly)";
  return "";
}

}  // namespace

bool npu_encoded(const PlatformSpec& s) { return s.npu.present && (s.npu.impl == "neureka" || s.npu.impl == "ne16"); }

// The built-in engines. Default preference: DIANA's analog core first (HTVM matches the analog
// pattern first), then the NPU, the MVU array, and the cluster, which runs every node.
std::vector<EngineDef> builtin_engine_defs() {
  std::vector<EngineDef> v(4);
  v[0].name = "npu";
  v[0].missing = [](const PlatformSpec& s) -> std::string {
    if (!s.npu.present) return "the platform has no npu section";
    if (!npu_present(s)) return "npu.impl '" + s.npu.impl + "' is not simulated (neureka, ne16, soma are)";
    return "";
  };
  v[0].rejects = [](const Graph& g, int node, const PlatformSpec& s) {
    return s.npu.impl == "soma" ? soma_rejects(g, node, s) : npu_rejects(g, g.nodes.at(static_cast<size_t>(node)), s);
  };
  v[0].role = [](const PlatformSpec& s) { return s.npu.present && s.npu.impl == "soma" ? "digital" : "npu"; };
  v[0].warns = [](const PlatformSpec& s, OpKind) { return s.npu.present && s.npu.impl == "soma"; };
  v[0].default_rank = 1;
  v[1].name = "aimc";
  v[1].missing = [](const PlatformSpec& s) { return s.aimc.present ? "" : "the platform has no aimc section"; };
  v[1].rejects = [](const Graph& g, int node, const PlatformSpec& s) { return aimc_rejects(g, node, s); };
  v[1].role = [](const PlatformSpec&) { return "analog"; };
  v[1].warns = [](const PlatformSpec&, OpKind k) { return k == OpKind::Conv; };   // its pattern: convolutions
  v[1].default_rank = 0;
  v[2].name = "mvu";
  v[2].missing = [](const PlatformSpec& s) { return s.mvu.present ? "" : "the platform has no mvu section"; };
  v[2].rejects = [](const Graph& g, int node, const PlatformSpec& s) {
    return mvu_rejects(g, g.nodes.at(static_cast<size_t>(node)), s);
  };
  v[2].default_rank = 2;
  v[3].name = "cluster";
  v[3].missing = [](const PlatformSpec& s) { return s.cluster.present ? "" : "the platform has no cluster section"; };
  v[3].rejects = [](const Graph&, int, const PlatformSpec&) { return std::string(); };
  v[3].role = [](const PlatformSpec& s) { return s.cluster.present && s.cluster.impl == "riscv_host" ? "host" : "cluster"; };
  v[3].default_rank = 3;
  return v;
}

std::string engine_role(const PlatformSpec& s, const std::string& engine) {
  const EngineDef* d = find_engine(engine);
  return d && d->role ? d->role(s) : engine;
}

std::vector<std::string> engine_preference(const PlatformSpec& spec) {
  if (!spec.engines.empty()) return spec.engines;
  std::vector<const EngineDef*> present;
  for (const EngineDef* d : engine_defs())
    if (d->default_rank >= 0 && d->missing(spec).empty()) present.push_back(d);
  std::stable_sort(present.begin(), present.end(),
                   [](const EngineDef* a, const EngineDef* b) { return a->default_rank < b->default_rank; });
  std::vector<std::string> r;
  for (const EngineDef* d : present) r.push_back(d->name);
  return r;
}

std::string engine_rejects(const Graph& g, int node, const std::string& engine, const PlatformSpec& spec) {
  const std::string missing = engine_missing(spec, engine);
  if (!missing.empty()) return missing;
  return find_engine(engine)->rejects(g, node, spec);
}

NpuWeightGeom npu_weight_geom_of(const Graph& g, int node, const PlatformSpec& spec) {
  const Node& n = g.nodes.at(static_cast<size_t>(node));
  if (n.kind() == OpKind::Gemm) {   // B as the 1x1 conv weights [N, K]
    const Shape& ws = g.tensor(n.inputs[1]).shape;
    const bool tb = n.as<GemmParams>().trans_b;
    NpuWeightGeom wg = npu_weight_geom(spec.npu, NpuOp::Conv1x1, tb ? ws[0] : ws[1], tb ? ws[1] : ws[0], 8);
    wg.logical = tb ? NpuWeightGeom::Logical::GemmNK : NpuWeightGeom::Logical::GemmKN;
    return wg;
  }
  const ConvParams& p = n.as<ConvParams>();
  const Shape& xs = g.tensor(n.inputs[0]).shape;
  const Shape& ys = g.tensor(n.outputs[0]).shape;
  const bool dw = p.depthwise(xs[1], ys[1]);
  return npu_weight_geom(spec.npu, npu_op(p, dw), ys[1], dw ? 1 : xs[1], 8);
}

EngineAssignment assign_engines(Graph& g, const PlatformSpec& spec, const std::vector<std::string>& engines) {
  EngineAssignment a;
  a.preference = engines.empty() ? engine_preference(spec) : engines;
  a.npu_encoded = npu_encoded(spec);
  for (std::string& e : a.preference) {
    e = engine_of_role(spec, e);
    a.labels.push_back(engine_role(spec, e));
  }
  if (a.preference.empty()) throw std::invalid_argument("platform " + spec.name + " has no engine that runs layers");
  for (const std::string& e : a.preference) {
    const std::string missing = engine_missing(spec, e);
    if (!missing.empty()) throw std::invalid_argument(fmt::format("engine '{}' on platform {}: {}", e, spec.name, missing));
  }
  // Weight memory in use by NPU layers?
  const std::string src = spec.npu.weight_source.empty() ? "auto" : spec.npu.weight_source;
  if (has(a.preference, "npu") && src == "wmem" && !spec.wmem.present)
    throw std::invalid_argument("npu.weight_source is wmem but platform " + spec.name + " has no wmem section");
  if (spec.wmem.present && (src == "wmem" || src == "auto")) {
    const int64_t b = spec.budgets.deeploy.present ? spec.budgets.deeploy.wmem : 0;
    a.wmem_budget = b > 0 ? std::min(b, spec.wmem.size) : spec.wmem.size;
  }
  a.why_not.assign(g.nodes.size(), "");
  for (size_t k = 0; k < g.nodes.size(); ++k) {
    Node& n = g.nodes[k];
    n.engine.clear();
    n.wmem_weights = false;
    std::string why, warn;   // warn: the refusals HTVM would warn about (DIANA's accelerators)
    for (const std::string& e : a.preference) {
      const std::string r = engine_rejects(g, static_cast<int>(k), e, spec);
      if (r.empty()) {
        n.engine = e;
        break;
      }
      why += fmt::format("{}{}: {}", why.empty() ? "" : "; ", engine_role(spec, e), r);
      if (warns(spec, e, n.kind())) warn += fmt::format("{}{}: {}", warn.empty() ? "" : "; ", engine_role(spec, e), r);
    }
    if (n.engine.empty())
      throw std::runtime_error(fmt::format("node {} '{}' ({}): no engine of platform {} runs it ({})", k, n.name,
                                           op_name(n.kind()), spec.name, why));
    a.why_not[k] = why;
    // DIANA: one warning per layer the accelerators left to the host, naming each one's broken rule.
    if (Graph::is_layer(n) && !warn.empty() && n.engine == "cluster")
      a.warnings.push_back(fmt::format("node {} '{}' ({}) runs on the {}: {}", k, n.name, op_name(n.kind()),
                                       engine_role(spec, n.engine), warn));
    if (n.engine == "npu" && npu_encoded(spec) && a.wmem_budget > 0) {
      const int64_t bytes = (npu_weight_geom_of(g, static_cast<int>(k), spec).bytes() + 3) / 4 * 4;
      if (a.wmem_bytes + bytes <= a.wmem_budget) {
        n.wmem_weights = true;
        a.wmem_bytes += bytes;
      }
    }
  }
  return a;
}

std::string engine_reason(const Graph& g, const EngineAssignment& a, int node) {
  const Node& n = g.nodes.at(static_cast<size_t>(node));
  if (n.engine.empty()) return "";
  const std::string why = static_cast<size_t>(node) < a.why_not.size() ? a.why_not[static_cast<size_t>(node)] : "";
  std::string s;
  if (why.empty()) {
    if (a.preference.size() <= 1) s = "the only engine";
    else if (n.engine == a.preference.front()) s = "first choice";
    else s = "a " + n.engine + " node (inserted by a pass)";
  } else {
    // why_not reads "npu: dilation; mvu: ..." -> "not npu: dilation; not mvu: ..."
    size_t start = 0;
    while (start < why.size()) {
      const size_t end = why.find("; ", start);
      s += (s.empty() ? "not " : "; not ") + why.substr(start, end == std::string::npos ? std::string::npos : end - start);
      if (end == std::string::npos) break;
      start = end + 2;
    }
  }
  if (n.engine == "npu" && a.npu_encoded) s += n.wmem_weights ? ", weights in WMEM" : ", weights in L2";
  return s;
}

}  // namespace edgesim
