// Conv: 2-D (and 1-D as H = 1) integer convolution, dense, depthwise or grouped, with four
// independent pads, strides, dilations, optional bias and zero points, and a fused Requant.
//   acc[n,m,oh,ow] = Σ_{ci,r,s} (x[n, g·Cin_g+ci, ih, iw] − x_zp) · (w[m,ci,r,s] − w_zp[m]) + bias[m]
//   ih = oh·sh − pad_t + r·dh,  iw = ow·sw − pad_l + s·dw;  out-of-range (padded) terms add 0
//   y = rq.apply(acc, m)   (rq.axis = 1)
// Logical layouts: x [N, Cin, H, W], w [Cout, Cin/groups, kh, kw], y [N, Cout, Ho, Wo].
#pragma once
#include <cstdint>
#include <vector>

#include "kernels/core/requant.h"

namespace edgesim {

struct ConvParams {
  int64_t kh = 1, kw = 1;
  int64_t sh = 1, sw = 1;
  int64_t dh = 1, dw = 1;
  int64_t pad_t = 0, pad_l = 0, pad_b = 0, pad_r = 0;
  int64_t groups = 1;
  bool is_1d = false;            // imported from a 1-D ONNX Conv (H = 1); printing only
  std::vector<int64_t> bias;     // empty, or Cout entries, added to acc before requant
  int64_t x_zp = 0;              // input zero point (QLinearConv / ConvInteger)
  std::vector<int64_t> w_zp;     // empty, 1 or Cout entries
  Requant rq;                    // Kind::None: y is the int32 accumulator

  // Output size along one axis for an input of size `in` (ONNX floor semantics): 0 when the
  // dilated kernel is larger than the padded input (C++ division would round -1/2 up to 0 and
  // give 1, a window reading past the input).
  static int64_t out_size(int64_t in, int64_t k, int64_t stride, int64_t dil, int64_t pb, int64_t pe) {
    const int64_t span = in + pb + pe - dil * (k - 1) - 1;
    return span < 0 ? 0 : span / stride + 1;
  }
  bool depthwise(int64_t cin, int64_t cout) const { return groups > 1 && groups == cin && groups == cout; }
};

}  // namespace edgesim
