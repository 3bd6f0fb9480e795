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

std::vector<Axis> parse_link(const std::string& option, int link) {
  std::vector<Axis> out;
  size_t start = 0;
  while (true) {
    const size_t colon = option.find(':', start);
    const std::string part = option.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    Axis a;
    try {
      a = parse_axis(part);
    } catch (const SweepError& e) {
      throw SweepError("--link " + option + ": " + std::string(e.what()).substr(std::string("--set ").size()));
    }
    a.link = link;
    for (const Axis& o : out) {
      if (o.key == a.key) throw SweepError("--link " + option + ": key " + a.key + " given twice");
      if (o.values.size() != a.values.size())
        throw SweepError("--link " + option + ": " + o.key + " has " + std::to_string(o.values.size()) + " values but " +
                         a.key + " has " + std::to_string(a.values.size()) + " (linked keys vary together)");
    }
    out.push_back(std::move(a));
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  if (out.size() < 2) throw SweepError("--link " + option + ": link at least two keys, KEY=V1,V2:KEY2=W1,W2");
  return out;
}

void merge_axis(std::vector<Axis>& axes, const Axis& a) {
  for (Axis& old : axes)
    if (old.key == a.key) {
      old.values = a.values;
      old.link = a.link;
      return;
    }
  axes.push_back(a);
}

namespace {

// The grid's dimensions: each a list of axis indices (one, or a linked group in axis order),
// ordered by their first axis.
std::vector<std::vector<size_t>> dimensions(const std::vector<Axis>& axes) {
  std::vector<std::vector<size_t>> dims;
  for (size_t i = 0; i < axes.size(); ++i) {
    bool joined = false;
    if (axes[i].link >= 0)
      for (auto& d : dims)
        if (axes[d.front()].link == axes[i].link) {
          d.push_back(i);
          joined = true;
          break;
        }
    if (!joined) dims.push_back({i});
  }
  return dims;
}

}  // namespace

size_t grid_size(const std::vector<Axis>& axes) {
  size_t n = 1;
  for (const auto& d : dimensions(axes)) n *= axes[d.front()].values.size();
  return n;
}

std::vector<std::string> grid_point(const std::vector<Axis>& axes, size_t index) {
  std::vector<std::string> values(axes.size());
  const auto dims = dimensions(axes);
  for (size_t k = dims.size(); k-- > 0;) {   // the last dimension varies fastest
    const size_t n = axes[dims[k].front()].values.size();
    for (size_t i : dims[k]) values[i] = axes[i].values.at(index % n);
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
  for (const auto& d : dimensions(axes))
    if (axes[d.front()].values.size() > 1) v.push_back(d.front());
  return v;
}

std::string axis_title(const std::vector<Axis>& axes, size_t i) {
  std::string t = axes.at(i).key, linked;
  if (axes[i].link >= 0) {
    bool first = true;
    for (size_t j = 0; j < i; ++j) first = first && axes[j].link != axes[i].link;
    if (first)
      for (size_t j = i + 1; j < axes.size(); ++j)
        if (axes[j].link == axes[i].link) linked += (linked.empty() ? "" : ", ") + axes[j].key;
  }
  return linked.empty() ? t : t + " (+ " + linked + ")";
}

}  // namespace edgesim::sweep
