// Loop re-rolling (reroll.h).
#include "compiler/codegen/reroll.h"

#include <limits>
#include <stdexcept>

#include <fmt/format.h>

namespace edgesim::codegen {

std::string c_int(int64_t v) {
  if (v == std::numeric_limits<int64_t>::min()) return "(-9223372036854775807LL - 1)";
  if (v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max()) return std::to_string(v);
  return std::to_string(v) + "LL";
}

std::string c_comment(const std::string& s) {
  std::string r;
  for (char ch : s) {
    if (ch == '/' && !r.empty() && r.back() == '*') r += ' ';
    r += ch == '\n' ? ' ' : ch;
  }
  return r;
}

std::string c_string(const std::string& s) {
  std::string r = "\"";
  for (unsigned char ch : s) {
    if (ch == '"' || ch == '\\') r += '\\';
    if (ch < 32 || ch > 126) r += fmt::format("\\{:03o}", ch);
    else r += static_cast<char>(ch);
  }
  return r + "\"";
}

std::string Stmt::shape() const {
  std::string r = text[0];
  for (size_t k = 0; k < holes.size(); ++k) r += "@" + text[k + 1];
  return r;
}

std::string Stmt::render() const {
  std::string r = text[0];
  for (size_t k = 0; k < holes.size(); ++k) r += c_int(holes[k]) + text[k + 1];
  return r;
}

namespace {

std::string segment_shape(const Segment& s) {
  std::string r;
  for (const Stmt& st : s) r += st.shape() + "\n";
  return r;
}

void emit_plain(const Segment& seg, std::string& body) {
  for (const Stmt& st : seg) {
    if (!st.comment.empty()) body += "  /* " + c_comment(st.comment) + " */\n";
    body += "  " + st.render() + "\n";
  }
}

// The expression of one hole over the iterations i = 0..n-1 of a loop.
std::string hole_expr(const std::vector<int64_t>& v, const std::string& table, std::string& tables) {
  const size_t n = v.size();
  bool same = true, affine = true;
  const int64_t step = v[1] - v[0];
  for (size_t i = 1; i < n; ++i) {
    same = same && v[i] == v[0];
    affine = affine && v[i] - v[i - 1] == step;
  }
  if (same) return c_int(v[0]);
  if (affine) return fmt::format("({} + {} * i)", c_int(v[0]), c_int(step));
  for (int64_t x : v)
    if (x < std::numeric_limits<int32_t>::min() || x > std::numeric_limits<int32_t>::max())
      throw std::runtime_error("codegen: loop table value " + std::to_string(x) + " does not fit int32");
  std::string t = fmt::format("static const int32_t {}[{}] = {{", table, n);
  for (size_t i = 0; i < n; ++i) t += (i % 16 == 0 ? "\n    " : " ") + std::to_string(v[i]) + (i + 1 < n ? "," : "");
  tables += t + "\n};\n";
  return table + "[i]";
}

void emit_loop(const std::vector<Segment>& segs, size_t first, size_t count, const std::string& prefix,
               RerolledCode& out) {
  const Segment& proto = segs[first];
  auto compute_note = [](const Segment& s) {
    for (const Stmt& st : s)
      if (st.comment.rfind("compute", 0) == 0) return st.comment;
    return s.front().comment;
  };
  out.body += fmt::format("  /* {} iterations: {} ... {} */\n", count, c_comment(compute_note(proto)),
                          c_comment(compute_note(segs[first + count - 1])));
  out.body += fmt::format("  for (int i = 0; i < {}; ++i) {{\n", count);
  for (size_t k = 0; k < proto.size(); ++k) {
    const Stmt& st = proto[k];
    if (!st.what.empty()) out.body += "    /* " + c_comment(st.what) + " */\n";
    std::string line = st.text[0];
    for (size_t h = 0; h < st.holes.size(); ++h) {
      std::vector<int64_t> vals(count);
      for (size_t i = 0; i < count; ++i) vals[i] = segs[first + i][k].holes[h];
      const std::string table = fmt::format("{}_t{}", prefix, out.tables_n);
      const std::string e = hole_expr(vals, table, out.tables);
      if (e == table + "[i]") ++out.tables_n;
      line += e + st.text[h + 1];
    }
    out.body += "    " + line + "\n";
  }
  out.body += "  }\n";
  ++out.loops;
}

}  // namespace

RerolledCode reroll(const std::vector<Segment>& segments, const std::string& prefix, int min_run) {
  RerolledCode out;
  size_t i = 0;
  while (i < segments.size()) {
    const std::string shape = segment_shape(segments[i]);
    size_t j = i + 1;
    while (j < segments.size() && segment_shape(segments[j]) == shape) ++j;
    if (static_cast<int>(j - i) >= min_run) {
      emit_loop(segments, i, j - i, prefix, out);
    } else {
      for (size_t k = i; k < j; ++k) emit_plain(segments[k], out.body);
    }
    i = j;
  }
  return out;
}

}  // namespace edgesim::codegen
