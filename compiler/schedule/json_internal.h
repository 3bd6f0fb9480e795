// Internal helpers of the schedule JSON reader/writer (json.cc, json_params.cc).
#pragma once
#include <array>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "kernels/ir/graph.h"

namespace edgesim::json_detail {

using nlohmann::json;

// Whether T's values (or its elements') are integers: a JSON number with a fraction or an
// exponent must not reach nlohmann's get<integer>, which converts it with a plain cast,
// undefined beyond the type's range (UBSan, found by fuzz_schedule_json: 2.56e30 as int64).
template <class T>
struct integral_leaf : std::bool_constant<std::is_integral_v<T> && !std::is_same_v<T, bool>> {};
template <class U, class A>
struct integral_leaf<std::vector<U, A>> : integral_leaf<U> {};
template <class U, size_t N>
struct integral_leaf<std::array<U, N>> : integral_leaf<U> {};

inline bool has_float(const nlohmann::json& v) {
  if (v.is_number_float()) return true;
  if (v.is_array())
    for (const auto& e : v)
      if (has_float(e)) return true;
  return false;
}

// A JSON value with its path, for error messages naming the key.
struct In {
  const json& j;
  std::string path;

  [[noreturn]] void fail(const std::string& key, const std::string& why) const {
    throw std::runtime_error("schedule JSON: key '" + path + (key.empty() ? "" : "." + key) + "': " + why);
  }
  const json& at(const char* k) const {
    if (!j.is_object()) fail("", "expected an object");
    auto it = j.find(k);
    if (it == j.end()) fail(k, "missing");
    return *it;
  }
  template <class T>
  T get(const char* k) const {
    const json& v = at(k);
    if constexpr (integral_leaf<T>::value)
      if (has_float(v)) fail(k, "expected an integer, not a number with a fraction or exponent");
    try {
      return v.get<T>();
    } catch (const json::exception& e) {
      fail(k, e.what());
    }
  }
  bool has(const char* k) const { return j.is_object() && j.contains(k); }
  In sub(const char* k) const { return In{at(k), path + "." + k}; }
  std::vector<In> list(const char* k) const {
    const json& a = at(k);
    if (!a.is_array()) fail(k, "expected an array");
    std::vector<In> r;
    for (size_t i = 0; i < a.size(); ++i) r.push_back(In{a[i], path + "." + k + "[" + std::to_string(i) + "]"});
    return r;
  }
};

json params_to(const OpParams& p);
OpParams params_from(const In& in);
json rq_to(const Requant& r);
Requant rq_from(const In& in);

// The transformer ops' params (json_params_transformer.cc).
json transformer_params_to(const OpParams& p);   // Softmax .. FloatChain
OpParams transformer_params_from(OpKind kind, const In& in);

}  // namespace edgesim::json_detail
