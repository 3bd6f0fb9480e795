// Interpreter: runs a Graph untiled with the reference kernels. This is the golden model.
// It reads the IR (kernels/ir/graph.h, CMake target edgesim_graph), which sits on the kernels'
// params and below the compiler.
#pragma once
#include <functional>
#include <vector>

#include "kernels/ir/graph.h"
#include "kernels/core/tensor.h"

namespace edgesim {

// The kernels that compute a node: the optimised ones where they apply (kernels/optimized.h)
// and the reference elsewhere, or the reference kernels only (the oracle; --reference-kernels).
enum class KernelSet { Optimized, Reference };

struct InterpreterOptions {
  ArithMode mode = ArithMode::Exact;
  KernelSet kernels = KernelSet::Optimized;
  bool keep_all = true;          // keep every intermediate tensor (needed for per-layer checks)
};

struct InterpreterResult {
  std::vector<std::optional<Tensor>> values;   // by tensor id (constants and kept tensors)
  std::vector<Tensor> outputs;                 // graph outputs in order
};

// inputs: one tensor per Graph::inputs entry, with the declared shape (values are converted
// to the declared dtype; an out-of-range value is an error naming the input).
// Throws std::runtime_error naming the node on any failure.
InterpreterResult interpret(const Graph& g, const std::vector<Tensor>& inputs,
                            const InterpreterOptions& opt = {});

// Runs the reference kernel matching `params` on views (the one dispatch from params to
// kernels, shared with the functional executor). Rank-3 views of 1-D convs and pools
// ([N, C, L]) are presented to the kernels as [N, C, 1, L].
void run_reference(const OpParams& params, const std::vector<View>& in, const View& out,
                   ArithMode mode = ArithMode::Exact);

// run_reference, except that Conv, Gemm, pooling and Add run their optimised kernel when it
// applies (same bits) and `set` is Optimized. The interpreter and the schedule executors use it.
void run_kernel(const OpParams& params, const std::vector<View>& in, const View& out,
                ArithMode mode = ArithMode::Exact, KernelSet set = KernelSet::Optimized);

// Checks a graph input's shape and converts it to the declared dtype; a fractional or
// out-of-range value is an error naming the input (index, name) and the flat index.
Tensor convert_graph_input(const TensorDesc& d, const Tensor& t, size_t index);

}  // namespace edgesim
