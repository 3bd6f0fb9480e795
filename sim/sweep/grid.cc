// Grid parsing and enumeration for `edgesim sweep` (grid.h).
#include "sim/sweep/grid.h"

#include <algorithm>

namespace edgesim::sweep {

namespace {

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

}  // namespace

Axis parse_axis(const std::string& option) {
  const size_t eq = option.find('=');
  if (eq == std::string::npos) throw SweepError("--set " + option + ": expected KEY=V1,V2,...");
  Axis a;
  a.key = trim(option.substr(0, eq));
  if (a.key.empty()) throw SweepError("--set " + option + ": empty key");
  const std::string rest = option.substr(eq + 1);
  size_t start = 0;
  while (true) {
    const size_t comma = rest.find(',', start);
    const std::string v = trim(rest.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (v.empty()) throw SweepError("--set " + option + ": empty value for " + a.key);
    if (std::find(a.values.begin(), a.values.end(), v) != a.values.end())
      throw SweepError("--set " + option + ": value " + v + " given twice for " + a.key);
    a.values.push_back(v);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return a;
}

void merge_axis(std::vector<Axis>& axes, const Axis& a) {
  for (Axis& old : axes)
    if (old.key == a.key) {
      old.values = a.values;
      return;
    }
  axes.push_back(a);
}

size_t grid_size(const std::vector<Axis>& axes) {
  size_t n = 1;
  for (const Axis& a : axes) n *= a.values.size();
  return n;
}

std::vector<std::string> grid_point(const std::vector<Axis>& axes, size_t index) {
  std::vector<std::string> values(axes.size());
  for (size_t i = axes.size(); i-- > 0;) {   // the last axis varies fastest
    const size_t n = axes[i].values.size();
    values[i] = axes[i].values[index % n];
    index /= n;
  }
  return values;
}

std::vector<std::string> point_overrides(const std::vector<Axis>& axes, const std::vector<std::string>& values) {
  std::vector<std::string> out;
  for (size_t i = 0; i < axes.size(); ++i) out.push_back(axes[i].key + "=" + values[i]);
  return out;
}

std::string point_label(const std::vector<Axis>& axes, const std::vector<std::string>& values) {
  std::string s;
  for (size_t i = 0; i < axes.size(); ++i) s += (i ? " " : "") + axes[i].key + "=" + values[i];
  return s.empty() ? "(platform as given)" : s;
}

std::vector<size_t> varied_axes(const std::vector<Axis>& axes) {
  std::vector<size_t> v;
  for (size_t i = 0; i < axes.size(); ++i)
    if (axes[i].values.size() > 1) v.push_back(i);
  return v;
}

}  // namespace edgesim::sweep
