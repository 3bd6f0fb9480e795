// PlatformSpec: the resolved, typed description of one edge-AI SoC, produced once by the
// strict YAML loader (loader.h) and then only read. It is the single source of hardware
// parameters for the compiler, the cost models and the simulator (docs/architecture.md): nothing
// else reads YAML.
//
// Field names mirror the dotted YAML keys exactly (`cluster.dma.bytes_per_cycle` is
// spec.cluster.dma.bytes_per_cycle); docs/platforms.md is the reference for every key, its
// unit and its meaning. Units after loading: sizes and addresses in bytes, frequencies in Hz,
// bandwidths in bytes per cycle of the component's clock, latencies and costs in cycles of the
// component's clock (the cluster clock unless stated).
//
// Optional sections (cluster, npu, mvu, budgets.dory, ...) carry `present`; their fields are
// meaningful only when it is true. Fields that apply to a single `impl` (e.g. npu.pe_k only for
// impl soma) hold their zero value for other implementations.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace edgesim {

// Sentinel of budget keys given as `auto` (= the size of that memory level).
inline constexpr int64_t kAutoBudget = -1;

struct EventUnitSpec {
  bool present = false;
  std::string impl;
  int64_t mutexes = 0, barriers = 0, semaphores = 0;
};

struct IcacheSpec {
  bool present = false;
  std::string impl;
  int64_t banks = 0;
  int64_t refill_latency = 0;
};

// Instruction-count constants of the PULP-NN-style kernel cost models (docs/timing.md).
struct ClusterCostSpec {
  bool present = false;
  int64_t c_il = 0, c_t42 = 0, c_il12 = 0, c_il11 = 0, c_rq = 0, c_kl = 0, c_grp = 0,
          c_call = 0, c_cp = 0, c_px = 0, c_dwrow = 0, c_dwpx = 0, c_neu = 0, c_pool = 0,
          c_add = 0, t_bar = 0, t_fork = 0, c_misalign = 0, c_transpose = 0, c_transpose_idx = 0;
  // extra cycles per requantised output when the requantisation helper is an out-of-line call
  // (a DORY build without -flto, budgets.dory.lto false; flow_platform() adds it to c_rq)
  int64_t c_rq_call = 0;
  // extra cycles per requantised output and per κ/λ read when the batch-norm coefficients are
  // 64-bit (a DORY build with budgets.dory.bn_bits 64; flow_platform() adds them to c_rq, c_kl)
  int64_t c_rq64 = 0, c_kl64 = 0;
  // κ/λ read again for the second pixel of a two-pixel matmul block (MM42): the first pixel's
  // uint8_t output store may alias them. flow_platform() adds c_kl64 with 64-bit coefficients
  // and sets it to 0 under a kernel library whose c_kl already counts a read per output.
  int64_t c_kl_px2 = 0;
  // A loop whose body calls a function is not a hardware loop (GCC's doloop pass refuses it):
  // its step and taken back-branch per iteration. flow_platform() adds it to c_grp (per matmul
  // block), c_px1 (per channel of a single pixel) and c_dwpx (per depthwise output) when the
  // requantisation is a call (lto false).
  int64_t c_loop_call = 0;
  // per output channel of the single leftover pixel's loop (PX1), besides its dot product,
  // requantisation and κ/λ (flow_platform() adds c_loop_call under the call)
  int64_t c_px1 = 0;
  // depthwise_generic: cycles per 4-tap step and per leftover tap of the dot product, and the
  // per-column overhead of a channel (defaults 3, 3, 0; the pulp_cluster preset counts them)
  int64_t c_dwtap4 = 3, c_dwtap1 = 3, c_dwcol = 0;
  // a layer's own generated code (tile loop, closures, kernel call) fetched cold once per layer,
  // on its first kernel: c_layer for a layer that calls a library kernel, c_layer_tr for a layout
  // Transpose, whose loop nest is generated inline (0: not modelled; docs/timing.md "Cold code")
  int64_t c_layer = 0, c_layer_tr = 0;
};

