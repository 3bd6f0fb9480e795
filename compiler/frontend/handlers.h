// Per-op import handlers, dispatched by import.cc in ONNX node order. Each handler receives
// the anchor node (not yet claimed), may claim the nodes it fuses, emits Graph nodes and
// defines the values of the ONNX tensors it produces. Internal to compiler/frontend.
#pragma once
#include <string>
#include <vector>

#include "compiler/frontend/builder.h"

namespace edgesim::frontend {

// conv_gemm.cc: Conv, Gemm, MatMul (integer dialects and QDQ)
void import_conv(Builder& b, const OnnxNode& n);
void import_gemm(Builder& b, const OnnxNode& n);
void import_matmul(Builder& b, const OnnxNode& n);
// Conv attributes (kernel, strides, pads, dilations, group, auto_pad) for x / w shapes.
ConvParams conv_attrs(const OnnxNode& n, const Shape& x, const Shape& w);

// pools.cc: MaxPool, AveragePool, GlobalAveragePool, GlobalMaxPool
void import_pool(Builder& b, const OnnxNode& n);
PoolParams pool_attrs(const OnnxNode& n, const Shape& x);

// adds.cc: residual Add (NEMO P3, QuantLab attribute Add, Deeploy Add), NEMO Mul(x, a),
// and standalone requant chains (Mul / Div / Add(const) / RequantShift / Clip / Relu)
void import_add(Builder& b, const OnnxNode& n);
void import_mul(Builder& b, const OnnxNode& n);
void import_requant_chain(Builder& b, const OnnxNode& n);

// layout_ops.cc: Pad (merge or standalone), Concat, Reshape, Flatten, Squeeze, Unsqueeze,
// Transpose, and identities (Cast, Floor, Identity, Dropout)
void import_pad(Builder& b, const OnnxNode& n);
void import_concat(Builder& b, const OnnxNode& n);
void import_reshape(Builder& b, const OnnxNode& n);
void import_transpose(Builder& b, const OnnxNode& n);
void import_identity(Builder& b, const OnnxNode& n);

// qdq.cc: QuantizeLinear / DequantizeLinear; qdq_ops.cc: Conv / Gemm / MatMul / pools whose
// inputs are DequantizeLinear outputs
void import_quantize(Builder& b, const OnnxNode& n);
void import_dequantize(Builder& b, const OnnxNode& n);
void import_qdq_conv(Builder& b, const OnnxNode& n);
void import_qdq_gemm(Builder& b, const OnnxNode& n);
void import_qdq_pool(Builder& b, const OnnxNode& n);

// qlinear.cc: QLinearConv, QLinearMatMul, ConvInteger, MatMulInteger
void import_qlinear_conv(Builder& b, const OnnxNode& n);
void import_qlinear_matmul(Builder& b, const OnnxNode& n);
void import_conv_integer(Builder& b, const OnnxNode& n);
void import_matmul_integer(Builder& b, const OnnxNode& n);

// transformer_ops.cc: Deeploy's integer transformer ops
// (docs/dialects.md "Deeploy transformer ops")
void import_softmax(Builder& b, const OnnxNode& n);       // iSoftmax, ITAMax
void import_norm(Builder& b, const OnnxNode& n);          // iRMSNorm, iLayerNorm
void import_act(Builder& b, const OnnxNode& n);           // iHardswish, iGELU (+ RequantShift)
void import_integer_mean(Builder& b, const OnnxNode& n);  // IntegerMean
void import_gather(Builder& b, const OnnxNode& n);        // Gather with a scalar index
void import_runtime_mul(Builder& b, const OnnxNode& n);   // Mul of two runtime tensors

// fakequant.cc: float fake-quantisation chains, dialect "fakequant"
// (docs/dialects.md "Deeploy transformer ops")
void import_float_chain(Builder& b, const OnnxNode& n);
bool is_float_chain_op(const std::string& op);
// Folds Cast / Div / Add / Sub / Mul / Round / Clip / Transpose nodes whose inputs are all
// constants into constants, in float32 (the constant quantisers of weights and bias).
void fold_constants(OnnxModel& m);

// tail.cc: the graph outputs after dropping NEMO / QuantLab tails (docs/dialects.md "NEMO",
// "QuantLab")
std::vector<std::string> drop_tail(Builder& b);

// dialect.cc
std::string detect_dialect(const OnnxModel& m);
DType input_dtype(const std::string& dialect, const IoInfo& in, const ImportOptions& opt, bool& inferred,
                  const std::string& path);

// A real tensor that must hold integers (F32 inputs to integer ops are an error).
int int_input(Builder& b, const std::string& name, const OnnxNode& user);
bool is_dequant(Builder& b, const std::string& name);

}  // namespace edgesim::frontend
