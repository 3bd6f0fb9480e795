// Schema table, part 1: top level, the compute cluster (cores, event unit, I-cache, kernel cost
// constants, cluster DMA), the fabric controller and the memory hierarchy. Meanings and units of
// every key: docs/platforms.md; hardware values and their sources: platforms/*.yaml.
#include "platforms/loader/engine_names.h"
#include "platforms/loader/schema.h"

namespace edgesim::schema {

namespace {

// The top level and the cluster's cores, event unit and instruction cache.
void add_core_keys(std::vector<KeyDef>& k) {
  k.push_back(K_REQ(name, String));
  k.push_back(K_OPT(description, String, ""));
  k.push_back(K_OPT(engines, StrList, "").one_of(engine_list_names));

  // cluster: the programmable cores that run software kernels
  k.push_back(K_REQ(cluster.impl, String).one_of({"pulp_cluster", "riscv_host"}));
  k.push_back(K_REQ(cluster.n_cores, Int));
  k.push_back(K_OPT(cluster.n_pe_model, Int, "0"));
  k.push_back(K_OPT(cluster.isa, String, ""));
  k.push_back(K_REQ(cluster.freq_hz, Freq));

  k.push_back(K_REQ(cluster.event_unit.impl, String).one_of({"eu_v4"}));
  k.push_back(K_REQ(cluster.event_unit.mutexes, Int));
  k.push_back(K_REQ(cluster.event_unit.barriers, Int));
  k.push_back(K_REQ(cluster.event_unit.semaphores, Int));

  k.push_back(K_REQ(cluster.icache.impl, String).one_of({"pulp_hier_icache"}));
  k.push_back(K_REQ(cluster.icache.banks, Int));
  k.push_back(K_REQ(cluster.icache.refill_latency, Cycles));
}

// The cost constants of the cluster's kernels: PULP-NN's on a PULP cluster, plain C on a RISC-V host.
void add_kernel_cost_keys(std::vector<KeyDef>& k) {
  // PULP-NN-style kernel cost constants (docs/timing.md "The instruction count")
  const std::vector<std::string> pulp{"pulp_cluster"}, host{"riscv_host"};
  k.push_back(K_REQ(cluster.cost.c_il, Cycles).only("cluster.impl", pulp));
  k.push_back(K_REQ(cluster.cost.c_t42, Cycles).only("cluster.impl", pulp));
  k.push_back(K_REQ(cluster.cost.c_il12, Cycles).only("cluster.impl", pulp));
  k.push_back(K_REQ(cluster.cost.c_il11, Cycles).only("cluster.impl", pulp));
  k.push_back(K_REQ(cluster.cost.c_rq, Cycles).only("cluster.impl", pulp));
  k.push_back(K_REQ(cluster.cost.c_kl, Cycles).only("cluster.impl", pulp));
  k.push_back(K_OPT(cluster.cost.c_rq_call, Cycles, "0").only("cluster.impl", pulp));
  k.push_back(K_OPT(cluster.cost.c_loop_call, Cycles, "0").only("cluster.impl", pulp));
  k.push_back(K_OPT(cluster.cost.c_kl_px2, Cycles, "0").only("cluster.impl", pulp));
  k.push_back(K_OPT(cluster.cost.c_px1, Cycles, "0").only("cluster.impl", pulp));
  k.push_back(K_OPT(cluster.cost.c_rq64, Cycles, "0").only("cluster.impl", pulp));
  k.push_back(K_OPT(cluster.cost.c_kl64, Cycles, "0").only("cluster.impl", pulp));
  k.push_back(K_REQ(cluster.cost.c_grp, Cycles).only("cluster.impl", pulp));
  k.push_back(K_REQ(cluster.cost.c_call, Cycles).only("cluster.impl", pulp));
  k.push_back(K_REQ(cluster.cost.c_cp, Cycles).only("cluster.impl", pulp));
  k.push_back(K_REQ(cluster.cost.c_px, Cycles).only("cluster.impl", pulp));
  k.push_back(K_REQ(cluster.cost.c_dwrow, Cycles).only("cluster.impl", pulp));
  k.push_back(K_REQ(cluster.cost.c_dwpx, Cycles).only("cluster.impl", pulp));
  k.push_back(K_OPT(cluster.cost.c_dwtap4, Cycles, "3").only("cluster.impl", pulp));
  k.push_back(K_OPT(cluster.cost.c_dwtap1, Cycles, "3").only("cluster.impl", pulp));
  k.push_back(K_OPT(cluster.cost.c_dwcol, Cycles, "0").only("cluster.impl", pulp));
  k.push_back(K_OPT(cluster.cost.c_layer, Cycles, "0").only("cluster.impl", pulp));
  k.push_back(K_OPT(cluster.cost.c_layer_tr, Cycles, "0").only("cluster.impl", pulp));
  k.push_back(K_REQ(cluster.cost.c_misalign, Cycles).only("cluster.impl", pulp));
  k.push_back(K_REQ(cluster.cost.c_neu, Cycles).only("cluster.impl", pulp));
  k.push_back(K_REQ(cluster.cost.c_pool, Cycles).only("cluster.impl", pulp));
  k.push_back(K_REQ(cluster.cost.c_add, Cycles).only("cluster.impl", pulp));
  k.push_back(K_REQ(cluster.cost.c_transpose, Cycles).only("cluster.impl", pulp));
  k.push_back(K_REQ(cluster.cost.c_transpose_idx, Cycles).only("cluster.impl", pulp));
  k.push_back(K_REQ(cluster.cost.t_bar, Cycles).only("cluster.impl", pulp));
  k.push_back(K_REQ(cluster.cost.t_fork, Cycles).only("cluster.impl", pulp));

  // the RISC-V host's plain C loops (kernels/host/cost.h)
  k.push_back(K_REQ(cluster.host_cost.call, Cycles).only("cluster.impl", host));
  k.push_back(K_REQ(cluster.host_cost.loop, Cycles).only("cluster.impl", host));
  k.push_back(K_REQ(cluster.host_cost.mac, Cycles).only("cluster.impl", host));
  k.push_back(K_REQ(cluster.host_cost.out, Cycles).only("cluster.impl", host));
  k.push_back(K_REQ(cluster.host_cost.pad, Cycles).only("cluster.impl", host));
  k.push_back(K_REQ(cluster.host_cost.elem, Cycles).only("cluster.impl", host));
}

// The cluster DMA and the fabric controller.
void add_cluster_dma_keys(std::vector<KeyDef>& k) {
  // cluster DMA (docs/timing.md "DMA and L3 timing")
  const std::vector<std::string> mchan{"mchan_v7"};
  k.push_back(K_REQ(cluster.dma.impl, String).one_of({"mchan_v7", "simple_dma"}));
  k.push_back(K_REQ(cluster.dma.bytes_per_cycle, Bandwidth));
  k.push_back(K_REQ(cluster.dma.burst_bytes, Size));
  k.push_back(K_REQ(cluster.dma.max_outstanding, Int));
  k.push_back(K_REQ(cluster.dma.setup_cycles, Cycles));
  k.push_back(K_OPT(cluster.dma.l2_latency, Cycles, "auto").follows("l2.latency_from_cluster"));
  k.push_back(K_REQ(cluster.dma.n_channels, Int).only("cluster.dma.impl", mchan));
  k.push_back(K_REQ(cluster.dma.core_queue_depth, Int).only("cluster.dma.impl", mchan));
  k.push_back(K_REQ(cluster.dma.global_queue_depth, Int).only("cluster.dma.impl", mchan));
  k.push_back(K_REQ(cluster.dma.n_counters, Int).only("cluster.dma.impl", mchan));
  k.push_back(K_REQ(cluster.dma.dims, Int).only("cluster.dma.impl", mchan));
  k.push_back(K_REQ(cluster.dma.max_cmd_bytes, Size).only("cluster.dma.impl", mchan));
  k.push_back(K_REQ(cluster.dma.cmd_words_1d, Int).only("cluster.dma.impl", mchan));
  k.push_back(K_REQ(cluster.dma.cmd_words_2d, Int).only("cluster.dma.impl", mchan));
  k.push_back(K_REQ(cluster.dma.id_cycles, Cycles).only("cluster.dma.impl", mchan));
  k.push_back(K_REQ(cluster.dma.reg_cycles, Cycles).only("cluster.dma.impl", mchan));
  k.push_back(K_REQ(cluster.dma.sw_cycles, Cycles).only("cluster.dma.impl", mchan));
  k.push_back(K_REQ(cluster.dma.wake_cycles, Cycles).only("cluster.dma.impl", mchan));

  k.push_back(K_REQ(fc.freq_hz, Freq));
}

// The memory hierarchy.
void add_memory_keys(std::vector<KeyDef>& k) {
  // memories
  k.push_back(K_REQ(l1.impl, String).one_of({"tcdm", "mvu_ram"}));
  k.push_back(K_REQ(l1.size, Size));
  k.push_back(K_REQ(l1.banks, Int));
  k.push_back(K_REQ(l1.bank_width_bytes, Size));
  k.push_back(K_REQ(l1.interleave_bytes, Size));
  k.push_back(K_REQ(l1.latency, Cycles));
  k.push_back(K_REQ(l1.ports, Int));

  k.push_back(K_REQ(l2.impl, String).one_of({"sram"}));
  k.push_back(K_REQ(l2.size, Size));
  k.push_back(K_REQ(l2.latency_from_cluster, Cycles));
  k.push_back(K_REQ(l2.bw_bytes_per_cycle, Bandwidth));

  const std::vector<std::string> hyper{"hyperram_udma"}, ddr{"ddr"};
  k.push_back(K_REQ(l3.impl, String).one_of({"hyperram_udma", "ddr", "none"}));
  k.push_back(K_OPT(l3.type, String, ""));
  k.push_back(K_REQ(l3.size, Size));
  k.push_back(K_REQ(l3.periph_freq_hz, Freq).only("l3.impl", hyper));
  k.push_back(K_REQ(l3.clkdiv, Int).only("l3.impl", hyper));
  k.push_back(K_REQ(l3.access_latency, Cycles).only("l3.impl", hyper));
  k.push_back(K_REQ(l3.additional_latency, Bool).only("l3.impl", hyper));
  k.push_back(K_REQ(l3.cmd_bytes, Size).only("l3.impl", hyper));
  k.push_back(K_REQ(l3.sw_cycles, Cycles).only("l3.impl", hyper));
  k.push_back(K_REQ(l3.bus_freq_hz, Freq).only("l3.impl", hyper));
  k.push_back(K_REQ(l3.bus_bytes_per_cycle, Bandwidth).only("l3.impl", hyper));
  k.push_back(K_REQ(l3.bus_latency, Cycles).only("l3.impl", hyper));
  k.push_back(K_REQ(l3.bw_bytes_per_cycle, Bandwidth).only("l3.impl", ddr));
  k.push_back(K_REQ(l3.latency, Cycles).only("l3.impl", ddr));

  k.push_back(K_REQ(wmem.impl, String).one_of({"neureka_wmem"}));
  k.push_back(K_REQ(wmem.size, Size));
  k.push_back(K_OPT(wmem.window, Size, "0"));
  k.push_back(K_REQ(wmem.banks, Int));
  k.push_back(K_REQ(wmem.latency, Cycles));
  k.push_back(K_REQ(wmem.cycles_per_beat, Cycles));

  k.push_back(K_REQ(l1_wdig.size, Size));
  k.push_back(K_REQ(l1_wdig.latency, Cycles));
  k.push_back(K_REQ(l1_wdig.bw_bytes_per_cycle, Bandwidth));
  k.push_back(K_REQ(l1_wana.size, Size));
  k.push_back(K_REQ(l1_wana.latency, Cycles));
  k.push_back(K_REQ(l1_wana.bw_bytes_per_cycle, Bandwidth));

  k.push_back(K_OPT(memmap.l1, Address, "0"));
  k.push_back(K_OPT(memmap.cluster_periph, Address, "0"));
  k.push_back(K_OPT(memmap.wmem, Address, "0"));
  k.push_back(K_OPT(memmap.l2, Address, "0"));
  k.push_back(K_OPT(memmap.soc_periph, Address, "0"));
}

}  // namespace

void add_soc_keys(std::vector<KeyDef>& k) {
  add_core_keys(k);
  add_kernel_cost_keys(k);
  add_cluster_dma_keys(k);
  add_memory_keys(k);
}

}  // namespace edgesim::schema
