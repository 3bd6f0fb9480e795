// The result of one sweep point (one network on one platform variant) as plain data, and its
// encodings: one JSON object (a line of the journal, a message between worker processes or MPI
// ranks, an element of the --json output), and a row of the CSV output.
//
// Only exact values travel: cycles and MACs are integers, and the two derived figures (time_ms,
// mac_per_cycle) are rounded to 4 decimals when the point is evaluated, so a record read back
// from any of the files re-encodes to the same bytes (this is what makes resumed sweeps and
// sweeps spread over processes write identical files).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace edgesim::sweep {

struct LayerRecord {
  std::string name, op;
  int64_t cycles = 0, compute = 0, dma_wait = 0, overhead = 0;
  double energy_uj = -1;            // rounded to 4 decimals; -1: no energy model
};

struct PointRecord {
  std::string network;              // network label (file stem, or its folder for model.onnx)
  std::string platform, policy;     // platform path as given, tiling policy
  std::string engines;              // engine preference of the point ("npu,cluster"); "" = the platform's
  std::vector<std::string> values;  // one per axis, in axis order
  std::string status;               // "ok", "infeasible" (no tiling / schedule / invalid value), "error"
  int64_t total_cycles = 0, macs = 0;
  double time_ms = 0, mac_per_cycle = 0;   // rounded to 4 decimals
  double energy_uj = -1;            // total energy, rounded to 4 decimals; -1: the platform has no energy model
  std::string reason;               // one line; empty when ok
  std::string schedule_hash;        // ok: schedule_hash() of the point's schedule (JSON only)
  bool has_layers = false;          // false for rows read back from a CSV (no per-layer detail)
  std::vector<LayerRecord> layers;
  // Policy `tuned` (carry.h): the plan the figures are of (node order, engines, kernel library,
  // tilings; null when not tuned or not ok, and for rows read back from a CSV), and the point
  // whose tuning found it when that is a point with less memory (its values of the swept axes,
  // "l1.size=56KiB l2.size=448KiB"; "" the point's own).
  nlohmann::json plan;
  std::string carried_from;
};

// x rounded to 4 decimals (the precision of the files).
double round4(double x);

// Identity of a point for resuming: network, platform, policy, engines and every key=value.
std::string record_key(const PointRecord& r, const std::vector<std::string>& keys);

// One JSON object; `keys` names the values (the axes' keys).
nlohmann::json record_to_json(const PointRecord& r, const std::vector<std::string>& keys);
// Inverse of record_to_json for the same keys; nullopt when the object does not have exactly
// these keys or is malformed (a stale journal line, another sweep's file).
std::optional<PointRecord> record_from_json(const nlohmann::json& j, const std::vector<std::string>& keys);

// The figure an objective ranks points by (lower is better): "cycles" total cycles, "energy" energy,
// "edp" energy x time (uJ*ms). nullopt for a point that is not ok or has no energy for the objective.
std::optional<double> objective_value(const PointRecord& r, const std::string& objective);

// CSV: header "network,platform,policy,engines,<keys...>,status,total_cycles,time_ms,macs,mac_per_cycle,energy_uj,reason,carried_from",
// after any '#' comment lines (the provenance, sim/report/provenance.h).
std::string csv_header(const std::vector<std::string>& keys);
std::string csv_row(const PointRecord& r);
// Splits one CSV line (RFC 4180 quoting, no embedded newlines) into fields.
std::vector<std::string> csv_split(const std::string& line);
// Reads the rows of a CSV text written by csv_header/csv_row for the same keys (leading '#' lines
// skipped); rows of another header or unparsable rows are skipped. The records have has_layers == false
// and no plan.
std::vector<PointRecord> records_from_csv(const std::string& text, const std::vector<std::string>& keys);

}  // namespace edgesim::sweep
