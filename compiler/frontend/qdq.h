// Shared pieces of the standard-ONNX int8 importers (docs/dialects.md "Standard ONNX int8"):
// quantisation parameters, the [Relu | Clip] → QuantizeLinear tail of a QDQ group, and the
// construction of Conv / Gemm nodes with the float requant y = clamp(rne(acc·x_s·w_s/y_s) + y_zp).
// Internal to compiler/frontend.
#pragma once
#include <string>
#include <vector>

#include "compiler/frontend/builder.h"

namespace edgesim::frontend {

struct QParams {
  std::vector<double> scale;     // float32 values widened to double
  std::vector<int64_t> zp;       // empty when omitted (zero)
  int type = kUint8;             // element type of the quantised tensor
  int axis = -1;                 // -1: per tensor
  int64_t zp_at(size_t i) const { return zp.empty() ? 0 : (zp.size() == 1 ? zp[0] : zp[i]); }
  double scale_at(size_t i) const { return scale.size() == 1 ? scale[0] : scale[i]; }
  bool per_tensor() const { return scale.size() <= 1 && zp.size() <= 1; }
};

// Scale / zero point from constant inputs (zp_name may be ""); axis_attr applies when the
// scale is a vector. data_rank normalises a negative axis.
QParams read_qparams(Builder& b, const OnnxNode& n, const std::string& scale_name,
                     const std::string& zp_name, int64_t axis_attr, size_t data_rank);
QParams qparams_of(const Value& v);
DType qtype_dtype(int elem_type, const OnnxNode& n);
int64_t qmin(int elem_type);
int64_t qmax(int elem_type);

// [Relu | Clip(float bounds)]* → QuantizeLinear after `from` (per-tensor output params).
struct QTail {
  std::string out;
  QParams y;
  int64_t lo = 0, hi = 0;        // output clamp, narrowed by Relu / Clip
  std::vector<std::string> ops;
};
QTail match_q_tail(Builder& b, const OnnxNode& anchor, const std::string& from, size_t out_rank);

// Float requant for scale[c] = x_s · w_s[c] / y_s (double from the float32 scales).
Requant float_requant(const QParams& x, const QParams& w, const QParams& y, int64_t lo, int64_t hi, int axis);

// A Conv or Gemm/MatMul with zero points and the float requant, used by QDQ groups and by
// QLinearConv / QLinearMatMul. w_name is the integer weight (constant or runtime tensor).
struct QGroup {
  const OnnxNode* anchor = nullptr;
  int x = -1;                    // integer input tensor
  std::string w_name;
  QParams xq, wq, yq;
  std::vector<int64_t> bias;     // int32 bias (scale x_s·w_s), may be empty
  Shape bias_shape;              // Gemm only
  bool has_rq = true;            // false: raw int32 accumulator (ConvInteger / MatMulInteger)
  int64_t lo = 0, hi = 0;
  std::string out;
  std::vector<std::string> fused;
};
void emit_qconv(Builder& b, QGroup g);
void emit_qgemm(Builder& b, QGroup g, bool trans_a, bool trans_b);

}  // namespace edgesim::frontend
