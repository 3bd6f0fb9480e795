// Dialect recognition and the graph-input dtype conventions of each dialect (docs/dialects.md,
// one section per dialect):
//   qdq       QuantizeLinear / DequantizeLinear / QLinear* / *Integer ops
//   deeploy   RequantShift or another QuantLib custom op, or the PACTOps / contrib domain
//   quantlab  QuantLab's informational attributes (weight_bits, out_bits, in1_mul, ...)
//   fakequant float fake-quantisation graph: Round inside Div / Add / Round / Clip quantisers
//             (Deeploy's Transformer_DeepQuant); float inputs stay F32
//   nemo      integer-valued float graph with Div / Clip / Cast / Floor requant chains
//   onnx-int  anything else: an integer-valued float graph without requant (BARVINN)
// Inputs: NEMO and QuantLab activations are uint8 by convention. Deeploy and plain integer
// graphs take ImportOptions' default and mark the dtype as inferred, so that load_inputs may
// re-type from the data (Deeploy's runner infers the type from the value range). Inputs
// declared as 8/16-bit integers keep their type; float inputs of QDQ graphs stay F32.
#include <set>

#include "compiler/frontend/handlers.h"

namespace edgesim::frontend {

std::string detect_dialect(const OnnxModel& m) {
  static const std::set<std::string> qdq = {"QuantizeLinear", "DequantizeLinear", "QLinearConv", "QLinearMatMul",
                                            "ConvInteger", "MatMulInteger", "DynamicQuantizeLinear"};
  static const std::set<std::string> deeploy = {"RequantShift", "iSoftmax", "ITAMax", "iRMSNorm", "iLayerNorm",
                                                "iGELU", "iHardswish", "TrueIntegerDiv", "IntegerMean"};
  static const std::set<std::string> ql_attrs = {"weight_bits", "bias_bits", "mult_bits", "add_bits", "out_bits",
                                                 "in1_mul", "out_n_levels"};
  bool has_qdq = false, has_deeploy = false, has_ql = false, has_nemo = false, has_round = false;
  for (const auto& d : m.domains) has_deeploy = has_deeploy || d == "PACTOps" || d == "ai.onnx.contrib";
  for (const auto& n : m.nodes) {
    has_qdq = has_qdq || qdq.count(n.op);
    has_deeploy = has_deeploy || deeploy.count(n.op);
    for (const auto& [k, a] : n.attrs) has_ql = has_ql || ql_attrs.count(k);
    has_nemo = has_nemo || n.op == "Div" || n.op == "Clip" || n.op == "Cast" || n.op == "Floor";
    has_round = has_round || n.op == "Round";
  }
  if (has_qdq) return "qdq";
  if (has_deeploy) return "deeploy";
  if (has_ql) return "quantlab";
  if (has_round) return "fakequant";
  if (has_nemo) return "nemo";
  return "onnx-int";
}

DType input_dtype(const std::string& dialect, const IoInfo& in, const ImportOptions& opt, bool& inferred,
                  const std::string& path) {
  inferred = false;
  switch (in.elem_type) {
    case kUint8: case kBool: return DType::U8;
    case kInt8: return DType::I8;
    case kInt16: return DType::I16;
    case kUint16: return DType::I32;
    case kFloat: case kDouble: case kFloat16: case kInt32: case kInt64: break;
    default:
      throw ImportError(path + ": graph input '" + in.name + "' has unsupported element type " +
                        onnx_type_name(in.elem_type));
  }
  if (dialect == "qdq") {
    if (is_real_type(in.elem_type)) return DType::F32;
    return in.elem_type == kInt32 ? DType::I32 : DType::I64;
  }
  if (dialect == "nemo" || dialect == "quantlab") return DType::U8;
  if (dialect == "fakequant" && is_real_type(in.elem_type)) return DType::F32;
  const int bits = opt.default_input_bits;
  if (bits < 1 || bits > 32) throw ImportError(path + ": default_input_bits " + std::to_string(bits) + " out of range 1..32");
  const int64_t lo = opt.default_input_signed ? -(int64_t{1} << (bits - 1)) : 0;
  const int64_t hi = opt.default_input_signed ? (int64_t{1} << (bits - 1)) - 1 : (int64_t{1} << bits) - 1;
  inferred = true;
  return dtype_for_range(lo, hi);
}

}  // namespace edgesim::frontend
