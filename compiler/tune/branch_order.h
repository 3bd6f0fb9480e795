// Execution order of parallel branches in the tuned flow (docs/tune.md "Branch order"; the
// XFDNN compiler orders inception branches the same way [81]). A graph's nodes run in list
// order; where a tensor is read by several nodes (a fork) and the branches meet again at one
// node (the join), any topological order of the nodes in between computes the same values but
// keeps different activations alive at once. For each such region (its nodes contiguous in the
// list, at most kMaxOrders orders) every legal order is enumerated and the one with the lowest
// peak L2 is kept (ties keep the earlier order in the enumeration, which starts with the
// graph's own).
// Peak L2 (activation_l2_peak): the high water of the first-fit planner over the activation
// homes the schedule builder allocates — every non-constant tensor from the step that writes it
// (graph inputs and outputs: the whole run) to the last step that reads it. It is the part of the
// schedule's L2 that the order changes.
#pragma once
#include <cstdint>
#include <vector>

#include "kernels/ir/graph.h"

namespace edgesim {

inline constexpr size_t kMaxOrders = 5040;

// Peak L2 bytes of the activations when the nodes run in `order` (a permutation of node indices).
int64_t activation_l2_peak(const Graph& g, const std::vector<int>& order);

// The graph with its nodes in `order` (tensors, inputs and outputs unchanged).
Graph reorder_nodes(const Graph& g, const std::vector<int>& order);

struct BranchOrder {
  std::vector<int> order;        // node indices in the chosen order (identity: unchanged)
  int regions = 0;               // branchy regions found
  size_t orders = 0;             // legal orders evaluated, over all regions
  int64_t peak_before = 0, peak_after = 0;
  bool changed() const;
};

BranchOrder choose_branch_order(const Graph& g);

// The region the fork at tensor t opens: the nodes reached from one of its readers (the readers
// included) that reach the join, the earliest node in list order that every reader reaches or
// is (the join excluded); in list order. Empty when t has fewer than two readers or the branches
// never join. O(span x readers) time and memory.
std::vector<int> branch_region(const Graph& g, int t);

// Every topological order of the nodes of g (tests; stops after `cap`).
std::vector<std::vector<int>> all_topological_orders(const Graph& g, size_t cap);

}  // namespace edgesim
