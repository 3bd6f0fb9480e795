// Loading graph inputs from golden data (docs/verify.md "Inputs", "Golden file formats";
// docs/dialects.md): array i of the source goes to the i-th real graph input (extra trailing arrays
// are ignored: Deeploy ships weights there). DORY input.txt files are channels-last (HWC, or [L, C]
// in 1-D) and are permuted into the graph's NCHW input. Values are checked to be integers within
// the input's dtype; an input whose dtype the importer only guessed (declared FLOAT in the file) is
// re-typed from the data's value range first, as Deeploy's own test runner does.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "compiler/golden/detail.h"
#include "compiler/frontend/import.h"
#include "compiler/golden/golden.h"

namespace edgesim {
namespace {

namespace fs = std::filesystem;
using namespace golden_detail;

struct Source {
  std::string file;                  // what error messages name
  std::vector<GoldenArray> arrays;   // by position
  bool channels_last = false;        // DORY text: HWC / [L, C] element order
};

Source read_dory_source(const std::string& path) {
  GoldenArray a;
  a.name = file_name(path);
  for (int64_t v : read_dory_txt(path)) a.values.push_back(static_cast<double>(v));
  return Source{path, {std::move(a)}, true};
}

std::string sniff(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  char head[6] = {};
  f.read(head, sizeof head);
  if (f.gcount() >= 4 && head[0] == 'P' && head[1] == 'K') return "npz";
  if (f.gcount() >= 6 && static_cast<unsigned char>(head[0]) == 0x93 &&
      std::string(head + 1, 5) == "NUMPY")
    return "npy";
  return "";
}

// The archive's first members, one per graph input, each bounded by that input's element count
// (NpzArchive); the members after them are not read.
Source read_npz_inputs(const std::string& path, const Graph& g) {
  const NpzArchive npz(path);
  Source s{path, {}, false};
  for (size_t i = 0; i < npz.size() && i < g.inputs.size(); ++i) {
    const TensorDesc& d = g.tensor(g.inputs[i]);
    const NpzExpect e{shape_numel(d.shape), fmt::format("input {} '{}' of shape {}", i, d.name, shape_str(d.shape))};
    s.arrays.push_back(npz.read(i, &e));
  }
  return s;
}

Source read_source(const std::string& path, const Graph& g) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw GoldenError(path + ": no such file or directory");
  if (fs::is_directory(path, ec)) {
    const fs::path dir(path);
    const std::string set = onnx_test_set(dir);
    if (!set.empty()) {
      auto files = numbered_files(set, "input_", ".pb");
      if (!files.empty()) {
        Source s{set, {}, false};
        for (const auto& f : files) s.arrays.push_back(read_tensor_pb(f));
        return s;
      }
    }
    if (fs::is_regular_file(dir / "inputs.npz")) return read_source((dir / "inputs.npz").string(), g);
    if (fs::is_regular_file(dir / "input.txt")) return read_dory_source((dir / "input.txt").string());
    throw GoldenError(path + ": no inputs found (expected input.txt, inputs.npz, input_<i>.pb "
                             "or test_data_set_0/)");
  }
  require_file(path);   // a FIFO or device is refused before sniff() opens it
  std::string ext = extension(path);
  if (ext != "npz" && ext != "npy" && ext != "pb" && ext != "txt") ext = sniff(path);
  if (ext == "npz") return read_npz_inputs(path, g);
  if (ext == "npy") return Source{path, {parse_npy(read_file(path), path)}, false};
  if (ext == "pb") return Source{path, {read_tensor_pb(path)}, false};
  if (ext == "txt") return read_dory_source(path);
  require_file(path);
  throw GoldenError(path + ": unrecognised input format (expected .npz, .npy, .pb, a DORY .txt "
                           "file or a directory)");
}

// The array's shape without leading and trailing size-1 dimensions: [1, 3, 8, 8] and [3, 8, 8]
// are one shape, [3, 8, 8] and [8, 3, 8] are not.
Shape squeezed(const Shape& s) {
  size_t b = 0, e = s.size();
  while (b < e && s[b] == 1) ++b;
  while (e > b && s[e - 1] == 1) --e;
  return Shape(s.begin() + static_cast<std::ptrdiff_t>(b), s.begin() + static_cast<std::ptrdiff_t>(e));
}

// An array stored with a dtype and shape (npz, npy, pb; not DORY text) must be what the input
// takes: integers for an integer input (any width: every value is range-checked after; floats
// only where the file declares the input FLOAT and the importer inferred its type, as Deeploy
// stores some inputs.npz as float32 of integer values; never bool), and the input's shape up to
// leading and trailing size-1 dimensions.
void check_array(const TensorDesc& d, const GoldenArray& a, const std::string& who) {
  if (a.kind == 0) return;
  if (d.dtype != DType::F32 && (a.kind == 'b' || (a.kind == 'f' && !d.dtype_inferred)))
    throw GoldenError(fmt::format("{}: a {} array ({} bytes per element) for an integer input ({}); store its values "
                                  "as integers",
                                  who, a.kind == 'b' ? "bool" : "floating-point", a.elem_bytes, dtype_name(d.dtype)));
  if (squeezed(a.shape) != squeezed(d.shape))
    throw GoldenError(fmt::format("{} expects shape {}, found array '{}' of shape {}", who, shape_str(d.shape), a.name,
                                  shape_str(a.shape)));
}

bool is_integral(double v) { return std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 9.2e18; }

Tensor make_input(TensorDesc& d, const GoldenArray& a, const std::vector<int64_t>& map,
                  const std::string& who) {
  const size_t n = a.values.size();
  if (d.dtype == DType::F32) {
    Tensor t(DType::F32, d.shape);
    for (size_t k = 0; k < n; ++k) store_f32(DType::F32, t.data() + map[k] * 4, a.values[k]);
    return t;
  }
  int64_t lo = 0, hi = 0;
  for (size_t k = 0; k < n; ++k) {
    const double v = a.values[k];
    if (!is_integral(v))
      throw GoldenError(fmt::format("{}: value {} at index {} is not an integer, but the input "
                                    "is {}", who, format_value(v), k, dtype_name(d.dtype)));
    const auto iv = static_cast<int64_t>(v);
    if (k == 0 || iv < lo) lo = iv;
    if (k == 0 || iv > hi) hi = iv;
  }
  if (d.dtype_inferred && n > 0) d.dtype = dtype_for_range(lo, hi);
  if (n > 0 && (lo < dtype_min(d.dtype) || hi > dtype_max(d.dtype))) {
    const int64_t bad = lo < dtype_min(d.dtype) ? lo : hi;
    size_t at = 0;
    while (static_cast<int64_t>(a.values[at]) != bad) ++at;
    throw GoldenError(fmt::format("{}: value {} at index {} is out of range for {} [{}, {}]", who,
                                  bad, at, dtype_name(d.dtype), dtype_min(d.dtype),
                                  dtype_max(d.dtype)));
  }
  Tensor t(d.dtype, d.shape);
  for (size_t k = 0; k < n; ++k) t.set_int(map[k], static_cast<int64_t>(a.values[k]));
  return t;
}

}  // namespace

