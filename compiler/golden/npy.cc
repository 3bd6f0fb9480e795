// .npy parser for the members of Deeploy .npz archives (docs/verify.md "Golden file formats").
// Format (numpy NEP 1): magic "\x93NUMPY", version (1.0: u16 header length; 2.0/3.0: u32),
// then a Python dict literal {'descr': '<i8', 'fortran_order': False, 'shape': (1, 3), }
// padded with spaces, then the raw data. Only numeric descrs are accepted (b1, i1-i8, u1-u8,
// f4, f8, either byte order). fortran_order=True arrays are reordered to C order: ignoring the
// flag would silently transpose e.g. Deeploy's rotary matrices. Shapes may contain 0.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "compiler/golden/detail.h"
#include "compiler/golden/golden.h"

namespace edgesim {
namespace {

// The three kinds of values that occur in an npy header dict.
using HeaderValue = std::variant<std::string, bool, std::vector<int64_t>>;

class HeaderParser {
 public:
  HeaderParser(const std::string& text, const std::string& where) : s_(text), where_(where) {}

  std::map<std::string, HeaderValue> parse_dict() {
    std::map<std::string, HeaderValue> d;
    expect('{');
    while (true) {
      skip_ws();
      if (peek() == '}') { ++i_; break; }
      std::string key = parse_string();
      expect(':');
      d[key] = parse_value();
      skip_ws();
      if (peek() == ',') { ++i_; continue; }
      expect('}');
      break;
    }
    return d;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw GoldenError(fmt::format("{}: bad .npy header at offset {}: {}", where_, i_, what));
  }
  char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
  void skip_ws() { while (i_ < s_.size() && std::strchr(" \t\r\n", s_[i_])) ++i_; }
  void expect(char c) {
    skip_ws();
    if (peek() != c) fail(fmt::format("expected '{}'", c));
    ++i_;
  }
  std::string parse_string() {
    skip_ws();
    const char q = peek();
    if (q != '\'' && q != '"') fail("expected a quoted string");
    const size_t end = s_.find(q, ++i_);
    if (end == std::string::npos) fail("unterminated string");
    std::string r = s_.substr(i_, end - i_);
    i_ = end + 1;
    return r;
  }
  int64_t parse_int() {
    skip_ws();
    size_t b = i_;
    while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
    if (b == i_ || i_ - b > 15) fail("expected a dimension");
    if (peek() == 'L') ++i_;   // Python 2 long suffix
    return std::stoll(s_.substr(b, i_ - b));
  }
  HeaderValue parse_value() {
    skip_ws();
    const char c = peek();
    if (c == '\'' || c == '"') return parse_string();
    if (s_.compare(i_, 4, "True") == 0) { i_ += 4; return true; }
    if (s_.compare(i_, 5, "False") == 0) { i_ += 5; return false; }
    if (c == '(' || c == '[') {
      const char close = c == '(' ? ')' : ']';
      ++i_;
      std::vector<int64_t> dims;
      while (true) {
        skip_ws();
        if (peek() == close) { ++i_; break; }
        dims.push_back(parse_int());
        skip_ws();
        if (peek() == ',') { ++i_; continue; }
        expect(close);
        break;
      }
      return dims;
    }
    fail("unsupported value");
  }

