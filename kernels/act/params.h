// Integer activations of Deeploy's graphs (docs/dialects.md "Deeploy transformer ops"),
// element-wise, each optionally followed by the RequantShift Deeploy merges into it
// (iHardswishRequantMergePass, iGELURequantMergePass: the RQSiHardswish / RQSiGELU kernels):
//   iHardswish (one_over_six K, six S6, three S3):  a = x · (clamp(x + S3, 0, S6) · K)
//   iGELU (b < 0, one):   q = min(|x|, −b);  L = sgn(x)·(one − (q + b)²);  a = x · ((one + L) >> 1)
//   y = rq.apply(a)      (rq.kind None: y = a, int32)
#pragma once
#include <cstdint>

#include "kernels/core/requant.h"

namespace edgesim {

struct ActParams {
  enum class Kind { Hardswish, GELU };
  Kind kind = Kind::Hardswish;
  int64_t one_over_six = 0, six = 0, three = 0;   // iHardswish
  int64_t b = 0, one = 0;                         // iGELU
  Requant rq;                                     // scalar (per-tensor) requant or None
};

// The activation before the requant, a.
int64_t act_value(const ActParams& p, int64_t x);

}  // namespace edgesim
