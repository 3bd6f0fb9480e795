// The driver of `edgesim sweep` in the collecting process: which points are already known,
// dispatching the others, journaling every result as it arrives, and writing the files.
//
// Resuming. Before dispatching, results are looked up by (network, platform, policy, point) in
//   1. the journal `<output>.journal` (JSON lines, appended as results arrive: it survives
//      Ctrl-C, SIGTERM or a crash; a torn last line is ignored),
//   2. the --json output, if it exists (full records),
//   3. the -o CSV, if it exists (rows without per-layer detail: reused unless --json needs
//      the detail of an "ok" row).
// When every point is known the CSV / JSON / HTML are written atomically in point order and
// the journal is removed. So an interrupted sweep that is restarted with the same command ends
// with exactly the bytes of an uninterrupted one, whatever -j or MPI did.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "sim/sweep/carry.h"
#include "sim/sweep/dispatch.h"
#include "sim/stats/provenance.h"
#include "sim/sweep/evaluate.h"

namespace edgesim::sweep {

struct SweepOutputs {
  std::string csv, json, report;   // empty: not written
  bool fresh = false;              // ignore earlier results (and the journal)
  Provenance provenance;           // recorded in the CSV ('#' lines), JSON and HTML
};

// The journal of a sweep: next to the CSV, else next to the JSON; "" when neither is written.
std::string journal_path(const SweepOutputs& o);

// The message a worker sends for a point (record_to_json(...).dump()).
std::string encode_record(const PointRecord& r, const std::vector<std::string>& keys);

// An Evaluate over imported networks (the messages of evaluate_point).
Evaluate make_evaluate(const SweepSpec& s, const std::vector<SweepNetwork>& nets, const TilingHint& hint);
// An EvaluatePlan over imported networks (evaluate_plan), for carry_tuned_plans.
EvaluatePlan make_evaluate_plan(const SweepSpec& s, const std::vector<SweepNetwork>& nets);

// The message of a point whose worker failed: status "error" with `why`.
std::string error_message(const SweepSpec& s, size_t index, const std::string& why);

struct SweepTotals {
  size_t points = 0, reused = 0, computed = 0, infeasible = 0, errors = 0;
  bool interrupted = false;
};

// Runs the sweep; the terminal summary goes to `out` (progress redrawn there when tty). When every
// point is known and `carry` is given, tuned plans are carried to the points with more memory
// (carry_tuned_plans, in this process) before the files are written. Returns 0 when complete, 1 when complete but no point could be evaluated (every point
// infeasible or an error), 130 when interrupted (results so far are in the journal). Throws
// std::runtime_error when an output file cannot be written.
int run_sweep(const SweepSpec& s, const SweepOutputs& o, const Dispatch& dispatch, std::ostream& out, bool tty,
              SweepTotals* totals = nullptr, const EvaluatePlan& carry = {});

// The CSV and JSON texts of complete results (in point order).
std::string results_csv(const SweepSpec& s, const std::vector<PointRecord>& rs, const Provenance& prov = {});
std::string results_json(const SweepSpec& s, const std::vector<PointRecord>& rs, const Provenance& prov = {});

}  // namespace edgesim::sweep
