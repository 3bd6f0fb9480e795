// The importer's own shape inference for the ops it imports (ONNX shape inference is not
// used, docs/dialects.md "How the importer works", step 1). Each function throws ImportError naming
// the node when the shapes do not fit. Broadcasting, MatMul and pooling sizes reuse
// kernels/core/shape_rules.h so that the importer, the validator and the kernels agree. Internal to
// compiler/frontend.
#pragma once
#include <vector>

#include "compiler/frontend/onnx_model.h"
#include "kernels/conv/params.h"
#include "kernels/pool/params.h"

namespace edgesim::frontend {

Shape broadcast_or_fail(const Shape& a, const Shape& b, const OnnxNode& n);
Shape matmul_or_fail(const Shape& a, const Shape& b, bool trans_a, bool trans_b, const OnnxNode& n);
// x [N,C,H,W] or [N,C,L] (1-D), w [M,C/g,kh,kw] or [M,C/g,k].
Shape conv_shape(const Shape& x, const Shape& w, const ConvParams& p, const OnnxNode& n);
Shape pool_shape(const Shape& x, const PoolParams& p, const OnnxNode& n);
// ONNX Reshape: 0 copies the input dim (unless allowzero), one -1 is inferred.
Shape reshape_shape(const Shape& in, const std::vector<int64_t>& spec, bool allowzero, const OnnxNode& n);
Shape flatten_shape(const Shape& in, int64_t axis, const OnnxNode& n);
Shape squeeze_shape(const Shape& in, const std::vector<int64_t>& axes, const OnnxNode& n);
Shape unsqueeze_shape(const Shape& in, const std::vector<int64_t>& axes, const OnnxNode& n);
// Normalises a possibly negative axis against rank (rank + 1 for Unsqueeze-like uses).
int64_t norm_axis(int64_t axis, int64_t rank, const OnnxNode& n);

}  // namespace edgesim::frontend