  const std::string& s_;
  const std::string& where_;
  size_t i_ = 0;
};

struct ElemType {
  char kind = 0;        // 'b', 'i', 'u', 'f'
  size_t size = 0;
  bool big_endian = false;
};

ElemType parse_descr(const std::string& d, const std::string& where) {
  ElemType t;
  bool ok = d.size() >= 3 && std::strchr("<>|=", d[0]) && std::strchr("biuf", d[1]);
  if (ok) {
    t.kind = d[1];
    t.big_endian = d[0] == '>';
    const std::string sz = d.substr(2);
    ok = sz == "1" || sz == "2" || sz == "4" || sz == "8";
    if (ok) t.size = static_cast<size_t>(std::stoi(sz));
    if (ok && t.kind == 'b') ok = t.size == 1;
    if (ok && t.kind == 'f') ok = t.size == 4 || t.size == 8;
  }
  if (!ok)
    throw GoldenError(fmt::format("{}: unsupported .npy dtype '{}' (numeric b1, i1-i8, u1-u8, "
                                  "f4, f8 only)", where, d));
  return t;
}

double decode(const ElemType& t, const unsigned char* p) {
  unsigned char b[8];
  std::memcpy(b, p, t.size);
  if (t.big_endian) std::reverse(b, b + t.size);   // the host is little-endian
  switch (t.kind) {
    case 'b': return b[0] != 0;
    case 'f': {
      if (t.size == 4) { float v; std::memcpy(&v, b, 4); return v; }
      double v; std::memcpy(&v, b, 8); return v;
    }
    case 'u': {
      uint64_t v = 0;
      std::memcpy(&v, b, t.size);
      return static_cast<double>(v);
    }
    default: {   // 'i': sign-extend from t.size bytes
      uint64_t v = 0;
      std::memcpy(&v, b, t.size);
      const int shift = static_cast<int>(64 - 8 * t.size);
      return static_cast<double>(static_cast<int64_t>(v << shift) >> shift);
    }
  }
}

uint32_t read_le(const std::string& s, size_t off, size_t n) {
  uint32_t v = 0;
  for (size_t i = 0; i < n; ++i) v |= static_cast<uint32_t>(static_cast<unsigned char>(s[off + i])) << (8 * i);
  return v;
}

// The header dict of a whole .npy image (`bytes` holds at least the header), its data offset
// and the element count; the data must fit `max_data` bytes (`limit` names them in the error).
// Shared by parse_npy and npy_layout.
struct Header {
  ElemType t;
  std::string descr;
  bool fortran = false;
  Shape shape;
  size_t data_off = 0;
  int64_t n = 0;
};

Header read_header(const std::string& bytes, const std::string& name, uint64_t max_data, const std::string& limit) {
  const size_t end = golden_detail::npy_header_end(bytes, name);
  if (end == 0 || bytes.size() < end) throw GoldenError(name + ": truncated .npy header");
  const size_t hlen_size = static_cast<unsigned char>(bytes[6]) == 1 ? 2 : 4;
  const std::string header = bytes.substr(8 + hlen_size, end - 8 - hlen_size);
  auto dict = HeaderParser(header, name).parse_dict();
  auto get = [&](const char* key) -> const HeaderValue& {
    auto it = dict.find(key);
    if (it == dict.end()) throw GoldenError(fmt::format("{}: .npy header lacks '{}'", name, key));
    return it->second;
  };
  const auto* descr = std::get_if<std::string>(&get("descr"));
  const auto* fortran = std::get_if<bool>(&get("fortran_order"));
  const auto* shape = std::get_if<std::vector<int64_t>>(&get("shape"));
  if (!descr || !fortran || !shape)
    throw GoldenError(name + ": .npy header has a wrongly typed descr/fortran_order/shape");
  Header h;
  h.t = parse_descr(*descr, name);
  h.descr = *descr;
  h.fortran = *fortran;
  h.shape = *shape;
  h.data_off = end;
  // Element count, guarded against overflow by the data the caller can have (a dimension of 0
  // wins).
  if (std::find(h.shape.begin(), h.shape.end(), 0) == h.shape.end()) {
    const uint64_t cap = max_data / h.t.size;
    uint64_t n = 1;
    for (int64_t d : h.shape) {
      if (n > cap / static_cast<uint64_t>(d))
        throw GoldenError(fmt::format("{}: .npy shape {} is larger than {}", name, shape_str(h.shape), limit));
      n *= static_cast<uint64_t>(d);
    }
    h.n = static_cast<int64_t>(n);
  }
  return h;
}

}  // namespace

namespace golden_detail {

size_t npy_header_end(const std::string& head, const std::string& name) {
  const size_t have = std::min<size_t>(head.size(), 6);
  if (have > 0 && (static_cast<unsigned char>(head[0]) != 0x93 || head.compare(1, have - 1, std::string("NUMPY", have - 1)) != 0))
    throw GoldenError(name + ": not a .npy array (bad magic)");
  if (head.size() < 8) return 0;
  const int major = static_cast<unsigned char>(head[6]);
  const size_t hlen_size = major == 1 ? 2 : (major == 2 || major == 3) ? 4 : 0;
  if (hlen_size == 0)
    throw GoldenError(fmt::format("{}: unsupported .npy format version {}.{}", name, major,
                                  static_cast<int>(static_cast<unsigned char>(head[7]))));
  if (head.size() < 8 + hlen_size) return 0;
  return 8 + hlen_size + read_le(head, 8, hlen_size);
}

NpyLayout npy_layout(const std::string& head, const std::string& name, uint64_t max_data, const std::string& limit) {
  const Header h = read_header(head, name, max_data, limit);
  NpyLayout l;
  l.header_bytes = h.data_off;
  l.elements = h.n;
  l.data_bytes = static_cast<uint64_t>(h.n) * h.t.size;
  l.shape = h.shape;
  return l;
}

}  // namespace golden_detail

GoldenArray parse_npy(const std::string& bytes, const std::string& name) {
  if (bytes.size() < 10 || static_cast<unsigned char>(bytes[0]) != 0x93 ||
      bytes.compare(1, 5, "NUMPY") != 0)
    throw GoldenError(name + ": not a .npy array (bad magic)");
  const Header h = read_header(bytes, name, bytes.size(), "the file");
  const ElemType& t = h.t;
  const size_t data_off = h.data_off;
  const int64_t n = h.n;
  const bool* fortran = &h.fortran;
  GoldenArray a;
  a.name = name;
  a.shape = h.shape;
  a.is_float = t.kind == 'f';
  a.kind = t.kind;
  a.elem_bytes = static_cast<int>(t.size);
  const size_t need = static_cast<size_t>(n) * t.size;
  if (bytes.size() - data_off != need)
    throw GoldenError(fmt::format("{}: .npy data is {} bytes, but shape {} of '{}' needs {}", name,
                                  bytes.size() - data_off, shape_str(a.shape), h.descr, need));

  a.values.resize(static_cast<size_t>(n));
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data() + data_off);
  // (An empty array has nothing to reorder; its other dimensions may be anything, so no strides
  // are formed from them.)
  if (!*fortran || a.shape.size() < 2 || n == 0) {
    for (int64_t i = 0; i < n; ++i) a.values[i] = decode(t, data + i * t.size);
    return a;
  }
  // Fortran order: the first axis varies fastest. Walk the file order with an index counter and
  // store each element at its C-order position.
  const Shape cstr = contiguous_strides(a.shape);
  std::vector<int64_t> idx(a.shape.size(), 0);
  int64_t c_off = 0;
  for (int64_t i = 0; i < n; ++i) {
    a.values[c_off] = decode(t, data + i * t.size);
    for (size_t d = 0; d < idx.size(); ++d) {
      if (++idx[d] < a.shape[d]) { c_off += cstr[d]; break; }
      c_off -= (a.shape[d] - 1) * cstr[d];
      idx[d] = 0;
    }
  }
  return a;
}

}  // namespace edgesim
