// The integer requant chain that follows a Conv / Gemm / MatMul / pool / Add in the integer
// dialects, folded into one canonical Requant (docs/dialects.md "What each dialect becomes"):
//   NEMO P1/P2/P4 tail:  Mul(κ) → Add(λ) → [Cast] → Mul(m) → Div(d) → [Cast] → Clip
//   QuantLab:            Mul(mul) → Add(add) → Div(2^q) → [Add(0.5)] → Floor → Clip
//   Deeploy:             [Add(bias)] → RequantShift(mul, add; div, n_levels, signed)
//   plain:               Relu / Clip on the raw accumulator
// Cast and Floor are absorbed. Per-channel constants must vary along one output axis.
// Internal to compiler/frontend.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "compiler/frontend/builder.h"

namespace edgesim::frontend {

struct ChainStart {
  const OnnxNode* anchor = nullptr;   // the fused op (error messages)
  std::string from;                   // tensor the chain transforms
  Shape shape;                        // its (and the chain's) shape
  const OnnxNode* first = nullptr;    // accept this node first even if `from` has other users
  int required_axis = -2;             // -2: any; else per-channel vectors must use this axis
  // A leading Add(constant) directly after the compute op: offered as a bias; return false
  // to have it folded into λ instead.
  std::function<bool(const ConstTensor&, const OnnxNode&)> take_bias;
  // Value range of the chain input when nothing follows (raw accumulator: int32).
  int64_t lo = kI32Min, hi = kI32Max;
  // The input is already saturated to [lo, hi] (QuantLab Add): only Cast, Floor and narrowing
  // clamps may follow.
  bool saturated = false;
};

struct ChainResult {
  std::string out;                    // ONNX tensor the fused op finally produces
  Requant rq;                         // Kind::None when only clamps (or nothing) matched
  std::vector<std::string> ops;       // ONNX op types absorbed, in order
};

ChainResult match_int_chain(Builder& b, const ChainStart& s);

// RequantShift attributes and constants as a Requant on tensor shape `shape` (also used for
// standalone RequantShift nodes). Throws ImportError naming the node.
Requant requant_shift_params(Builder& b, const OnnxNode& n, const Shape& shape);

// Clip bounds of a Clip node (attributes before opset 11, inputs after), as integers.
void clip_bounds(Builder& b, const OnnxNode& n, int64_t& lo, int64_t& hi);

// TrueIntegerDiv's multiplier ⌊Δ·η / (y·η + ε)⌋ (docs/dialects.md "Deeploy transformer ops");
// ImportError when the divisor is not positive.
int64_t true_integer_div_factor(const OnnxNode& n);

// A standalone integer requant that returns every value of [lo, hi] unchanged (k·mul = 2^shift,
// 0 ≤ λ·mul + r < 2^shift, no narrowing clamp): Deeploy removes these "unity" RequantShifts
// after layout ops (SkipUnityRequantPass), and so does the importer (adds.cc).
bool is_identity_requant(const Requant& rq, int64_t lo, int64_t hi);

bool is_power_of_two(int64_t v);
int log2_exact(int64_t v);

}  // namespace edgesim::frontend
