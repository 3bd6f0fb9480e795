// to_shift_requant (shift_requant.h).
#include "kernels/soma/shift_requant.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace edgesim {

namespace {

std::string num(double v) {
  std::ostringstream o;
  o << v;
  return o.str();
}

int exact_log2(int64_t v) {
  if (v <= 0 || (v & (v - 1)) != 0) return -1;
  int n = 0;
  while ((int64_t{1} << n) != v) ++n;
  return n;
}

}  // namespace

std::optional<ShiftRequant> to_shift_requant(const Requant& rq, const std::vector<int64_t>& bias, int64_t channels,
                                             std::string& why) {
  if (rq.kind == Requant::Kind::None) {
    why = "no requantisation (raw int32 accumulator; the pattern ends in right_shift, clip, cast)";
    return std::nullopt;
  }
  if (rq.kind == Requant::Kind::Float) {
    bool pow2 = !rq.scale.empty();
    for (double s : rq.scale) {
      int e = 0;
      pow2 = pow2 && s > 0 && std::frexp(s, &e) == 0.5;
    }
    why = pow2 ? "QDQ requant with a power-of-two scale rounds half to even; the right shift rounds down"
               : "QDQ requant scale " + num(rq.scale.empty() ? 0.0 : rq.scale[0]) + " is not a power of two";
    return std::nullopt;
  }
  if (rq.div != 0) {
    why = "requant divides by " + std::to_string(rq.div) + ", not a power of two";
    return std::nullopt;
  }
  ShiftRequant s;
  s.lo = rq.lo;
  s.hi = rq.hi;
  int j = -1;
  for (int64_t c = 0; c < channels; ++c) {
    const int64_t k = rq.k.size() == 1 ? rq.k[0] : rq.k.at(static_cast<size_t>(c));
    const int jc = exact_log2(k * rq.mul);
    if (jc < 0) {
      why = "requant multiplier " + std::to_string(k * rq.mul) + " (channel " + std::to_string(c) +
            ") is not a power of two";
      return std::nullopt;
    }
    if (j >= 0 && jc != j) {
      why = "requant multipliers differ between channels (" + std::to_string(int64_t{1} << j) + " and " +
            std::to_string(int64_t{1} << jc) + "): one shift per layer";
      return std::nullopt;
    }
    j = jc;
  }
  if (j > rq.shift) {
    why = "requant multiplies by 2^" + std::to_string(j - rq.shift) + " after the shift (no multiplier in the output stage)";
    return std::nullopt;
  }
  s.shift = rq.shift - j;
  s.offset.resize(static_cast<size_t>(std::max<int64_t>(channels, 0)));
  for (int64_t c = 0; c < channels; ++c) {
    const int64_t l = rq.lambda.size() == 1 ? rq.lambda[0] : rq.lambda.at(static_cast<size_t>(c));
    const int64_t b = bias.empty() ? 0 : bias.size() == 1 ? bias[0] : bias.at(static_cast<size_t>(c));
    s.offset[static_cast<size_t>(c)] = b + floor_div(l * rq.mul + rq.round, int64_t{1} << j);
  }
  return s;
}

Requant shift_form_requant(const ShiftRequant& s, int axis) {
  Requant r;
  r.kind = Requant::Kind::Integer;
  r.axis = s.offset.size() > 1 ? axis : -1;
  r.k = {1};
  r.lambda = s.offset.empty() ? std::vector<int64_t>{0} : s.offset;
  r.mul = 1;
  r.shift = s.shift;
  r.round = 0;
  r.lo = s.lo;
  r.hi = s.hi;
  return r;
}

}  // namespace edgesim
