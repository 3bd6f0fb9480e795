// Element-wise integer ops: Add (with per-input and output requant), Clip, standalone Requant.
#pragma once
#include <cstdint>

#include "kernels/core/requant.h"

namespace edgesim {

// Add of two tensors (NumPy broadcasting), covering every dialect's residual add:
//   t_i = (x_i·mul_i + add_i) >> shift_i            (QuantLab in_i_rq; NEMO: mul_i = a or b)
//   s   = (t_1 + t_2) >> shift_sum                   (NEMO ⌊(a·x1 + b·x2)/2^c⌋)
//   y   = rq.apply(s, c)                             (NEMO P2, QuantLab out_rq, Deeploy RQS)
// With rq.kind == None the sum is only clamped to [rq.lo, rq.hi] (unsaturated adds keep int32).
struct AddParams {
  int64_t mul1 = 1, add1 = 0, shift1 = 0;
  int64_t mul2 = 1, add2 = 0, shift2 = 0;
  int64_t shift_sum = 0;
  Requant rq;
};

// Element-wise product of two tensors (NumPy broadcasting) followed by rq (Deeploy Mul).
struct MulParams {
  Requant rq;
};

// y = clamp(x, lo, hi)  (ReLU, Clip)
struct ClipParams {
  int64_t lo = 0;
  int64_t hi = 255;
};

// y = rq.apply(x, c): a requant that could not be fused into a producer (Deeploy RequantShift
// on a graph input or after a layout op, NEMO P2 alone).
struct RequantParams {
  Requant rq;
};

}  // namespace edgesim
