// The operand and bias conventions of the matrix product (kernels/gemm/params.h), shared by the
// reference and the optimised kernel so that both read the operands the same way.
#pragma once
#include <cstdint>
#include <vector>

#include "kernels/core/tensor.h"
#include "kernels/gemm/params.h"

namespace edgesim {

// Operand v as a view [batch..., rows, cols] read along K: (rows, cols) = (M, K) for A and
// (N, K) for B. `k_last`: the K axis is the last axis of v (A without trans, B with trans);
// otherwise the two trailing axes are swapped. A 1-D operand [K] is one row of K either way
// (for A the M axis, for B the N axis, has size 1).
View gemm_operand_view(const View& v, bool k_last);

// The bias as a full row-major [M, N] matrix (bias_shape broadcast onto it; zeros without
// bias). Throws std::invalid_argument when bias and bias_shape disagree.
std::vector<int64_t> gemm_bias_matrix(const GemmParams& p, int64_t M, int64_t N);

}  // namespace edgesim
