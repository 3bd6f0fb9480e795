// Reference QuantizeLinear / DequantizeLinear (ONNX opset 13, per tensor or per axis).
// Arithmetic follows the ONNX runtimes so results match libonnx-testdata bit for bit:
//   quantize:   x / scale in float32, rounded half to even (std::nearbyint), + zp, saturated
//               to the output dtype;
//   dequantize: float32(q − zp) · scale in float32.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "kernels/core/shape_rules.h"
#include "kernels/reference.h"

namespace edgesim {

namespace {

AxisIndex quant_axis(const char* op, const View& x, const View& y, int axis, size_t nscale, size_t nzp) {
  if (x.shape != y.shape)
    throw std::invalid_argument(std::string(op) + ": output shape " + shape_str(y.shape) +
                                " differs from input " + shape_str(x.shape));
  const AxisIndex chan(x.shape, axis);
  auto ok = [&](size_t n) { return n == 1 || static_cast<int64_t>(n) == chan.dim; };
  if (nscale == 0 || !ok(nscale) || (nzp != 0 && !ok(nzp)))
    throw std::invalid_argument(std::string(op) + ": " + std::to_string(nscale) + " scales / " +
                                std::to_string(nzp) + " zero points for " + std::to_string(chan.dim) +
                                " channels along axis " + std::to_string(axis));
  return chan;
}

template <class V>
auto at(const std::vector<V>& v, int64_t c, V dflt) { return v.empty() ? dflt : (v.size() == 1 ? v[0] : v[c]); }

}  // namespace

void quantize_reference(const QuantizeParams& p, const View& x, const View& y) {
  const AxisIndex chan = quant_axis("quantize", x, y, p.axis, p.scale.size(), p.zp.size());
  if (!dtype_is_int(y.dtype)) throw std::invalid_argument("quantize: output must be an integer type");
  const int64_t lo = dtype_min(y.dtype), hi = dtype_max(y.dtype);
  const std::vector<double> xv = x.to_f64();
  std::vector<int64_t> out(xv.size());
  for (size_t i = 0; i < xv.size(); ++i) {
    const int64_t c = chan(static_cast<int64_t>(i));
    const float q = static_cast<float>(xv[i]) / at(p.scale, c, 1.0f);
    if (std::isnan(q)) throw std::invalid_argument("quantize: NaN at flat index " + std::to_string(i));
    // Saturate in double first so that huge or infinite quotients never overflow the cast.
    const double v = std::nearbyint(static_cast<double>(q)) + static_cast<double>(at<int64_t>(p.zp, c, 0));
    out[i] = static_cast<int64_t>(std::clamp(v, static_cast<double>(lo), static_cast<double>(hi)));
  }
  store_ints_checked(y, out);
}

void dequantize_reference(const DequantizeParams& p, const View& x, const View& y) {
  const AxisIndex chan = quant_axis("dequantize", x, y, p.axis, p.scale.size(), p.zp.size());
  if (y.dtype != DType::F32) throw std::invalid_argument("dequantize: output must be f32");
  const std::vector<int64_t> q = x.to_ints();
  std::vector<double> out(q.size());
  for (size_t i = 0; i < q.size(); ++i) {
    const int64_t c = chan(static_cast<int64_t>(i));
    out[i] = static_cast<float>(q[i] - at<int64_t>(p.zp, c, 0)) * at(p.scale, c, 1.0f);
  }
  y.from_f64(out);
}

}  // namespace edgesim
