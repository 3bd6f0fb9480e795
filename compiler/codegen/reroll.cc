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

// A run of consecutive segments of one shape.
struct Run {
  size_t first, count;
  std::string shape;
};

std::vector<Run> runs_of(const std::vector<Segment>& segs) {
  std::vector<Run> runs;
  for (size_t i = 0; i < segs.size(); ++i) {
    const std::string sh = segment_shape(segs[i]);
    if (!runs.empty() && runs.back().shape == sh) ++runs.back().count;
    else runs.push_back({i, 1, sh});
  }
  return runs;
}

// The expression of one hole whose value in outer iteration j and inner iteration i is
// v[j][i] (a single outer or inner level when the other has one iteration): a literal, an
// affine expression of i and j, or a read from a constant table.
std::string hole_expr(const std::vector<std::vector<int64_t>>& v, const std::string& table, RerolledCode& out) {
  const size_t nj = v.size(), ni = v[0].size();
  const int64_t a = v[0][0], bi = ni > 1 ? v[0][1] - a : 0, bj = nj > 1 ? v[1][0] - a : 0;
  bool affine = true;
  for (size_t j = 0; j < nj; ++j)
    for (size_t i = 0; i < ni; ++i)
      affine = affine && v[j][i] == a + bi * static_cast<int64_t>(i) + bj * static_cast<int64_t>(j);
  if (affine) {
    if (bi == 0 && bj == 0) return c_int(a);
    std::string e = "(" + c_int(a);
    if (bj != 0) e += " + " + c_int(bj) + " * j";
    if (bi != 0) e += " + " + c_int(bi) + " * i";
    return e + ")";
  }
  const std::string name = fmt::format("{}_t{}", table, out.tables_n++);
  std::string t = nj > 1 && ni > 1 ? fmt::format("static const int32_t {}[{}][{}] = {{", name, nj, ni)
                                   : fmt::format("static const int32_t {}[{}] = {{", name, nj * ni);
  const bool rows = nj > 1 && ni > 1;   // a 2-D table: one braced row per j
  for (size_t j = 0; j < nj; ++j) {
    if (rows) t += "\n    {";
    for (size_t i = 0; i < ni; ++i) {
      const int64_t x = v[j][i];
      if (x < std::numeric_limits<int32_t>::min() || x > std::numeric_limits<int32_t>::max())
        throw std::runtime_error("codegen: loop table value " + std::to_string(x) + " does not fit int32");
      const size_t n = j * ni + i;
      t += (!rows && n % 16 == 0 ? "\n    " : (rows && i == 0 ? "" : " ")) + std::to_string(x) +
           (n + 1 < nj * ni && (!rows || i + 1 < ni) ? "," : "");
    }
    if (rows) t += j + 1 < nj ? "}," : "}";
  }
  out.tables += t + "\n};\n";
  return nj > 1 && ni > 1 ? name + "[j][i]" : nj > 1 ? name + "[j]" : name + "[i]";
}

std::string compute_note(const Segment& s) {
  for (const Stmt& st : s)
    if (st.comment.rfind("compute", 0) == 0) return st.comment;
  return s.front().comment;
}

// Statement k of segment `base + i`, for every outer iteration j (segments `stride` apart)
// and inner iteration i < ni, with the holes as expressions of i and j.
void emit_body(const std::vector<Segment>& segs, size_t base, size_t nj, size_t stride, size_t ni,
               const std::string& indent, const std::string& prefix, RerolledCode& out) {
  const Segment& proto = segs[base];
  for (size_t k = 0; k < proto.size(); ++k) {
    const Stmt& st = proto[k];
    if (!st.what.empty()) out.body += indent + "/* " + c_comment(st.what) + " */\n";
    std::string line = st.text[0];
    for (size_t h = 0; h < st.holes.size(); ++h) {
      std::vector<std::vector<int64_t>> vals(nj, std::vector<int64_t>(ni));
      for (size_t j = 0; j < nj; ++j)
        for (size_t i = 0; i < ni; ++i) vals[j][i] = segs[base + j * stride + i][k].holes[h];
      line += hole_expr(vals, prefix, out) + st.text[h + 1];
    }
    out.body += indent + line + "\n";
  }
}

// Runs [r, r + period) repeated `times` times: an outer loop over j whose body is the period's
// runs, each an inner loop over i when long enough.
void emit_outer(const std::vector<Segment>& segs, const std::vector<Run>& runs, size_t r, size_t period, size_t times,
                const std::string& prefix, int min_run, RerolledCode& out) {
  const size_t first = runs[r].first, stride = runs[r + period].first - first;
  const size_t last = runs[r + period * times - 1].first;
  out.body += fmt::format("  /* {} iterations of {} tiles: {} ... {} */\n", times, stride, c_comment(compute_note(segs[first])),
                          c_comment(compute_note(segs[last + runs[r + period * times - 1].count - 1])));
  out.body += fmt::format("  for (int j = 0; j < {}; ++j) {{\n", times);
  for (size_t p = r; p < r + period; ++p) {
    const size_t base = runs[p].first;
    if (static_cast<int>(runs[p].count) >= min_run) {
      out.body += fmt::format("    for (int i = 0; i < {}; ++i) {{\n", runs[p].count);
      emit_body(segs, base, times, stride, runs[p].count, "      ", prefix, out);
      out.body += "    }\n";
      ++out.loops;
    } else {
      for (size_t c = 0; c < runs[p].count; ++c) emit_body(segs, base + c, times, stride, 1, "    ", prefix, out);
    }
  }
  out.body += "  }\n";
  ++out.loops;
}

// The number of times runs [r, r + period) repeat from r (same shapes and counts).
size_t repeats(const std::vector<Run>& runs, size_t r, size_t period) {
  size_t times = 1;
  while (r + period * (times + 1) <= runs.size()) {
    bool same = true;
    for (size_t p = 0; p < period && same; ++p) {
      const Run& a = runs[r + p];
      const Run& b = runs[r + period * times + p];
      same = a.shape == b.shape && a.count == b.count;
    }
    if (!same) break;
    ++times;
  }
  return times;
}

}  // namespace

RerolledCode reroll(const std::vector<Segment>& segments, const std::string& prefix, int min_run) {
  RerolledCode out;
  const std::vector<Run> runs = runs_of(segments);
  constexpr size_t kMaxPeriod = 4;   // runs in the body of an outer loop
  size_t r = 0;
  while (r < runs.size()) {
    size_t best = 0, times = 1;
    for (size_t period = 2; period <= kMaxPeriod && r + 2 * period <= runs.size(); ++period) {
      const size_t t = repeats(runs, r, period);
      if (t >= 2) {
        best = period;
        times = t;
        break;
      }
    }
    if (best) {
      emit_outer(segments, runs, r, best, times, prefix, min_run, out);
      r += best * times;
      continue;
    }
    const Run& run = runs[r];
    if (static_cast<int>(run.count) >= min_run) {
      out.body += fmt::format("  /* {} iterations: {} ... {} */\n", run.count, c_comment(compute_note(segments[run.first])),
                              c_comment(compute_note(segments[run.first + run.count - 1])));
      out.body += fmt::format("  for (int i = 0; i < {}; ++i) {{\n", run.count);
      emit_body(segments, run.first, 1, 0, run.count, "    ", prefix, out);
      out.body += "  }\n";
      ++out.loops;
    } else {
      for (size_t k = run.first; k < run.first + run.count; ++k) emit_plain(segments[k], out.body);
    }
    ++r;
  }
  return out;
}

}  // namespace edgesim::codegen
