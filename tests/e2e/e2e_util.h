// Helpers shared by the end-to-end tests: run one network through import -> load inputs ->
// interpret -> check_expected and summarise the per-tensor results for failure messages.
#pragma once
#include <string>
#include <vector>

#include "compiler/frontend/import.h"
#include "compiler/golden/golden.h"
#include "kernels/interpreter/interpreter.h"

namespace edgesim::test {

struct E2eRun {
  std::vector<CheckResult> results;
  std::string report;       // one format_check line per tensor
  int64_t failed = 0;       // tensors with mismatches
};

inline E2eRun verify_network(Graph& g, const std::string& inputs, const std::string& expected,
                             const VerifyOptions& vopt = {}, const InterpreterOptions& iopt = {}) {
  E2eRun run;
  const auto in = load_inputs(g, inputs);
  const auto r = interpret(g, in, iopt);
  run.results = check_expected(g, r, expected, vopt);
  for (const auto& c : run.results) {
    run.report += format_check(c) + "\n";
    run.failed += !c.ok();
  }
  return run;
}

}  // namespace edgesim::test