// The cluster kernel costs of the library a deployment flow links on this platform, where they
// differ from cluster.cost (budgets.deeploy.cost, docs/platforms.md): they replace those keys of
// cluster.cost for that flow only (flow_platform() in budgets.h).
struct KernelLibraryCostSpec {
  bool present = false;
  int64_t c_il = 0, c_rq = 0, c_kl = 0, c_cp = 0, c_dwrow = 0, c_dwpx = 0, c_dwtap4 = 0, c_dwtap1 = 0,
          c_dwcol = 0, c_layer = 0, c_layer_tr = 0;
};

// Cost constants of the RISC-V host's plain C loops (impl riscv_host): what TVM's C code
// generator emits for int8 layers, counted per loop iteration and per body (kernels/host/cost.h).
struct HostCostSpec {
  bool present = false;
  int64_t call = 0;                 // per kernel call (function call, argument unpacking)
  int64_t loop = 0;                 // per iteration of any loop level (index update, compare, branch)
  int64_t mac = 0;                  // per multiply-accumulate (two byte loads, mul, add)
  int64_t out = 0;                  // per output element of a layer (bias, shift, clip, cast, store)
  int64_t pad = 0;                  // per element of a conv's padded input copy
  int64_t elem = 0;                 // per element of an element-wise op (loads, op, clip, store)
};

struct DmaSpec {
  bool present = false;
  std::string impl;                 // mchan_v7 | simple_dma
  double bytes_per_cycle = 0;       // per direction
  int64_t burst_bytes = 0;
  int64_t max_outstanding = 0;      // bursts in flight per direction
  int64_t setup_cycles = 0;         // command hand-off to the engine (t_h)
  int64_t l2_latency = 0;           // external round trip, charged only with fidelity.dma_ext_latency
  // mchan_v7 only
  int64_t n_channels = 0, core_queue_depth = 0, global_queue_depth = 0, n_counters = 0;
  int64_t dims = 0, max_cmd_bytes = 0, cmd_words_1d = 0, cmd_words_2d = 0;
  int64_t id_cycles = 0, reg_cycles = 0, sw_cycles = 0, wake_cycles = 0;
};

struct ClusterSpec {
  bool present = false;
  std::string impl;                 // pulp_cluster | riscv_host
  int64_t n_cores = 0;
  int64_t n_pe_model = 0;           // processing elements a GVSoC-like model instantiates
  std::string isa;
  int64_t freq_hz = 0;
  EventUnitSpec event_unit;
  IcacheSpec icache;
  ClusterCostSpec cost;              // pulp_cluster
  HostCostSpec host_cost;            // riscv_host
  DmaSpec dma;
};

struct FcSpec {
  bool present = false;
  int64_t freq_hz = 0;
};

struct L1Spec {
  std::string impl;                 // tcdm | mvu_ram
  int64_t size = 0;
  int64_t banks = 0;
  int64_t bank_width_bytes = 0;
  int64_t interleave_bytes = 0;
  int64_t latency = 0;
  int64_t ports = 0;
};

struct L2Spec {
  std::string impl;                 // sram
  int64_t size = 0;
  int64_t latency_from_cluster = 0;
  double bw_bytes_per_cycle = 0;    // applied only with fidelity.l2_bw_cap
};

struct L3Spec {
  std::string impl;                 // hyperram_udma | ddr | none
  std::string type;
  int64_t size = 0;
  // hyperram_udma only (docs/timing.md)
  int64_t periph_freq_hz = 0;
  int64_t clkdiv = 0;
  int64_t access_latency = 0;       // peripheral cycles
  bool additional_latency = false;  // doubles access_latency
  int64_t cmd_bytes = 0;
  int64_t sw_cycles = 0;            // cluster cycles of driver cost per request
  int64_t bus_freq_hz = 0;          // realistic mode (fidelity.l3_ddr)
  double bus_bytes_per_cycle = 0;
  int64_t bus_latency = 0;          // bus cycles
  // ddr only
  double bw_bytes_per_cycle = 0;
  int64_t latency = 0;
};

