// choose_branch_order (branch_order.h).
#include "compiler/tune/branch_order.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "compiler/schedule/planner.h"

namespace edgesim {

namespace {

// Producer node of each tensor (-1: graph input or constant), consumers of each tensor.
struct Uses {
  std::vector<int> producer;
  std::vector<std::vector<int>> consumers;
};

Uses uses_of(const Graph& g) {
  Uses u;
  u.producer.assign(g.tensors.size(), -1);
  u.consumers.assign(g.tensors.size(), {});
  for (size_t k = 0; k < g.nodes.size(); ++k) {
    for (int t : g.nodes[k].outputs) u.producer[static_cast<size_t>(t)] = static_cast<int>(k);
    for (int t : g.nodes[k].inputs)
      if (!g.tensor(t).is_const()) u.consumers[static_cast<size_t>(t)].push_back(static_cast<int>(k));
  }
  return u;
}

// Topological orders of `nodes` (a subset of g's nodes) that respect the edges among them, the
// given order first; at most cap.
void orders_of(const Graph& g, const Uses& u, const std::vector<int>& nodes, size_t cap,
               std::vector<std::vector<int>>& out) {
  std::map<int, std::vector<int>> preds;
  const std::set<int> in(nodes.begin(), nodes.end());
  for (int n : nodes)
    for (int t : g.nodes[static_cast<size_t>(n)].inputs) {
      const int p = u.producer[static_cast<size_t>(t)];
      if (p >= 0 && in.count(p)) preds[n].push_back(p);
    }
  std::vector<int> cur;
  std::set<int> done;
  std::function<void()> rec = [&] {
    if (out.size() >= cap) return;
    if (cur.size() == nodes.size()) {
      out.push_back(cur);
      return;
    }
    for (int n : nodes) {
      if (done.count(n)) continue;
      bool ready = true;
      for (int p : preds[n]) ready &= done.count(p) > 0;
      if (!ready) continue;
      cur.push_back(n);
      done.insert(n);
      rec();
      done.erase(n);
      cur.pop_back();
    }
  };
  rec();
}

}  // namespace

int64_t activation_l2_peak(const Graph& g, const std::vector<int>& order) {
  std::vector<int> step(g.nodes.size());
  for (size_t i = 0; i < order.size(); ++i) step[static_cast<size_t>(order[i])] = static_cast<int>(i);
  const int last = std::max<int>(0, static_cast<int>(order.size()) - 1);
  std::vector<int> first(g.tensors.size(), -1), end(g.tensors.size(), -1);
  for (size_t k = 0; k < g.nodes.size(); ++k) {
    const int s = step[k];
    for (int t : g.nodes[k].outputs) first[static_cast<size_t>(t)] = first[static_cast<size_t>(t)] < 0 ? s : std::min(first[static_cast<size_t>(t)], s);
    for (int t : g.nodes[k].inputs) end[static_cast<size_t>(t)] = std::max(end[static_cast<size_t>(t)], s);
  }
  std::vector<Buffer> bufs;
  std::vector<int> ids;
  for (size_t t = 0; t < g.tensors.size(); ++t) {
    const TensorDesc& d = g.tensors[t];
    const int id = static_cast<int>(t);
    if (d.is_const()) continue;
    const bool io = std::find(g.inputs.begin(), g.inputs.end(), id) != g.inputs.end() ||
                    std::find(g.outputs.begin(), g.outputs.end(), id) != g.outputs.end();
    if (!io && first[t] < 0 && end[t] < 0) continue;
    Buffer b;
    b.id = static_cast<int>(bufs.size());
    b.level = Level::L2;
    b.bytes = shape_numel(d.shape) * static_cast<int64_t>(dtype_size(d.dtype));
    b.first_step = io ? 0 : std::max(first[t], 0);
    b.last_step = io ? last : std::max(end[t], b.first_step);
    ids.push_back(b.id);
    bufs.push_back(b);
  }
  return make_planner("first-fit")->place(bufs, ids, 4);
}

Graph reorder_nodes(const Graph& g, const std::vector<int>& order) {
  Graph r = g;
  r.nodes.clear();
  for (int k : order) r.nodes.push_back(g.nodes.at(static_cast<size_t>(k)));
  r.validate();
  return r;
}

bool BranchOrder::changed() const {
  for (size_t i = 0; i < order.size(); ++i)
    if (order[i] != static_cast<int>(i)) return true;
  return false;
}

namespace {

// The region a branch point opens: its consumers `cs`, the join (the earliest node, in the list
// order, that every consumer reaches or is) and the nodes between (reached from a consumer,
// reaching the join; the consumers included, the join not), in list order. Empty when the
// branches never join. The list order is topological (Graph::validate), so one sweep forward from
// the first consumer finds the join and one sweep back from it finds the region: O(span x
// consumers) time and memory, where a table of every node's descendants was O(nodes^2) (2.4 GB
// on a chain of 10,000 layers).
std::vector<int> region_of(const Graph& g, const Uses& u, const std::vector<int>& cs) {
  const int lo = *std::min_element(cs.begin(), cs.end());
  const size_t words = (cs.size() + 63) / 64;
  const auto n = static_cast<int>(g.nodes.size());
  std::vector<uint64_t> reach(static_cast<size_t>(n - lo) * words, 0);   // bit i: consumer i reaches (or is) the node
  auto row = [&](int k) { return reach.begin() + static_cast<long>(static_cast<size_t>(k - lo) * words); };
  int join = -1;
  for (int k = lo; k < n && join < 0; ++k) {
    auto r = row(k);
    for (size_t i = 0; i < cs.size(); ++i)
      if (cs[i] == k) r[static_cast<long>(i / 64)] |= uint64_t{1} << (i % 64);
    for (int t : g.nodes[static_cast<size_t>(k)].inputs) {
      const int p = u.producer[static_cast<size_t>(t)];
      if (p < lo || g.tensor(t).is_const()) continue;
      auto q = row(p);
      for (size_t w = 0; w < words; ++w) r[static_cast<long>(w)] |= q[static_cast<long>(w)];
    }
    bool all = true;
    for (size_t i = 0; i < cs.size(); ++i) all &= ((r[static_cast<long>(i / 64)] >> (i % 64)) & 1) != 0;
    if (all) join = k;
  }
  if (join < 0) return {};
  std::vector<char> to_join(static_cast<size_t>(join - lo + 1), 0);   // reaches the join
  to_join.back() = 1;
  for (int k = join - 1; k >= lo; --k)
    for (int t : g.nodes[static_cast<size_t>(k)].outputs)
      for (int c : u.consumers[static_cast<size_t>(t)])
        if (c <= join && to_join[static_cast<size_t>(c - lo)]) to_join[static_cast<size_t>(k - lo)] = 1;
  std::vector<int> region;
  for (int k = lo; k < join; ++k) {
    auto r = row(k);
    const bool from = std::any_of(r, r + static_cast<long>(words), [](uint64_t w) { return w != 0; });
    if (from && to_join[static_cast<size_t>(k - lo)]) region.push_back(k);
  }
  return region;
}

}  // namespace

std::vector<int> branch_region(const Graph& g, int t) {
  const Uses u = uses_of(g);
  const std::vector<int>& cs = u.consumers.at(static_cast<size_t>(t));
  return cs.size() < 2 ? std::vector<int>{} : region_of(g, u, cs);
}

BranchOrder choose_branch_order(const Graph& g) {
  BranchOrder b;
  for (size_t k = 0; k < g.nodes.size(); ++k) b.order.push_back(static_cast<int>(k));
  b.peak_before = b.peak_after = activation_l2_peak(g, b.order);
  const Uses u = uses_of(g);
  for (size_t t = 0; t < g.tensors.size(); ++t) {
    const std::vector<int>& cs = u.consumers[t];
    if (cs.size() < 2) continue;
    const std::vector<int> region = region_of(g, u, cs);
    if (region.size() < 2) continue;
    // Contiguous in the current order (nothing unrelated interleaved).
    std::vector<size_t> at(g.nodes.size());
    for (size_t i = 0; i < b.order.size(); ++i) at[static_cast<size_t>(b.order[i])] = i;
    std::vector<size_t> pos;
    for (int n : region) pos.push_back(at[static_cast<size_t>(n)]);
    std::sort(pos.begin(), pos.end());
    if (pos.back() - pos.front() + 1 != pos.size()) continue;
    std::vector<int> cur(b.order.begin() + static_cast<long>(pos.front()), b.order.begin() + static_cast<long>(pos.back()) + 1);
    ++b.regions;
    std::vector<std::vector<int>> orders;
    orders_of(g, u, cur, kMaxOrders, orders);
    b.orders += orders.size();
    std::vector<int> best = b.order;
    int64_t best_peak = b.peak_after;
    for (const std::vector<int>& o : orders) {
      std::vector<int> full = b.order;
      std::copy(o.begin(), o.end(), full.begin() + static_cast<long>(pos.front()));
      const int64_t p = activation_l2_peak(g, full);
      if (p < best_peak) best_peak = p, best = full;
    }
    b.order = best;
    b.peak_after = best_peak;
  }
  return b;
}

std::vector<std::vector<int>> all_topological_orders(const Graph& g, size_t cap) {
  std::vector<int> nodes;
  for (size_t k = 0; k < g.nodes.size(); ++k) nodes.push_back(static_cast<int>(k));
  std::vector<std::vector<int>> out;
  orders_of(g, uses_of(g), nodes, cap, out);
  return out;
}

}  // namespace edgesim
