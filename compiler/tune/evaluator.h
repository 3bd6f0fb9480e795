// Evaluator: the tuner's source of cycles for candidate tilings of one layer (docs/architecture.md
// "Contracts").
// Contract: cycles() returns one value per candidate, in order: the cycles of the layer's step
// when the layer runs with that tiling (in the network's context: constants placement,
// conventions), or -1 when the candidate is not feasible (does not fit a memory level). It is
// deterministic. scores() adds each candidate's energy by block where the evaluator simulates it
// (objective.h); by default it is cycles() without energy. The analytic evaluator lives here;
// the simulating one in sim/tune (the compiler never links SystemC), installed by the CLI
// through set_simulating_evaluator().
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "compiler/tune/analytic.h"
#include "compiler/tune/candidate.h"
#include "compiler/tune/objective.h"

namespace edgesim {

class Evaluator {
 public:
  virtual ~Evaluator() = default;
  virtual std::string name() const = 0;
  virtual std::vector<int64_t> cycles(const Graph& g, int node, const std::vector<Candidate>& cands,
                                      const PlatformSpec& spec, const AnalyticContext& ctx) = 0;
  virtual std::vector<Score> scores(const Graph& g, int node, const std::vector<Candidate>& cands,
                                    const PlatformSpec& spec, const AnalyticContext& ctx) {
    std::vector<Score> out;
    for (int64_t c : cycles(g, node, cands, spec, ctx)) out.push_back(Score{c, {}});
    return out;
  }
};

class AnalyticEvaluator : public Evaluator {
 public:
  std::string name() const override { return "analytic"; }
  std::vector<int64_t> cycles(const Graph& g, int node, const std::vector<Candidate>& cands,
                              const PlatformSpec& spec, const AnalyticContext& ctx) override;
};

}  // namespace edgesim