struct WmemSpec {
  bool present = false;
  std::string impl;                 // neureka_wmem
  int64_t size = 0;
  int64_t window = 0;
  int64_t banks = 0;
  int64_t latency = 0;
  int64_t cycles_per_beat = 0;
};

// Extra scratch memories (DIANA's digital / analog weight L1).
struct ScratchSpec {
  bool present = false;
  int64_t size = 0;
  int64_t latency = 0;
  double bw_bytes_per_cycle = 0;
};

struct MemmapSpec {
  bool present = false;
  int64_t l1 = 0, cluster_periph = 0, wmem = 0, l2 = 0, soc_periph = 0;
};

struct NpuSpec {
  bool present = false;
  std::string impl;                 // neureka | ne16 | soma
  std::vector<std::string> ops;
  std::vector<int64_t> kernel_sizes, strides, w_bits, out_bits;
  int64_t act_bits = 0;
  int64_t cfg_cycles = 0;           // the controlling core's software per job (tile)
  int64_t layer_cycles = 0;         // ... and once per layer, on its first job (kernels/npu/program_cost.h)
  // neureka and ne16
  int64_t pe_h = 0, pe_w = 0, tp_in = 0, tp_out = 0, col_size = 0, in_buf_h = 0, in_buf_w = 0;
  int64_t port_bits = 0;
  // neureka
  int64_t tp_in_3x3 = 0, hci_max_stall = 0;
  double act_bw = 0, w_bw = 0;
  bool prefetch = false;
  // where NPU layers read their weights: "auto" (the weight memory when the platform has one,
  // else the TCDM), "wmem" (error without one) or "l1" (DMA'd into the TCDM like the cluster's)
  std::string weight_source;
  // ne16
  int64_t fifo_latency = 0, shifters = 0, adders = 0, multipliers = 0, scale_bits = 0;
  // soma
  int64_t pe_k = 0, pe_ox = 0, peak_mac_per_cycle = 0, pool_ox = 0, pool_fx = 0, pool_fy = 0;
  int64_t max_shift = 0;
  double add_elems_per_cycle = 0;
};

struct AimcSpec {
  bool present = false;
  std::string impl;                 // diana_aimc
  int64_t rows = 0, cols = 0, act_bits = 0, w_levels = 0, out_bits = 0;
  int64_t max_cin_3x3 = 0, mvm_cycles = 0;
  int64_t cfg_cycles = 0;           // per-job programming by the host (descriptor writes, start)
};

struct MvuSpec {
  bool present = false;
  std::string impl;                 // barvinn_mvu
  int64_t count = 0, n = 0, prec_min = 0, prec_max = 0, acc_bits = 0;
  int64_t w_ram_size = 0, w_ram_word_bits = 0, scaler_ram_size = 0, bias_ram_size = 0;
  int64_t pipe_cycles = 0, countdown_bits = 0, start_cycles = 0, done_cycles = 0;
  int64_t xbar_latency = 0;
  int64_t freq_hz = 0;
  std::string geometry;             // generator | exact (docs/timing.md)
};

struct CtrlSpec {
  bool present = false;
  std::string impl;                 // pito
  int64_t harts = 0, cpi = 0, imem_size = 0, dmem_size = 0, n_instr = 0, freq_hz = 0;
};

// DORY deployment constants; usable budgets derive from the memory sizes (budgets.h), or are
// given directly as DORY's --l1_buffer_size / --l2_buffer_size (l1, l2; kAutoBudget = derived).
struct DoryBudgetSpec {
  bool present = false;
  int64_t n_cores = 0;
  int64_t l1 = kAutoBudget, l2 = kAutoBudget;
  int64_t l1_reserved = 0, l1_stack_core0 = 0, l1_stack_other = 0;
  int64_t l2_reserved = 0, l2_code_reserved = 0, l3_reserved = 0;
  int64_t db = 0;
  bool blocking_dma = false, single_core_dma = false;
  // the generated application is linked with -flto (DORY's Makefile template): PULP-NN's
  // requantisation helpers are inlined; false: each requantised output calls one (c_rq_call)
  bool lto = true;
  // width of the batch-norm coefficients κ and λ in the generated code: 32 (DORY's default) or
  // 64 (int64_t κ/λ and PULP-NN's 64-bit requantisation helper): c_rq64 / c_kl64 per output
  int64_t bn_bits = 32;
};

