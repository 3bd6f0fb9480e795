// Integer softmax along the last axis (docs/dialects.md "Deeploy transformer ops"), the two forms
// Deeploy's graphs use:
//   iSoftmax (I-BERT style, attributes coeffA A, coeffB B, coeffC C, log2 L, n_levels N):
//     m = max_j x_j;  d_j = x_j − m;  z_j = min(⌊−d_j / L⌋, 31);  p_j = d_j + z_j·L
//     e_j = (A·(p_j + B)² + C) >> z_j;   y_j = ⌊e_j·(N − 1) / Σ_k e_k⌋        ∈ [0, N − 1]
//   ITAMax (attribute n_levels N):
//     m = max x;  s_j = (m − x_j + 16) >> 5;  E = Σ_j (256 >> s_j)
//     y_j = ⌊(N − 1)·256 / E⌋ >> s_j                                          ∈ [0, N − 1]
// The importer guarantees L ≥ 1, A ≥ 1, C ≥ 0 and N ≥ 2, so every e_j ≥ 0 and Σ e ≥ A·B² + C.
#pragma once
#include <cstdint>

namespace edgesim {

struct SoftmaxParams {
  enum class Kind { ISoftmax, ITAMax };
  Kind kind = Kind::ISoftmax;
  int64_t coeff_a = 1, coeff_b = 0, coeff_c = 0, log2 = 1;   // iSoftmax only
  int64_t n_levels = 256;
};

}  // namespace edgesim
