// Float fake-quantisation chains (docs/dialects.md "Deeploy transformer ops",
// Models/Transformer_DeepQuant): a sequence of element-wise ONNX ops with one constant operand
// each, evaluated in IEEE float32 in graph order, exactly as the float golden was produced:
//   Add c, Sub c (x − c, or c − x when `reversed`), Mul c, Div c (x / c, or c / x), Round (half to
//   even, ONNX Round), Clip [lo, hi].
// The input is read as float32 (integers convert exactly below 2^24, which the importer checks);
// an integer output dtype is allowed only when the chain ends in Round then Clip with integer
// bounds (the quantiser form), so every result is an integer of that range.
#pragma once
#include <vector>

namespace edgesim {

struct FloatStep {
  enum class Op { Add, Sub, Mul, Div, Round, Clip };
  Op op = Op::Add;
  float value = 0;               // Add / Sub / Mul / Div
  bool reversed = false;         // Sub / Div: the constant is the left operand
  float lo = 0, hi = 0;          // Clip
};

struct FloatChainParams {
  std::vector<FloatStep> steps;
};

// Applies the chain to one value in float32.
float float_chain_apply(const FloatChainParams& p, float x);

}  // namespace edgesim
