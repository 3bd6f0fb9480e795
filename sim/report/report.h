// Report writers over a RunResult (sim/stats/run_result.h): the terminal table of `edgesim run`,
// its JSON form, Chrome / Perfetto trace events, and a self-contained HTML page with inline SVG.
// Writers only format; they never compute timing. File writers write atomically (temporary
// file + rename) and throw std::runtime_error naming the path on failure.
#pragma once
#include <ostream>
#include <string>

#include "sim/stats/run_result.h"

namespace edgesim {

// Per-layer table (op, engine, MACs, cycles, accounted cycles, MAC/cycle, compute / DMA-wait /
// overhead split, tiles), a TOTAL row, the tiling table (L2->L1 tile, L1 bytes, L3->L2 slab, why
// this engine), the wall and accounted totals and the verification status. The tables fit
// `width` columns (100 by default, abbreviating or hiding columns and saying so); 0 shows all.
void print_run_table(std::ostream& os, const RunResult& r, size_t width = 100);

// {"network", "platform", "policy", "buffering", "fidelity", "freq_hz", "n_cores", "total_cycles",
//  "accounted_cycles", "total_macs", "data", "verified", "verify_message", "engines": [...],
//  "warnings": [...], "provenance": {...}, "layers": [{step, name, op, engine, macs, cycles, accounted_cycles,
//  compute_cycles, dma_wait_cycles, overhead_cycles, tiles, start, end, dma_bytes_in,
//  dma_bytes_out, l3_bytes, engine_reason, tiling, energy_pj, energy_by_block}], "memory": [...],
//  "total_energy_pj", "energy_by_block", "energy_leakage_by_block", "avg_power_w", "edp_j_s"}
// The energy keys are null when the platform has no energy model (docs/energy.md); a layer's
// energy_by_block and the run's hold picojoules per block (dynamic + leakage).
// provenance: how the run was made (sim/report/provenance.h: command line, version and commit,
// platform and spec hash, overrides, options, files with hashes).
// tiling: null for a whole-tensor step, else {policy, l1: {out: [c,h,w], in: [c,h,w], buffering,
// bytes, label}, l3: null or {slab: [c,h,w], in_rows, streams, label}} (shapes Cout x rows x cols).
// total_cycles is wall clock; accounted_cycles (run and layer) what the deployment's own per-layer
// counters bracket (sim/stats/run_result.h).
std::string run_to_json(const RunResult& r);
void write_run_json(const std::string& path, const RunResult& r);

// Trace Event Format (JSON object with "traceEvents"): one thread (track) per core, engine and
// DMA channel, complete events ("ph": "X"), timestamps in microseconds of the cluster clock.
std::string run_to_trace(const RunResult& r);
void write_run_trace(const std::string& path, const RunResult& r);

// Self-contained HTML (no external resources): summary, per-layer stacked bars of where cycles
// go (compute / overhead / DMA wait), memory occupancy per level over the steps, the table.
std::string run_to_html(const RunResult& r);
void write_run_html(const std::string& path, const RunResult& r);

}  // namespace edgesim
