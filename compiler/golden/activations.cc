// check_activations (activations.h).
#include "compiler/golden/activations.h"

#include <filesystem>
#include <map>
#include <variant>

#include <fmt/format.h>

#include "compiler/golden/golden.h"

namespace edgesim {

namespace {

Shape squeezed(const Shape& s) {
  Shape r;
  for (int64_t d : s)
    if (d != 1) r.push_back(d);
  return r;
}

// The node's params with its fused requant switched off (raw int64 result), or false when the
// node fuses none.
bool without_requant(OpParams& p) {
  Requant* rq = std::visit(
      [](auto& q) -> Requant* {
        if constexpr (requires { q.rq; }) return &q.rq;
        else return nullptr;
      },
      p);
  if (!rq || !rq->enabled()) return false;
  *rq = Requant{};
  return true;
}

struct Candidate {
  std::vector<double> values;
  DType dtype;
  bool accumulator;
};

}  // namespace

std::string activations_next_to(const std::string& expected) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (expected.empty()) return "";
  fs::path p(expected);
  if (p.filename() == "activations.npz" && fs::is_regular_file(p, ec)) return p.string();
  const fs::path dir = fs::is_directory(p, ec) ? p : p.parent_path();
  if (!fs::is_directory(p, ec) && p.filename() != "outputs.npz") return "";
  const fs::path a = dir / "activations.npz";
  return fs::is_regular_file(a, ec) ? a.string() : "";
}

ActivationCheck check_activations(const Graph& g, const InterpreterResult& r, const std::string& npz) {
  const std::vector<GoldenArray> arrays = read_npz(npz);
  std::map<Shape, std::vector<Candidate>> by_shape;
  for (size_t t = 0; t < r.values.size(); ++t)
    if (r.values[t]) by_shape[squeezed(r.values[t]->shape())].push_back({r.values[t]->to_f64(), r.values[t]->dtype(), false});
  for (const Node& n : g.nodes) {
    OpParams raw = n.params;
    if (!without_requant(raw)) continue;
    std::vector<View> in;
    bool have = true;
    for (int id : n.inputs) {
      have = have && r.values.at(static_cast<size_t>(id)).has_value();
      if (have) in.push_back(r.values[static_cast<size_t>(id)]->view());
    }
    if (!have) continue;
    Tensor acc(DType::I64, g.tensor(n.outputs.at(0)).shape);
    try {
      run_reference(raw, in, acc.view());
    } catch (const std::exception&) {
      continue;   // not computable without its requant (e.g. an output wider than int64)
    }
    by_shape[squeezed(acc.shape())].push_back({acc.to_f64(), DType::I64, true});
  }

  ActivationCheck c;
  for (const GoldenArray& a : arrays) {
    ++c.arrays;
    bool holdable = false, equal = false, acc = false;
    if (auto it = by_shape.find(squeezed(a.shape)); it != by_shape.end())
      for (const Candidate& cand : it->second) {
        if (!cand.accumulator && dtype_is_int(cand.dtype)) {
          bool fits = true;
          for (double v : a.values)
            fits = fits && v >= static_cast<double>(dtype_min(cand.dtype)) && v <= static_cast<double>(dtype_max(cand.dtype));
          holdable = holdable || fits;
        }
        if (!equal && cand.values == a.values) equal = true, acc = cand.accumulator;
      }
    if (equal) (acc ? c.accumulators : c.tensors) += 1;
    else if (holdable) c.differ.push_back(fmt::format("{} {}: equals no same-shaped tensor", a.name, shape_str(a.shape)));
    else ++c.fused_away, c.fused_names.push_back(fmt::format("{} {}", a.name, shape_str(a.shape)));
  }
  return c;
}

}  // namespace edgesim
