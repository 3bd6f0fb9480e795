// RunResult: everything one timed execution of a Schedule produced, as plain data. The SoC
// executor (sim/exec) fills it; the report writers (sim/report: terminal table, JSON, Chrome
// trace, HTML) only read it. Cycles are cluster cycles counted from the start of the run.
//
// Per-layer split (each step's window is [start, end), start = end of the previous step):
//   cycles          = end - start
//   compute_cycles  = cycles the engine spent in kernels (work part of the cost model)
//   overhead_cycles = engine cycles spent in fixed costs: fork, barriers, DMA issue, DMA waits'
//                     wake-up, kernel call set-up
//   dma_wait_cycles = cycles - compute_cycles - overhead_cycles: the engine idles, waiting for data
//   accounted_cycles= the part of the window a deployment's own per-layer counter brackets (DORY and
//                     Deeploy start it when the layer starts executing, after the network loop's
//                     blocking copies of the layer's constants): end - max(start, loop copies done)
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/stats/calibration.h"
#include "sim/stats/provenance.h"

namespace edgesim {

// How a layer was tiled (the Schedule's LayerTiling, compiler/tiler/tiling.h), for reports. Shapes
// are Cout x rows x cols. Steps without a tiling (whole-tensor ops in L2) have tiled = false.
struct TileShape {
  int64_t c = 0, h = 0, w = 0;
};
struct LayerTilingStats {
  bool tiled = false;
  std::string policy;             // the policy that chose the tiling
  TileShape l1_out, l1_in;        // L2->L1 tile: output extent and the input extent it reads
  int l1_buffering = 1;           // 1 single, 2 double
  int64_t l1_bytes = 0;           // L1 footprint under the policy's accounting
  bool l3 = false;                // L3-tiled (slabs streamed between L3 and L2)
  TileShape l3_slab;              // L2 slab (output)
  int64_t l3_in_rows = 0;         // input rows one slab reads
  std::string l3_streams;         // "x,w,y": what streams from/to L3
  std::string l1_label, l3_label; // compiler/tiler/tiling_label.h wording
};

// Energy of a layer or a run in picojoules per block ("cluster", "l1", "l2", "l3", "wmem", "dma",
// "npu", "mvu"): dynamic energy of the simulated events and leakage over the elapsed time
// (sim/energy/meter.h, docs/energy.md). Empty when the platform has no energy model.
struct EnergyStats {
  std::map<std::string, double> dynamic_pj, leakage_pj;
  double total_pj() const {
    double t = 0;
    for (const auto& [b, v] : dynamic_pj) t += v;
    for (const auto& [b, v] : leakage_pj) t += v;
    return t;
  }
  double block_pj(const std::string& block) const {
    auto d = dynamic_pj.find(block), l = leakage_pj.find(block);
    return (d == dynamic_pj.end() ? 0.0 : d->second) + (l == leakage_pj.end() ? 0.0 : l->second);
  }
  std::map<std::string, double> by_block() const {
    std::map<std::string, double> out = dynamic_pj;
    for (const auto& [b, v] : leakage_pj) out[b] += v;
    return out;
  }
};

struct LayerStats {
  int step = -1;                  // index into Schedule::steps
  std::string name;               // node name
  std::string op;                 // "conv 3x3", "dwconv 3x3", "conv 1x1", "gemm", "maxpool", "add", "reshape", ...
  std::string engine;             // "cluster" (later "npu", "mvu")
  int64_t macs = 0;
  int64_t start = 0, end = 0;     // cycles
  int64_t cycles = 0;
  int64_t compute_cycles = 0;
  int64_t overhead_cycles = 0;
  int64_t dma_wait_cycles = 0;
  int64_t accounted_cycles = 0;   // see above; equals cycles when the network loop waits for nothing
  int tiles = 0;                  // compute commands of the step
  int64_t dma_bytes_in = 0;       // L2->L1 (cluster DMA)
  int64_t dma_bytes_out = 0;      // L1->L2
  int64_t l3_bytes = 0;           // L3<->L2
  LayerTilingStats tiling;
  std::string engine_reason;      // why the node runs on `engine` ("first engine that runs it", "not npu: dilation")
  EnergyStats energy;             // empty without an energy model
};

// One slice of a timeline, for the trace: `track` is a core ("core 3"), an engine ("cluster")
// or a DMA channel ("dma in", "dma out", "l3 dma").
struct TraceSlice {
  std::string track;
  std::string name;               // command note, e.g. "compute tile 3/16", "load x tile 4"
  int step = -1;
  int64_t start = 0;
  int64_t dur = 0;
};

// Bytes in use of one memory level over the run: one sample per step (live buffers of the step
// as allocated by the schedule), plus the level's capacity.
struct MemoryUse {
  std::string level;              // "L1", "L2", "L3", "WMEM"
  int64_t capacity = 0;           // bytes (the policy budget for L1, the level size otherwise)
  int64_t high_water = 0;         // bytes
  std::vector<int64_t> per_step;  // bytes live at each step (size = number of steps)
  int64_t size = 0;               // bytes: the level's size in the platform
  bool is_budget = false;         // capacity is the policy's usable budget, not the size
};

struct RunResult {
  std::string network, platform, policy, buffering;
  std::string fidelity;           // "gvsoc" | "realistic"
  int64_t freq_hz = 0;            // cluster clock, to convert cycles to time
  int n_cores = 0;
  std::vector<LayerStats> layers;
  int64_t total_cycles = 0;       // wall clock: end of the last step
  int64_t accounted_cycles = 0;   // sum of the layers' accounted_cycles (what DORY/Deeploy print)
  int64_t total_macs = 0;
  bool data = true;               // data moved and kernels ran (else timing only)
  bool verified = false;          // outputs equal the untiled interpreter (and --expected, if given)
  std::string verify_message;     // "bit-exact (3 outputs)" or the first mismatch
  std::vector<TraceSlice> trace;  // empty unless requested
  std::vector<MemoryUse> memory;
  std::string schedule_hash;      // schedule_hash() of the schedule run, when asked for (`run --json`)
  std::vector<std::string> warnings;   // e.g. an MVU slice violating the quantizer constraint
  bool energy_modelled = false;   // the platform has an energy section
  EnergyStats energy;             // sum of the layers' (each block's dynamic + leakage)
  Provenance provenance;          // filled by the CLI; empty in library use
  Calibration calibration;        // the platform's validation status; filled by the CLI (`run`)
};

}  // namespace edgesim