std::vector<Tensor> load_inputs(Graph& g, const std::string& path) {
  const Source src = read_source(path, g);
  if (src.arrays.size() < g.inputs.size())
    throw GoldenError(fmt::format("{}: holds {} array(s), but the graph has {} input(s)", src.file,
                                  src.arrays.size(), g.inputs.size()));
  std::vector<Tensor> out;
  for (size_t i = 0; i < g.inputs.size(); ++i) {
    TensorDesc& d = g.tensors.at(static_cast<size_t>(g.inputs[i]));
    const GoldenArray& a = src.arrays[i];
    const std::string who = fmt::format("{}: input {} '{}'", src.file, i, d.name);
    const int64_t n = shape_numel(d.shape);
    check_array(d, a, who);
    if (static_cast<int64_t>(a.values.size()) != n) {
      std::string found = std::to_string(a.values.size()) + " elements";
      if (!a.shape.empty() || !src.channels_last)
        found += fmt::format(" (array '{}' of shape {})", a.name, shape_str(a.shape));
      throw GoldenError(fmt::format("{} expects shape {} ({} elements), found {}", who,
                                    shape_str(d.shape), n, found));
    }
    out.push_back(make_input(d, a, golden_index_map(d.shape, src.channels_last ? GoldenLayout::HWC
                                                                               : GoldenLayout::CHW),
                             who));
  }
  retype_from_inputs(g);   // narrow pass-through tensors downstream of re-typed inputs
  return out;
}

std::vector<Tensor> random_inputs(const Graph& g, uint64_t seed) {
  uint64_t state = seed;
  auto next = [&state] {   // splitmix64: fixed sequence on every platform and library
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  };
  std::vector<Tensor> out;
  for (int id : g.inputs) {
    const TensorDesc& d = g.tensor(id);
    Tensor t(d.dtype, d.shape);
    const bool wide = d.dtype == DType::I32 || d.dtype == DType::I64;
    const int64_t lo = wide ? -32768 : dtype_min(d.dtype), hi = wide ? 32767 : dtype_max(d.dtype);
    for (int64_t k = 0; k < t.numel(); ++k) {
      if (d.dtype == DType::F32) {
        const double u = static_cast<double>(next() >> 11) * 0x1.0p-53;   // [0, 1)
        store_f32(DType::F32, t.data() + k * 4, 2.0 * u - 1.0);
      } else {
        t.set_int(k, lo + static_cast<int64_t>(next() % static_cast<uint64_t>(hi - lo + 1)));
      }
    }
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace edgesim
