// Implementation of the shared report formatting (see format.h).
#include "sim/report/format.h"

#include <algorithm>


#include <fmt/format.h>

namespace edgesim::report {

std::string group_digits(int64_t v) {
  const uint64_t magnitude = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  const std::string digits = std::to_string(magnitude);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return v < 0 ? "-" + out : out;
}

std::string percent(int64_t part, int64_t whole) {
  if (whole == 0) return "-";
  return fmt::format("{:.1f}%", 100.0 * static_cast<double>(part) / static_cast<double>(whole));
}

std::string mac_per_cycle(int64_t macs, int64_t cycles) {
  if (macs == 0 || cycles == 0) return "-";
  return fmt::format("{:.2f}", static_cast<double>(macs) / static_cast<double>(cycles));
}

namespace {

// Three significant digits, without exponent notation.
std::string three_digits(double v) {
  if (v >= 99.95) return fmt::format("{:.0f}", v);
  if (v >= 9.995) return fmt::format("{:.1f}", v);
  return fmt::format("{:.2f}", v);
}

}  // namespace

std::string duration(int64_t cycles, int64_t freq_hz) {
  if (freq_hz <= 0) return "";
  const double s = static_cast<double>(cycles) / static_cast<double>(freq_hz);
  if (s >= 0.9995) return three_digits(s) + " s";
  if (s >= 0.9995e-3) return three_digits(s * 1e3) + " ms";
  if (s >= 0.9995e-6) return three_digits(s * 1e6) + " us";
  return three_digits(s * 1e9) + " ns";
}

std::string frequency(int64_t freq_hz) {
  if (freq_hz <= 0) return "? MHz";
  return fmt::format("{:g} MHz", static_cast<double>(freq_hz) / 1e6);
}

std::string time_at_clock(int64_t cycles, int64_t freq_hz) {
  if (freq_hz <= 0) return "(no clock frequency)";
  return duration(cycles, freq_hz) + " @ " + frequency(freq_hz);
}

std::string shorten(const std::string& name, size_t max_chars) {
  if (name.size() <= max_chars || max_chars < 8) return name;
  const size_t keep = max_chars - 3;
  const size_t head = keep / 3;
  return name.substr(0, head) + "..." + name.substr(name.size() - (keep - head));
}

Verdict verdict(const RunResult& r) {
  if (!r.data) return Verdict::Skipped;
  return r.verified ? Verdict::Passed : Verdict::Failed;
}

std::string verification(const RunResult& r) {
  switch (verdict(r)) {
    case Verdict::Skipped:
      return "skipped (timing only)";
    case Verdict::Passed:
      if (r.verify_message.rfind("bit-exact", 0) == 0) return r.verify_message;
      return r.verify_message.empty() ? "bit-exact" : "bit-exact (" + r.verify_message + ")";
    case Verdict::Failed:
      break;
  }
  return "FAILED: " + (r.verify_message.empty() ? std::string("outputs differ") : r.verify_message);
}

std::vector<EngineShare> engine_split(const RunResult& r) {
  std::vector<EngineShare> v;
  for (const LayerStats& l : r.layers) {
    const std::string e = l.engine.empty() ? "cluster" : l.engine;
    auto it = std::find_if(v.begin(), v.end(), [&](const EngineShare& s) { return s.engine == e; });
    if (it == v.end()) it = v.insert(v.end(), EngineShare{e, 0, 0, 0});
    ++it->steps;
    it->cycles += l.cycles;
    it->macs += l.macs;
  }
  return v;
}

std::string engine_split_line(const RunResult& r) {
  int64_t total = 0;
  const auto v = engine_split(r);
  for (const EngineShare& s : v) total += s.cycles;
  std::string out;
  for (const EngineShare& s : v)
    out += (out.empty() ? "" : ", ") + s.engine + " " + group_digits(s.cycles) + " cycles (" + percent(s.cycles, total) +
           ", " + std::to_string(s.steps) + (s.steps == 1 ? " step)" : " steps)");
  return out;
}

std::vector<EngineShare> op_split(const RunResult& r) {
  std::vector<EngineShare> v;
  for (const LayerStats& l : r.layers) {
    const std::string op = l.op.substr(0, l.op.find(' '));   // "conv 3x3 /2" -> "conv"
    auto it = std::find_if(v.begin(), v.end(), [&](const EngineShare& s) { return s.engine == op; });
    if (it == v.end()) it = v.insert(v.end(), EngineShare{op, 0, 0, 0});
    ++it->steps;
    it->cycles += l.cycles;
    it->macs += l.macs;
  }
  std::stable_sort(v.begin(), v.end(), [](const EngineShare& a, const EngineShare& b) { return a.cycles > b.cycles; });
  return v;
}

std::vector<std::string> op_split_lines(const RunResult& r, size_t width, size_t indent) {
  int64_t total = 0;
  const auto v = op_split(r);
  for (const EngineShare& s : v) total += s.cycles;
  std::vector<std::string> lines{""};
  for (size_t i = 0; i < v.size(); ++i) {
    const std::string item = v[i].engine + " " + group_digits(v[i].cycles) + " (" + percent(v[i].cycles, total) + ")" +
                             (i + 1 < v.size() ? "," : "");
    if (!lines.back().empty() && indent + lines.back().size() + 1 + item.size() > width) lines.emplace_back();
    lines.back() += (lines.back().empty() ? "" : " ") + item;
  }
  return lines;
}

Totals layer_totals(const RunResult& r) {
  Totals t;
  for (const LayerStats& l : r.layers) {
    t.macs += l.macs;
    t.cycles += l.cycles;
    t.accounted += l.accounted_cycles;
    t.compute += l.compute_cycles;
    t.overhead += l.overhead_cycles;
    t.dma_wait += l.dma_wait_cycles;
    t.tiles += l.tiles;
    t.dma_in += l.dma_bytes_in;
    t.dma_out += l.dma_bytes_out;
    t.l3 += l.l3_bytes;
  }
  return t;
}

}  // namespace edgesim::report
