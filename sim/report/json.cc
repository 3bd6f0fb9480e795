// run_to_json: the RunResult as one JSON document, for scripts and the search pipeline. Keys
// are those listed in report.h ("data" false: timing only; "total_cycles" wall clock beside the
// accounted cycles); the trace slices are not included (run_to_trace writes them). Objects come out with
// sorted keys (nlohmann's default map), integers exactly, indented by one space.
#include <nlohmann/json.hpp>

#include "sim/report/energy_report.h"
#include "sim/report/calibration_text.h"
#include "sim/report/format.h"
#include "sim/report/provenance.h"
#include "sim/report/report.h"
#include "compiler/io/write_file.h"

namespace edgesim {

namespace {

using nlohmann::json;

json shape_json(const TileShape& s) { return json::array({s.c, s.h, s.w}); }

// null for a step without a tiling (a whole-tensor op in L2).
json tiling_json(const LayerTilingStats& t) {
  if (!t.tiled) return nullptr;
  json l3 = nullptr;
  if (t.l3)
    l3 = {{"slab", shape_json(t.l3_slab)}, {"in_rows", t.l3_in_rows}, {"streams", t.l3_streams}, {"label", t.l3_label}};
  return {{"policy", t.policy},
          {"l1", {{"out", shape_json(t.l1_out)},
                  {"in", shape_json(t.l1_in)},
                  {"buffering", t.l1_buffering == 2 ? "double" : "single"},
                  {"bytes", t.l1_bytes},
                  {"label", t.l1_label}}},
          {"l3", l3}};
}

// null without an energy model
json energy_or_null(bool modelled, double pj) { return modelled ? json(pj) : json(nullptr); }
json blocks_or_null(bool modelled, const std::map<std::string, double>& m) { return modelled ? json(m) : json(nullptr); }

json layer_json(const LayerStats& l, bool energy) {
  return {{"step", l.step},
          {"energy_pj", energy_or_null(energy, l.energy.total_pj())},
          {"energy_by_block", blocks_or_null(energy, l.energy.by_block())},
          {"name", l.name},
          {"op", l.op},
          {"engine", l.engine},
          {"macs", l.macs},
          {"cycles", l.cycles},
          {"accounted_cycles", l.accounted_cycles},
          {"compute_cycles", l.compute_cycles},
          {"dma_wait_cycles", l.dma_wait_cycles},
          {"overhead_cycles", l.overhead_cycles},
          {"tiles", l.tiles},
          {"start", l.start},
          {"end", l.end},
          {"dma_bytes_in", l.dma_bytes_in},
          {"dma_bytes_out", l.dma_bytes_out},
          {"l3_bytes", l.l3_bytes},
          {"tiling", tiling_json(l.tiling)},
          {"engine_reason", l.engine_reason}};
}

json memory_json(const MemoryUse& m) {
  return {{"level", m.level}, {"capacity", m.capacity}, {"high_water", m.high_water}, {"per_step", m.per_step}};
}

}  // namespace

std::string run_to_json(const RunResult& r) {
  json layers = json::array();
  for (const LayerStats& l : r.layers) layers.push_back(layer_json(l, r.energy_modelled));
  json memory = json::array();
  for (const MemoryUse& m : r.memory) memory.push_back(memory_json(m));
  json engines = json::array();
  for (const report::EngineShare& e : report::engine_split(r))
    engines.push_back({{"engine", e.engine}, {"steps", e.steps}, {"cycles", e.cycles}, {"macs", e.macs}});
  json ops = json::array();
  for (const report::EngineShare& e : report::op_split(r))
    ops.push_back({{"op", e.engine}, {"steps", e.steps}, {"cycles", e.cycles}, {"macs", e.macs}});
  json doc = {{"network", r.network},
                    {"platform", r.platform},
                    {"policy", r.policy},
                    {"buffering", r.buffering},
                    {"fidelity", r.fidelity},
                    {"freq_hz", r.freq_hz},
                    {"n_cores", r.n_cores},
                    {"total_cycles", r.total_cycles},
                    {"accounted_cycles", r.accounted_cycles},
                    {"total_macs", r.total_macs},
                    {"data", r.data},
                    {"verified", r.verified},
                    {"verify_message", r.verify_message},
                    {"engines", engines},
                    {"ops", ops},
                    {"warnings", r.warnings},
                    {"total_energy_pj", energy_or_null(r.energy_modelled, r.energy.total_pj())},
                    {"energy_by_block", blocks_or_null(r.energy_modelled, r.energy.by_block())},
                    {"energy_leakage_by_block", blocks_or_null(r.energy_modelled, r.energy.leakage_pj)},
                    {"avg_power_w", energy_or_null(r.energy_modelled, report::avg_power_w(r))},
                    {"edp_j_s", energy_or_null(r.energy_modelled, report::edp_js(r))},
                    {"layers", std::move(layers)},
                    {"memory", std::move(memory)},
                    {"provenance", report::provenance_json(r.provenance)}};
  if (!r.schedule_hash.empty()) doc["schedule_hash"] = r.schedule_hash;
  if (r.calibration.looked_up) {
    json cases = json::array();
    for (const CalibrationCase& c : r.calibration.cases)
      cases.push_back({{"case", c.name}, {"metric", c.metric}, {"error", c.error}, {"pass", c.pass}});
    const Calibration& c = r.calibration;
    doc["calibration"] = {{"platform", c.platform},
                          {"status", !c.unknown.empty() ? "unknown" : c.cases.empty() ? "uncalibrated" : "calibrated"},
                          {"cases", cases},
                          {"overridden", c.overridden},
                          {"text", report::calibration_text(c)}};
  }
  // Invalid UTF-8 in a node name becomes U+FFFD instead of an exception.
  return doc.dump(1, ' ', false, json::error_handler_t::replace) + "\n";
}

void write_run_json(const std::string& path, const RunResult& r) { write_file_atomically(path, run_to_json(r)); }

}  // namespace edgesim
