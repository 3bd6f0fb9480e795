// Shared pieces of the golden-data module: the NCHW <-> golden-file element order, the MV1-128
// byte-wise int32 decoding, and the small file helpers of detail.h. The readers live in
// dory_txt.cc, npy.cc, npz.cc and tensor_pb.cc; input loading in inputs.cc; the comparison in
// compare.cc.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "compiler/golden/detail.h"
#include "compiler/golden/golden.h"
#include "platforms/util/regular_file.h"

namespace edgesim {

std::vector<int64_t> golden_index_map(const Shape& s, GoldenLayout layout) {
  const int64_t n = shape_numel(s);
  std::vector<int64_t> map(static_cast<size_t>(n));
  if (layout == GoldenLayout::CHW || s.size() < 3) {
    for (int64_t i = 0; i < n; ++i) map[i] = i;
    return map;
  }
  // Channels-last: golden position k = (b·S + p)·C + c holds tensor element (b·C + c)·S + p,
  // where p enumerates the spatial positions (H·W, or L for 1-D) in row-major order.
  const int64_t batch = s[0], chans = s[1];
  const int64_t spatial = (batch * chans == 0) ? 0 : n / (batch * chans);
  int64_t k = 0;
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t p = 0; p < spatial; ++p)
      for (int64_t c = 0; c < chans; ++c) map[k++] = (b * chans + c) * spatial + p;
  return map;
}

std::vector<int64_t> dory_bytes_to_int32(const std::vector<int64_t>& bytes) {
  if (bytes.size() % 4 != 0)
    throw GoldenError(fmt::format("{} byte values do not form whole int32 words", bytes.size()));
  std::vector<int64_t> out(bytes.size() / 4);
  for (size_t i = 0; i < out.size(); ++i) {
    uint32_t w = 0;
    for (size_t b = 0; b < 4; ++b) {
      const int64_t v = bytes[4 * i + b];
      if (v < 0 || v > 255)
        throw GoldenError(fmt::format("byte value {} at index {} is outside 0..255", v, 4 * i + b));
      w |= static_cast<uint32_t>(v) << (8 * b);
    }
    out[i] = static_cast<int32_t>(w);
  }
  return out;
}

namespace golden_detail {

void require_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw GoldenError(path + ": no such file or directory");
  if (std::filesystem::is_directory(path, ec)) throw GoldenError(path + ": is a directory");
  if (const std::string why = not_regular_file(path); !why.empty()) throw GoldenError(path + ": " + why);
  std::ifstream f(path, std::ios::binary);
  if (!f) throw GoldenError(path + ": cannot open (not readable)");
}

std::string read_file(const std::string& path) {
  require_file(path);
  std::ifstream f(path, std::ios::binary);
  if (!f) throw GoldenError(path + ": cannot open (not readable)");
  std::ostringstream ss;
  ss << f.rdbuf();
  if (f.bad()) throw GoldenError(path + ": read error");
  return ss.str();
}

std::string file_name(const std::string& path) {
  return std::filesystem::path(path).filename().string();
}

std::string extension(const std::string& path) {
  std::string e = std::filesystem::path(path).extension().string();
  if (!e.empty() && e[0] == '.') e.erase(0, 1);
  std::transform(e.begin(), e.end(), e.begin(), [](unsigned char c) { return std::tolower(c); });
  return e;
}

std::vector<std::string> numbered_files(const std::filesystem::path& dir, const std::string& prefix,
                                        const std::string& suffix) {
  std::vector<std::string> r;
  for (int i = 0;; ++i) {
    auto p = dir / (prefix + std::to_string(i) + suffix);
    if (!std::filesystem::is_regular_file(p)) break;
    r.push_back(p.string());
  }
  return r;
}

std::string onnx_test_set(const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  if (fs::is_regular_file(dir / "input_0.pb") || fs::is_regular_file(dir / "output_0.pb"))
    return dir.string();
  if (fs::is_directory(dir / "test_data_set_0")) return (dir / "test_data_set_0").string();
  return "";
}

std::string format_value(double v) {
  if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 9.007199254740992e15)
    return fmt::format("{}", static_cast<int64_t>(v));
  return fmt::format("{:.9g}", v);
}

}  // namespace golden_detail
}  // namespace edgesim
