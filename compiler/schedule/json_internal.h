// Internal helpers of the schedule JSON reader/writer (json.cc, json_params.cc).
#pragma once
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "compiler/ir/graph.h"

namespace edgesim::json_detail {

using nlohmann::json;

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
    try {
      return at(k).get<T>();
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