// Deeploy deployment constants: absolute budgets (or kAutoBudget = the level's size).
struct DeeployBudgetSpec {
  bool present = false;
  int64_t l1 = 0, l2 = 0, l3 = 0, wmem = 0;
  int64_t n_cores = 0;
  // The output-patch extent Deeploy's NE16 pointwise tile rules align spatial tiles to
  // (compiler/tiler/ne16_deeploy.h): 3 from commit 9d78b4d8 on, 6 before it ([30]).
  int64_t ne16_pw_align = 3;
  KernelLibraryCostSpec cost;       // budgets.deeploy.cost: Deeploy's kernel library on this chip
};

struct BudgetsSpec {
  DoryBudgetSpec dory;
  DeeployBudgetSpec deeploy;
};

// Which effects the timing models add beyond the GVSoC assumptions (docs/platforms.md).
struct FidelitySpec {
  std::string mode;                 // gvsoc | realistic (defaults of the flags below)
  bool l1_conflicts = false, l2_bw_cap = false, dma_ext_latency = false,
       npu_hci_contention = false, l3_ddr = false, icache_misses = false;
};

// Energy model (docs/energy.md): picojoules per event, watts of leakage. The simulator charges
// them on the events it already simulates (sim/energy); a platform without the section reports
// no energy. Keys only for the blocks the platform has (bound to their `impl`).
struct MemEnergySpec {
  double read_per_byte = 0, write_per_byte = 0;   // pJ per byte read from / written to the level
  double leakage = 0;                             // W, while the run lasts
};

struct EnergySpec {
  bool present = false;
  MemEnergySpec l1, l2, l3, wmem;
  struct {
    double per_burst = 0, per_command = 0, leakage = 0;   // cluster DMA: pJ per burst, per command; W
  } dma;
  struct {
    double per_active_cycle = 0, per_idle_cycle = 0;      // pJ per core-cycle (busy / waiting)
    double per_mac = 0;                                   // pJ per int8 MAC beyond the core-cycle energy
    double leakage = 0;                                   // W
  } cluster;
  struct {
    double per_mac = 0, leakage = 0;                      // pJ per 8-bit MAC; W
  } npu;
  struct {
    double per_bit_mac = 0, leakage = 0;                  // pJ per 1-bit x 1-bit MAC (bit-serial); W
  } mvu;
};

struct PlatformSpec {
  std::string name;
  std::string description;
  // Engines that run layers, in preference order (`npu`, `mvu`, `cluster`); empty = the
  // platform's default order (engine_preference() in compiler/passes/assign_engine.h).
  std::vector<std::string> engines;
  // Provenance (not hashed): the files read, presets first and the platform file last, and
  // where each key's value came from ("siracusa.yaml:12", "--set", "default").
  std::vector<std::string> files;
  std::map<std::string, std::string> origin;
  // Keys given as `auto` (or defaulting to it), resolved at load time: key -> the hardware key
  // whose value they took (platforms/loader/derived.h). Not hashed (the resolved value is).
  std::map<std::string, std::string> follows;
  // Plausibility warnings (not errors): a frequency below 1 MHz, a memory size written with an SI
  // unit (64KB = 64,000 B) where sizes are natively binary. Not hashed.
  std::vector<std::string> warnings;
  ClusterSpec cluster;
  FcSpec fc;
  L1Spec l1;
  L2Spec l2;
  L3Spec l3;
  WmemSpec wmem;
  ScratchSpec l1_wdig, l1_wana;
  MemmapSpec memmap;
  NpuSpec npu;
  AimcSpec aimc;
  MvuSpec mvu;
  CtrlSpec ctrl;
  BudgetsSpec budgets;
  FidelitySpec fidelity;
  EnergySpec energy;
};

}  // namespace edgesim
