// Integer row normalisations along the last axis (docs/dialects.md "Deeploy transformer ops"),
// L = row length, D = 2^log2_d:
//   iRMSNorm(x, w):      S = ⌊Σ x² / L⌋ + 1;  r = ⌊√S⌋
//                        y = clamp( trunc(x·w / r) >> log2_d, −N/2, N/2 − 1 )
//   iLayerNorm(x, w, b): μ = trunc(Σ x / L);  V = ⌊Σ (x − μ)² / L⌋ + 1;  r = ⌊√V⌋
//                        y = clamp( (trunc((x − μ)·w / r) + b) >> log2_d, −N/2, N/2 − 1 )
// The weight (and bias) are per-position constants of the last axis; they travel inside the
// params, as a Gemm's bias does, so the node's only input is x.
#pragma once
#include <cstdint>
#include <vector>

namespace edgesim {

struct NormParams {
  enum class Kind { RMS, Layer };
  Kind kind = Kind::RMS;
  int log2_d = 0;
  int64_t n_levels = 256;
  std::vector<int64_t> weight;   // [L]
  std::vector<int64_t> bias;     // [L] (iLayerNorm), empty for iRMSNorm
};

// ⌊√v⌋ for v ≥ 0 (exact integer square root).
int64_t isqrt64(int64_t v);

}  // namespace edgesim
