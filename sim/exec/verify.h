// Verification of a timed run with data (docs/architecture.md "Data flow today", timed execution):
// every tensor the run read back (graph outputs and every placed activation) is compared
// bit-exactly with the untiled interpreter; on a mismatch the message names the first differing
// layer in execution order, the tensor and the first differing element.
#pragma once
#include <string>

#include "kernels/ir/graph.h"
#include "compiler/schedule/functional.h"
#include "kernels/interpreter/interpreter.h"

namespace edgesim {

struct VerifyOutcome {
  bool ok = false;
  int64_t tensors = 0;       // tensors compared
  std::string message;       // "bit-exact (61 tensors)" or "layer 7 'L7_dw' (dwconv 3x3): ..."
};

VerifyOutcome verify_against_interpreter(const Graph& g, const FunctionalResult& got, const InterpreterResult& want);

// The simulated values as an InterpreterResult, so golden-file checks (check_expected) can read
// them like the interpreter's.
InterpreterResult as_interpreter_result(const Graph& g, const FunctionalResult& got);

}  // namespace edgesim
