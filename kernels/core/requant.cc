#include "kernels/core/requant.h"

#include <charconv>
#include <cmath>
#include <stdexcept>

namespace edgesim {

int64_t Requant::channels() const {
  size_t n = 1;
  for (size_t s : {k.size(), lambda.size(), scale.size()})
    if (s > n) n = s;
  return static_cast<int64_t>(n);
}

void Requant::validate(int64_t n) const {
  auto ok = [&](size_t s) { return s <= 1 || static_cast<int64_t>(s) == n; };
  if (!ok(k.size()) || !ok(lambda.size()) || !ok(scale.size()))
    throw std::invalid_argument("requant vectors (k " + std::to_string(k.size()) + ", lambda " +
                                std::to_string(lambda.size()) + ") do not match " +
                                std::to_string(n) + " channels");
  if (kind == Kind::Integer && (shift < 0 || shift > 62))
    throw std::invalid_argument("requant shift " + std::to_string(shift) + " out of range");
  if (div < 0) throw std::invalid_argument("requant divisor must be positive");
  if (kind == Kind::Float && scale.empty()) throw std::invalid_argument("float requant without scale");
}

ChannelRequant Requant::channel(int64_t c, ArithMode mode) const {
  ChannelRequant r;
  r.lo = lo;
  r.hi = hi;
  switch (kind) {
    case Kind::None:
      r.kind = 0;
      break;
    case Kind::Integer:
      r.k = k.size() == 1 ? k[0] : k[c];
      r.lambda = lambda.size() == 1 ? lambda[0] : lambda[c];
      r.mul = mul;
      if (div > 0 && mode == ArithMode::Exact) {
        r.kind = 2;
        r.div = div;
      } else {
        r.kind = 1;
        r.round = round;
        r.shift = shift;
      }
      break;
    case Kind::Float:
      r.kind = 3;
      r.scale = scale.size() == 1 ? scale[0] : scale[c];
      r.zp = zp;
      break;
  }
  return r;
}

std::string Requant::str() const {
  // Integers as is; doubles in the shortest form that reads back exactly (std::to_string
  // would print a scale of 1.6e-05 as "0.000016").
  auto num = [](auto x) {
    char buf[32];
    return std::string(buf, std::to_chars(buf, buf + sizeof buf, x).ptr);
  };
  auto vec = [&](const char* name, const auto& v) {
    if (v.size() == 1) return std::string(name) + "=" + num(v[0]);
    return std::string(name) + "[" + std::to_string(v.size()) + "]";
  };
  // Built by appending: GCC 12 warns falsely (-Wrestrict) on "literal" + std::string&&.
  std::string range = "[";
  range += lo == INT64_MIN ? std::string("-inf") : std::to_string(lo);
  range += ",";
  range += hi == INT64_MAX ? std::string("inf") : std::to_string(hi);
  range += "]";
  switch (kind) {
    case Kind::None:
      return "raw" + range;
    case Kind::Integer: {
      std::string s = "rq(" + vec("k", k) + " " + vec("l", lambda);
      if (mul != 1) s += " mul=" + std::to_string(mul);
      if (round) s += " +" + std::to_string(round);
      s += " >>" + std::to_string(shift);
      if (div) s += " /" + std::to_string(div);
      if (axis >= 0 && channels() > 1) s += " axis=" + std::to_string(axis);
      return s + " " + range + ")";
    }
    case Kind::Float: {
      std::string s = "rqf(" + vec("scale", scale) + " zp=" + std::to_string(zp);
      if (axis >= 0 && channels() > 1) s += " axis=" + std::to_string(axis);
      return s + " " + range + ")";
    }
  }
  return "?";
}

}  // namespace edgesim
