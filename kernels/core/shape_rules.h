// Shape rules shared by the reference kernels, the IR validator and the importer: NumPy
// broadcasting, ONNX MatMul/Gemm output shapes, pooling output sizes, and small index helpers
// (flat index -> position along one axis, broadcast source offsets). Keeping them in one place
// means the kernel and Graph::validate can never disagree on what shape an op produces.
#pragma once
#include <cstdint>
#include <vector>

#include "kernels/core/tensor.h"

namespace edgesim {

// NumPy broadcast of two shapes; throws std::invalid_argument when incompatible.
Shape broadcast_shapes(const Shape& a, const Shape& b);

// For every element (row-major) of `out`, the row-major flat index of the element of a
// contiguous tensor of shape `in` that broadcasts onto it (`in` right-aligned to `out`).
std::vector<int64_t> broadcast_source_index(const Shape& in, const Shape& out);

// Output shape of ONNX MatMul / Gemm (NumPy matmul rules): 1-D a is [1,K] with the M axis
// dropped from the result, 1-D b is [K,1] with the N axis dropped; batch dims broadcast.
// trans_a / trans_b swap the last two axes of a rank >= 2 operand. Throws std::invalid_argument.
Shape matmul_output_shape(const Shape& a, const Shape& b, bool trans_a, bool trans_b);

// Pooling output size along one axis (no dilation). floor mode: ⌊(in + pb + pe − k)/s⌋ + 1.
// ceil mode: ⌈…⌉ + 1, minus one if the last window would start in the end padding (PyTorch's
// rule; the ONNX spec adopted it in onnx/onnx PR #5741, "sliding windows that would start in
// the right padded region are ignored"; ONNX 1.12's shape inference still lacks it).
int64_t pool_out_size(int64_t in, int64_t k, int64_t stride, int64_t pb, int64_t pe, bool ceil_mode);

// Position along `axis` of the element at row-major flat index `flat` of a tensor of shape s.
// axis < 0 (per-tensor parameters) always yields 0.
struct AxisIndex {
  int64_t inner = 1;   // product of the dims after axis
  int64_t dim = 1;     // size of axis (1 when axis < 0)
  AxisIndex() = default;
  AxisIndex(const Shape& s, int64_t axis);
  int64_t operator()(int64_t flat) const { return dim == 1 ? 0 : (flat / inner) % dim; }
};

// A rank-3 view [N, C, L] (1-D conv / pool) as the rank-4 view [N, C, 1, L] the conv and pool
// kernels take; other ranks pass through.
View view_4d(const View& v);

// Writes row-major int64 values through a view, checking that each one fits the view's
// dtype (the golden model must never wrap silently). Throws std::range_error naming the
// first offending value and its position.
void store_ints_checked(const View& y, const std::vector<int64_t>& v);

}  // namespace edgesim
