// Optimised Add (kernels/optimized.h) for operands of the output's shape: both gathered as int32
// rows, one item of the outermost axis at a time, the per-input shifts, the sum shift and the channel's requant applied per element
// in int64 exactly as the reference does, without its int64 vectors and per-element dtype
// dispatch.
#include <algorithm>
#include <stdexcept>

#include "kernels/core/dense.h"
#include "kernels/core/shape_rules.h"
#include "kernels/optimized.h"

namespace edgesim {

bool add_optimized(const AddParams& p, const View& a, const View& b_, const View& y, ArithMode mode) {
  auto narrow = [](DType t) { return t == DType::U8 || t == DType::I8 || t == DType::I16 || t == DType::I32; };
  if (!narrow(a.dtype) || !narrow(b_.dtype) || !dtype_is_int(y.dtype)) return false;
  if (a.shape != y.shape || b_.shape != y.shape) return false;
  for (int64_t s : {p.shift1, p.shift2, p.shift_sum})
    if (s < 0 || s > 62) return false;
  const AxisIndex chan(y.shape, p.rq.axis);
  try {
    p.rq.validate(chan.dim);
  } catch (const std::invalid_argument&) {
    return false;
  }
  std::vector<ChannelRequant> rq(static_cast<size_t>(chan.dim));
  for (int64_t c = 0; c < chan.dim; ++c) rq[c] = p.rq.channel(c, mode);
  // One item of the outermost axis at a time (the buffers stay small whatever the batch).
  const bool batched = y.rank() >= 2;
  const int64_t items = batched ? y.shape[0] : 1, n = batched ? y.numel() / std::max<int64_t>(items, 1) : y.numel();
  const int64_t len = y.shape.empty() ? 1 : y.shape.back();
  std::vector<int32_t> x1(static_cast<size_t>(n)), x2(static_cast<size_t>(n));
  std::vector<int64_t> out(static_cast<size_t>(n));
  for (int64_t b = 0; b < items; ++b) {
    const View ab = batched ? dense::batch_item(a, b) : a, bb = batched ? dense::batch_item(b_, b) : b_;
    dense::gather_rows<int32_t>(ab, 0, [&](int64_t row) { return &x1[static_cast<size_t>(row * len)]; });
    dense::gather_rows<int32_t>(bb, 0, [&](int64_t row) { return &x2[static_cast<size_t>(row * len)]; });
    for (int64_t i = 0; i < n; ++i) {
      const int64_t t1 = (x1[i] * p.mul1 + p.add1) >> p.shift1;
      const int64_t t2 = (x2[i] * p.mul2 + p.add2) >> p.shift2;
      out[i] = rq[chan(b * n + i)]((t1 + t2) >> p.shift_sum);
    }
    if (!dense::store_checked(batched ? dense::batch_item(y, b) : y, out)) return false;
  }
  return true;
}

}  // namespace edgesim
