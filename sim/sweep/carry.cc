// Tuned plans carried to points with more memory (carry.h).
#include "sim/sweep/carry.h"

#include <algorithm>
#include <map>
#include <string>

#include "compiler/flows/flow.h"
#include "platforms/loader/units.h"

namespace edgesim::sweep {

namespace {

bool is_memory_axis(const std::vector<Axis>& axes, size_t a) {
  const Axis& ax = axes[a];
  if (ax.link >= 0 || std::find(std::begin(kMemoryKeys), std::end(kMemoryKeys), ax.key) == std::end(kMemoryKeys))
    return false;
  for (const std::string& v : ax.values) {
    try {
      parse_size(v);
    } catch (const std::exception&) {
      return false;
    }
  }
  return true;
}

// Point identity without the grid: network, policy and engine set (the outer dimensions).
size_t outer_of(const SweepSpec& s, size_t index) { return index / grid_size(s.axes); }

std::string identity(size_t outer, const std::vector<std::string>& values) {
  std::string k = std::to_string(outer);
  for (const std::string& v : values) k += '\x1f' + v;
  return k;
}

// "l1.size=80KiB l2.size=448KiB": the point's values of the axes with more than one value (the
// others are the same at every point).
std::string varied_label(const std::vector<Axis>& axes, const std::vector<std::string>& values) {
  std::string s;
  for (size_t a = 0; a < axes.size(); ++a)
    if (axes[a].values.size() > 1) {
      if (!s.empty()) s += ' ';
      s += axes[a].key;
      s += '=';
      s += values.at(a);
    }
  return s;
}

}  // namespace

std::vector<std::vector<size_t>> tuned_points_below(const SweepSpec& s) {
  const size_t n = point_count(s);
  std::vector<std::vector<size_t>> below(n);
  std::vector<size_t> memory;
  for (size_t a = 0; a < s.axes.size(); ++a)
    if (is_memory_axis(s.axes, a)) memory.push_back(a);
  if (memory.empty()) return below;
  std::map<std::string, size_t> index_of;
  for (size_t i = 0; i < n; ++i) index_of[identity(outer_of(s, i), point_at(s, i).values)] = i;
  for (size_t i = 0; i < n; ++i) {
    const PointRef p = point_at(s, i);
    if (const Flow* f = find_flow(p.policy); !f || !f->plans_network()) continue;
    for (size_t a : memory) {
      const int64_t mine = parse_size(p.values[a]);
      const std::string* next = nullptr;   // the largest value of the axis below mine
      int64_t next_size = -1;
      for (const std::string& v : s.axes[a].values) {
        const int64_t size = parse_size(v);
        if (size < mine && size > next_size) next = &v, next_size = size;
      }
      if (!next) continue;
      std::vector<std::string> values = p.values;
      values[a] = *next;
      const auto it = index_of.find(identity(outer_of(s, i), values));
      if (it != index_of.end()) below[i].push_back(it->second);
    }
  }
  return below;
}

CarryTotals carry_tuned_plans(const SweepSpec& s, std::vector<PointRecord>& rs, const EvaluatePlan& evaluate) {
  CarryTotals t;
  const std::vector<std::vector<size_t>> below = tuned_points_below(s);
  // Depth of a point: the longest chain of points below it; the points below come first.
  std::vector<size_t> depth(below.size(), 0), order;
  std::function<size_t(size_t)> depth_of = [&](size_t i) {
    if (depth[i] == 0) {
      depth[i] = 1;
      for (size_t q : below[i]) depth[i] = std::max(depth[i], depth_of(q) + 1);
    }
    return depth[i];
  };
  for (size_t i = 0; i < below.size(); ++i)
    if (!below[i].empty()) order.push_back(i), depth_of(i);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return depth[a] < depth[b]; });
  for (size_t p : order) {
    for (size_t q : below[p]) {
      PointRecord& mine = rs.at(p);
      const PointRecord& from = rs.at(q);
      if (mine.status != "ok" && mine.status != "infeasible") break;
      if (from.status != "ok" || from.plan.is_null() || from.plan == mine.plan) continue;
      PointRecord r = evaluate(p, from.plan);
      ++t.simulated;
      if (r.status != "ok" || (mine.status == "ok" && r.total_cycles >= mine.total_cycles)) continue;
      r.carried_from = from.carried_from.empty() ? varied_label(s.axes, from.values) : from.carried_from;
      mine = std::move(r);
      ++t.carried;
    }
  }
  return t;
}

}  // namespace edgesim::sweep
