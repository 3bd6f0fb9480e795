// verify_against_interpreter (verify.h).
#include "sim/exec/verify.h"

#include <fmt/format.h>

#include "compiler/ir/op_label.h"

namespace edgesim {

namespace {

// Flat index of the first difference, -1 if equal (a shape difference counts at index 0).
int64_t first_difference(const Tensor& want, const Tensor& got) {
  if (want.shape() != got.shape() || want.dtype() != got.dtype()) return 0;
  for (int64_t i = 0; i < want.numel(); ++i)
    if (want.get_f64(i) != got.get_f64(i)) return i;
  return -1;
}

std::string describe(const Tensor& want, const Tensor& got, int64_t i) {
  if (want.shape() != got.shape())
    return fmt::format("shape {} instead of {}", shape_str(got.shape()), shape_str(want.shape()));
  return fmt::format("first difference at flat index {}: expected {}, got {}", i, want.get_f64(i), got.get_f64(i));
}

}  // namespace

VerifyOutcome verify_against_interpreter(const Graph& g, const FunctionalResult& got, const InterpreterResult& want) {
  VerifyOutcome v;
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    const Node& node = g.nodes[n];
    for (int t : node.outputs) {
      const auto ti = static_cast<size_t>(t);
      if (ti >= got.values.size() || ti >= want.values.size() || !got.values[ti] || !want.values[ti]) continue;
      ++v.tensors;
      const int64_t i = first_difference(*want.values[ti], *got.values[ti]);
      if (i < 0) continue;
      v.message = fmt::format("layer {} '{}' ({}): tensor %{} '{}' differs from the interpreter, {}", n, node.name,
                              layer_label(g, node), t, g.tensor(t).name, describe(*want.values[ti], *got.values[ti], i));
      return v;
    }
  }
  for (size_t j = 0; j < g.outputs.size() && j < got.outputs.size() && j < want.outputs.size(); ++j) {
    ++v.tensors;
    const int64_t i = first_difference(want.outputs[j], got.outputs[j]);
    if (i < 0) continue;
    v.message = fmt::format("output {} '{}' differs from the interpreter, {}", j, g.tensor(g.outputs[j]).name,
                            describe(want.outputs[j], got.outputs[j], i));
    return v;
  }
  v.ok = true;
  v.message = fmt::format("bit-exact ({} tensors)", v.tensors);
  return v;
}

InterpreterResult as_interpreter_result(const Graph& g, const FunctionalResult& got) {
  InterpreterResult r;
  r.values = got.values;
  for (size_t t = 0; t < g.tensors.size() && t < r.values.size(); ++t)
    if (g.tensors[t].is_const()) r.values[t] = *g.tensors[t].constant;
  r.outputs = got.outputs;
  return r;
}

}  // namespace edgesim
