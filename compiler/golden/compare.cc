// check_expected: compares the interpreter's tensors with golden data.
//   - DORY directory (out_layer<N>.txt): file N vs the output of the N-th layer node, read in the
//     golden layout (HWC / [L, C] by default, CHW on request). Only the files present are
//     checked. MV1-128-style byte files (4 lines per int32) are decoded when the count says so.
//   - Deeploy outputs.npz, ONNX node-test output_<j>.pb (or one .pb / .npy): array j vs graph
//     output j, by position, in ONNX (C) order.
// Values compare as numbers: integers exactly, F32 tensors bit-for-bit as floats. A golden
// whose element count differs from its tensor is an error, not a mismatch: it means the golden
// belongs to another network or layer numbering.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "compiler/golden/detail.h"
#include "compiler/golden/golden.h"
#include "platforms/util/printable.h"

namespace edgesim {
namespace {

namespace fs = std::filesystem;
using namespace golden_detail;

CheckResult compare_values(const Tensor& t, const std::vector<double>& golden,
                           const std::vector<int64_t>& map, int64_t tolerance) {
  CheckResult c;
  c.count = static_cast<int64_t>(golden.size());
  for (size_t k = 0; k < golden.size(); ++k) {
    const double e = golden[k], v = t.get_f64(map[k]);
    if (e == v || (std::isnan(e) && std::isnan(v))) continue;
    const double diff = std::fabs(e - v);
    c.max_abs_diff = std::max(c.max_abs_diff, std::isnan(diff) ? INFINITY : diff);
    if (diff == 1) ++c.off_by_one;
    if (diff <= static_cast<double>(tolerance)) { ++c.within_tolerance; continue; }
    if (c.mismatches++ == 0) {
      c.first_index = static_cast<int64_t>(k);
      c.expected = e;
      c.got = v;
    }
  }
  return c;
}

const Tensor& kept_value(const InterpreterResult& r, int tensor_id, const std::string& who) {
  const auto id = static_cast<size_t>(tensor_id);
  if (tensor_id < 0 || id >= r.values.size() || !r.values[id])
    throw GoldenError(who + ": the interpreter did not keep this tensor (run with keep_all)");
  return *r.values[id];
}

// out_layer<N>.txt files in dir, sorted by N.
std::vector<std::pair<int, std::string>> dory_layer_files(const fs::path& dir) {
  static const std::regex re(R"(out_layer([0-9]+)\.txt)");
  std::vector<std::pair<int, std::string>> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::smatch m;
    const std::string name = e.path().filename().string();
    if (e.is_regular_file() && std::regex_match(name, m, re) && m[1].length() < 9)
      files.emplace_back(std::stoi(m[1]), e.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

CheckResult check_layer_file(const Graph& g, const InterpreterResult& r, int n,
                             const std::string& path, const VerifyOptions& opt) {
  const auto layers = g.dory_layer_nodes();
  if (n >= static_cast<int>(layers.size()))
    throw GoldenError(fmt::format("{}: the graph has no layer {} (it has {} layers)", path, n,
                                  layers.size()));
  const Node& node = g.nodes.at(static_cast<size_t>(layers[n]));
  const std::string desc = fmt::format("layer {} {} '{}'", n, op_name(node.kind()), node.name);
  if (node.outputs.empty()) throw GoldenError(path + ": " + desc + " has no output");
  const Tensor& t = kept_value(r, node.outputs[0], path + ": " + desc);

  std::vector<int64_t> ints = read_dory_txt(path);
  const auto numel = static_cast<size_t>(t.numel());
  if (ints.size() != numel) {
    const bool bytes = dtype_is_int(t.dtype()) && ints.size() == 4 * numel &&
                       std::all_of(ints.begin(), ints.end(), [](int64_t v) { return v >= 0 && v <= 255; });
    if (!bytes)
      throw GoldenError(fmt::format("{}: {} output {} has {} elements, but the golden file has {}",
                                    path, desc, shape_str(t.shape()), numel, ints.size()));
    ints = dory_bytes_to_int32(ints);   // MV1-128 out_layer28: int32 logits as 4 bytes each
  }
  std::vector<double> golden(ints.begin(), ints.end());
  CheckResult c = compare_values(t, golden, golden_index_map(t.shape(), opt.layout), opt.tolerance);
  c.file = file_name(path);
  c.desc = desc;
  c.node = node.name;
  c.what = c.file + "  " + desc;
  return c;
}

// Golden arrays matched by position to the graph outputs; `label(j)` names array j.
template <class Label>
std::vector<CheckResult> check_outputs(const Graph& g, const InterpreterResult& r,
                                       const std::vector<GoldenArray>& arrays,
                                       const std::string& source, Label label,
                                       const VerifyOptions& opt) {
  if (arrays.size() > g.outputs.size() || arrays.size() > r.outputs.size())
    throw GoldenError(fmt::format("{}: holds {} array(s), but the graph has {} output(s)", source,
                                  arrays.size(), g.outputs.size()));
  std::vector<CheckResult> results;
  for (size_t j = 0; j < arrays.size(); ++j) {
    const Tensor& t = r.outputs[j];
    const GoldenArray& a = arrays[j];
    const std::string desc = fmt::format("output {} '{}'", j, g.tensor(g.outputs[j]).name);
    if (static_cast<int64_t>(a.values.size()) != t.numel())
      throw GoldenError(fmt::format("{}: {} has shape {} ({} elements), but golden array '{}' has "
                                    "shape {} ({} elements)", label(j), desc, shape_str(t.shape()),
                                    t.numel(), a.name, shape_str(a.shape), a.values.size()));
    std::vector<int64_t> identity(a.values.size());
    for (size_t k = 0; k < identity.size(); ++k) identity[k] = static_cast<int64_t>(k);
    CheckResult c = compare_values(t, a.values, identity, opt.tolerance);
    c.file = file_name(label(j));
    c.desc = desc;
    c.what = c.file + "  " + desc;
    results.push_back(std::move(c));
  }
  return results;
}

std::vector<CheckResult> check_npz(const Graph& g, const InterpreterResult& r,
                                   const std::string& path, const VerifyOptions& opt) {
  // Each member bounded by its output's element count before it is inflated (NpzArchive).
  const NpzArchive npz(path);
  if (npz.size() > g.outputs.size() || npz.size() > r.outputs.size())
    throw GoldenError(fmt::format("{}: holds {} array(s), but the graph has {} output(s)", path, npz.size(),
                                  g.outputs.size()));
  std::vector<GoldenArray> arrays;
  for (size_t j = 0; j < npz.size(); ++j) {
    const Tensor& t = r.outputs[j];
    const NpzExpect e{t.numel(), fmt::format("output {} '{}' of shape {}", j, g.tensor(g.outputs[j]).name,
                                             shape_str(t.shape()))};
    arrays.push_back(npz.read(j, &e));
  }
  return check_outputs(g, r, arrays, path, [&](size_t j) { return fmt::format("{}[{}]", path, j); }, opt);
}

std::vector<CheckResult> check_pb_files(const Graph& g, const InterpreterResult& r,
                                        const std::vector<std::string>& files,
                                        const std::string& source, const VerifyOptions& opt) {
  std::vector<GoldenArray> arrays;
  for (const auto& f : files) arrays.push_back(read_tensor_pb(f));
  return check_outputs(g, r, arrays, source, [&](size_t j) { return files[j]; }, opt);
}

}  // namespace

std::vector<CheckResult> check_expected(const Graph& g, const InterpreterResult& r,
                                        const std::string& path, const VerifyOptions& opt) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw GoldenError(path + ": no such file or directory");
  std::vector<CheckResult> results;
  if (fs::is_directory(path, ec)) {
    const fs::path dir(path);
    const std::string set = onnx_test_set(dir);
    if (auto layer_files = dory_layer_files(dir); !layer_files.empty()) {
      for (const auto& [n, f] : layer_files) results.push_back(check_layer_file(g, r, n, f, opt));
    } else if (fs::is_regular_file(dir / "outputs.npz")) {
      results = check_npz(g, r, (dir / "outputs.npz").string(), opt);
    } else if (auto files = set.empty() ? std::vector<std::string>{}
                                        : numbered_files(set, "output_", ".pb");
               !files.empty()) {
      results = check_pb_files(g, r, files, set, opt);
    } else {
      throw GoldenError(path + ": no golden data found (expected out_layer<N>.txt, outputs.npz, "
                               "output_<j>.pb or test_data_set_0/)");
    }
  } else {
    const std::string ext = extension(path), name = file_name(path);
    std::smatch m;
    static const std::regex layer_re(R"(out_layer([0-9]{1,8})\.txt)");
    if (ext == "npz") {
      results = check_npz(g, r, path, opt);
    } else if (ext == "pb") {
      results = check_pb_files(g, r, {path}, path, opt);
    } else if (ext == "npy") {
      results = check_outputs(g, r, {parse_npy(read_file(path), path)}, path,
                              [&](size_t) { return path; }, opt);
    } else if (std::regex_match(name, m, layer_re)) {
      results.push_back(check_layer_file(g, r, std::stoi(m[1]), path, opt));
    } else {
      require_file(path);
      throw GoldenError(path + ": unrecognised golden format (expected a directory, .npz, .pb, "
                               ".npy or out_layer<N>.txt)");
    }
  }
  if (results.empty()) throw GoldenError(path + ": holds no golden tensors");
  return results;
}

std::string format_check(const CheckResult& c) {
  // File and node names are escaped: the line goes to a terminal (CheckResult keeps the bytes).
  const std::string file = printable(c.file.empty() ? c.what : c.file);
  const std::string desc = printable(c.desc);
  if (c.ok()) {
    std::string s = fmt::format("match  {}  {}  {} elements", file, desc, c.count);
    if (c.within_tolerance > 0)
      s += fmt::format(" ({} within tolerance, max |diff| {})", c.within_tolerance,
                       format_value(c.max_abs_diff));
    return s;
  }
  return fmt::format("MISMATCH {} {}: {} of {} differ; first at index {}: expected {}, got {}",
                     file, desc, c.mismatches, c.count, c.first_index,
                     format_value(c.expected), format_value(c.got));
}

}  // namespace edgesim
