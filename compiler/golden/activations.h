// Deeploy activations.npz (docs/verify.md "Deeploy tests", "Golden file formats"): intermediate
// tensors under QuantLib module names, matched to the golden model's tensors by shape and value.
// Candidates for an array are, among tensors of the same shape once unit axes are dropped:
//   * every graph tensor (inputs, constants, node outputs), and
//   * every fused node's value before its fused requant (the int32 accumulator of a Conv /
//     Gemm / Add / Mul / pool, the iHardswish / iGELU result), recomputed with the requant off.
// An array equal to a candidate is matched. An array that no same-shaped graph tensor could
// hold (its values outside every such tensor's dtype) and that no accumulator equals has no
// tensor in the fused graph (e.g. TrueIntegerDiv's product, merged into its RequantShift).
// An array that some same-shaped graph tensor could hold but equals no candidate differs.
#pragma once
#include <string>
#include <vector>

#include "kernels/ir/graph.h"
#include "kernels/interpreter/interpreter.h"

namespace edgesim {

struct ActivationCheck {
  int64_t arrays = 0;
  int64_t tensors = 0;           // equal to a graph tensor
  int64_t accumulators = 0;      // equal to a fused node's pre-requant value
  int64_t fused_away = 0;        // no tensor of the fused graph holds it
  std::vector<std::string> fused_names, differ;   // array names ("name [shape]: why" for differ)
  bool ok() const { return differ.empty(); }
};

// `r` must hold every tensor (InterpreterOptions::keep_all). Throws GoldenError for an
// unreadable archive.
ActivationCheck check_activations(const Graph& g, const InterpreterResult& r, const std::string& npz);

// "activations.npz next to `expected`" (the file itself, a sibling of an outputs.npz, or inside a
// directory), or "" when there is none.
std::string activations_next_to(const std::string& expected);

}  // namespace edgesim
