// Pool: max or integer-sum pooling over kh×kw windows (2-D; 1-D as H = 1).
//   Max: y = rq.apply(max over the window of x)        (padded positions ignored)
//   Sum: y = rq.apply(Σ over the window of x)          (padded positions contribute 0)
//        NEMO P4 ⌊m·Σ/2^s⌋, MV1 ⌊Σ/16⌋ and QDQ average pools all lower to Sum + rq.
// Global pooling is a window equal to the input size. ceil_mode follows ONNX.
#pragma once
#include <cstdint>

#include "kernels/core/requant.h"

namespace edgesim {

struct PoolParams {
  enum class Kind { Max, Sum };
  Kind kind = Kind::Max;
  int64_t kh = 1, kw = 1;
  int64_t sh = 1, sw = 1;
  int64_t pad_t = 0, pad_l = 0, pad_b = 0, pad_r = 0;
  bool ceil_mode = false;
  bool global = false;
  bool is_1d = false;
  int64_t x_zp = 0;              // input zero point (QDQ pools): max / sum over (x − x_zp)
  Requant rq;                    // Kind::None: y = pooled value (clamped to rq.lo/hi)
};

}  // namespace edgesim
