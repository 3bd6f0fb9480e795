// What the tuner minimises when it picks a layer's tiling among the simulated candidates
// (`edgesim tune --objective`, docs/tune.md): "cycles" (the default), "energy" (the layer's
// simulated energy, sim/energy), or "edp" (energy x cycles). The analytic ranking that decides
// which candidates are simulated stays on cycles; only the final choice follows the objective.
// Ties keep the candidate with fewer cycles, then the earlier one.
#pragma once
#include <cstdint>
#include <map>
#include <string>

namespace edgesim {

// A simulated candidate: its cycles (-1: not feasible) and its energy in pJ by block
// (empty when the evaluator or the platform has no energy model).
struct Score {
  int64_t cycles = -1;
  std::map<std::string, double> energy_pj;   // block -> pJ (dynamic + leakage)
  bool has_energy() const { return !energy_pj.empty(); }
  double total_pj() const;
};

// "cycles", "energy" or "edp"; throws std::invalid_argument naming the accepted values.
void check_objective(const std::string& objective);

// An objective other than cycles needs an energy model and the simulating evaluator; throws
// std::invalid_argument with the line `edgesim tune` prints otherwise.
void require_energy(const std::string& objective, const std::string& platform, bool platform_has_energy,
                    bool simulator);

// The figure the objective ranks a feasible score by (lower is better); -1 when the score is
// infeasible or lacks the energy the objective needs.
double objective_value(const Score& s, const std::string& objective);

// True when a is strictly better than b under the objective (ties: fewer cycles).
bool better(const Score& a, const Score& b, const std::string& objective);

// One line saying why `chosen` beats `fastest` under the objective: the energy and cycles
// changes and the blocks whose energy moved most, e.g.
// "-12.3 % energy for +4.1 % cycles: l2 -9.8 uJ, l1 -1.2 uJ, cluster +0.4 uJ".
std::string explain_choice(const Score& chosen, const Score& fastest);

}  // namespace edgesim
