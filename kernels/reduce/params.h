// IntegerMean (Deeploy, docs/dialects.md "Deeploy transformer ops"): the rounded mean over `axes`.
//   n = Π shape[axes];  S = Σ over axes
//   n a power of two:  y = (S + n/2) >> log2(n)                  (round half up; verified)
//   otherwise:         y = trunc((S + sgn(S)·⌊n/2⌋) / n)          (round half away from zero, as
//                      Deeploy's reference kernel does; data-silent, documented in docs/dialects.md)
#pragma once
#include <cstdint>
#include <vector>

namespace edgesim {

struct MeanParams {
  std::vector<int64_t> axes;     // normalised to [0, rank), ascending, unique
  bool keepdims = true;
};

// The rounded mean of a sum S over n elements (the rule above).
int64_t integer_mean(int64_t sum, int64_t n);

}  // namespace edgesim
