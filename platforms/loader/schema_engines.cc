// Schema table, part 2: accelerators (NPU, analog in-memory core, BARVINN MVUs and their
// controller), deployment budgets and the fidelity switches. Meanings and units of every key:
// docs/platforms.md.
#include "platforms/loader/schema.h"

namespace edgesim::schema {

void add_engine_keys(std::vector<KeyDef>& k) {
  const std::vector<std::string> nn{"neureka", "ne16"}, neu{"neureka"}, ne16{"ne16"},
      soma{"soma"};
  k.push_back(K_REQ(npu.impl, String).one_of({"neureka", "ne16", "soma"}));
  k.push_back(K_REQ(npu.ops, StrList)
                  .one_of({"conv1x1", "conv3x3", "dw3x3", "conv", "dwconv", "dense", "add",
                           "pool"}));
  k.push_back(K_REQ(npu.kernel_sizes, IntList));
  k.push_back(K_REQ(npu.strides, IntList));
  k.push_back(K_REQ(npu.act_bits, Int));
  k.push_back(K_REQ(npu.w_bits, IntList));
  k.push_back(K_REQ(npu.out_bits, IntList));
  k.push_back(K_REQ(npu.cfg_cycles, Cycles));
  k.push_back(K_OPT(npu.layer_cycles, Cycles, "0"));
  k.push_back(K_REQ(npu.pe_h, Int).only("npu.impl", nn));
  k.push_back(K_REQ(npu.pe_w, Int).only("npu.impl", nn));
  k.push_back(K_REQ(npu.tp_in, Int).only("npu.impl", nn));
  k.push_back(K_REQ(npu.tp_out, Int).only("npu.impl", nn));
  k.push_back(K_REQ(npu.col_size, Int).only("npu.impl", nn));
  k.push_back(K_REQ(npu.in_buf_h, Int).only("npu.impl", nn));
  k.push_back(K_REQ(npu.in_buf_w, Int).only("npu.impl", nn));
  k.push_back(K_REQ(npu.port_bits, Int).only("npu.impl", nn));
  k.push_back(K_REQ(npu.tp_in_3x3, Int).only("npu.impl", neu));
  k.push_back(K_REQ(npu.hci_max_stall, Cycles).only("npu.impl", neu));
  k.push_back(K_REQ(npu.act_bw, Bandwidth).only("npu.impl", neu));
  k.push_back(K_REQ(npu.w_bw, Bandwidth).only("npu.impl", neu));
  k.push_back(K_REQ(npu.prefetch, Bool).only("npu.impl", neu));
  k.push_back(K_OPT(npu.weight_source, String, "auto").one_of({"auto", "wmem", "l1"}).only("npu.impl", nn));
  k.push_back(K_REQ(npu.fifo_latency, Cycles).only("npu.impl", ne16));
  k.push_back(K_REQ(npu.shifters, Int).only("npu.impl", ne16));
  k.push_back(K_REQ(npu.adders, Int).only("npu.impl", ne16));
  k.push_back(K_REQ(npu.multipliers, Int).only("npu.impl", ne16));
  k.push_back(K_REQ(npu.scale_bits, Int).only("npu.impl", ne16));
  k.push_back(K_REQ(npu.pe_k, Int).only("npu.impl", soma));
  k.push_back(K_REQ(npu.pe_ox, Int).only("npu.impl", soma));
  k.push_back(K_REQ(npu.peak_mac_per_cycle, Int).only("npu.impl", soma));
  k.push_back(K_REQ(npu.pool_ox, Int).only("npu.impl", soma));
  k.push_back(K_REQ(npu.pool_fx, Int).only("npu.impl", soma));
  k.push_back(K_REQ(npu.pool_fy, Int).only("npu.impl", soma));
  k.push_back(K_REQ(npu.max_shift, Int).only("npu.impl", soma));
  k.push_back(K_REQ(npu.add_elems_per_cycle, Real).only("npu.impl", soma));

  k.push_back(K_REQ(aimc.impl, String).one_of({"diana_aimc"}));
  k.push_back(K_REQ(aimc.rows, Int));
  k.push_back(K_REQ(aimc.cols, Int));
  k.push_back(K_REQ(aimc.act_bits, Int));
  k.push_back(K_REQ(aimc.w_levels, Int));
  k.push_back(K_REQ(aimc.out_bits, Int));
  k.push_back(K_REQ(aimc.max_cin_3x3, Int));
  k.push_back(K_REQ(aimc.mvm_cycles, Cycles));
  k.push_back(K_REQ(aimc.cfg_cycles, Cycles));

  k.push_back(K_REQ(mvu.impl, String).one_of({"barvinn_mvu"}));
  k.push_back(K_REQ(mvu.count, Int));
  k.push_back(K_REQ(mvu.n, Int));
  k.push_back(K_REQ(mvu.prec_min, Int));
  k.push_back(K_REQ(mvu.prec_max, Int));
  k.push_back(K_REQ(mvu.acc_bits, Int));
  k.push_back(K_REQ(mvu.w_ram_size, Size));
  k.push_back(K_REQ(mvu.w_ram_word_bits, Int));
  k.push_back(K_REQ(mvu.scaler_ram_size, Size));
  k.push_back(K_REQ(mvu.bias_ram_size, Size));
  k.push_back(K_REQ(mvu.pipe_cycles, Cycles));
  k.push_back(K_REQ(mvu.countdown_bits, Int));
  k.push_back(K_REQ(mvu.start_cycles, Cycles));
  k.push_back(K_REQ(mvu.done_cycles, Cycles));
  k.push_back(K_REQ(mvu.xbar_latency, Cycles));
  k.push_back(K_REQ(mvu.freq_hz, Freq));
  k.push_back(K_OPT(mvu.geometry, String, "generator").one_of({"generator", "exact"}));

  k.push_back(K_REQ(ctrl.impl, String).one_of({"pito"}));
  k.push_back(K_REQ(ctrl.harts, Int));
  k.push_back(K_REQ(ctrl.cpi, Int));
  k.push_back(K_REQ(ctrl.imem_size, Size));
  k.push_back(K_REQ(ctrl.dmem_size, Size));
  k.push_back(K_REQ(ctrl.n_instr, Int));
  k.push_back(K_REQ(ctrl.freq_hz, Freq));
}

void add_budget_keys(std::vector<KeyDef>& k) {
  k.push_back(K_OPT(budgets.dory.n_cores, Int, "auto").follows("cluster.n_cores"));
  // DORY's --l1_buffer_size / --l2_buffer_size as given (stacks excluded); auto: derived (budgets.h)
  k.push_back(K_OPT(budgets.dory.l1, SizeOrAuto, "auto"));
  k.push_back(K_OPT(budgets.dory.l2, SizeOrAuto, "auto"));
  k.push_back(K_OPT(budgets.dory.l1_reserved, Size, "0"));
  k.push_back(K_REQ(budgets.dory.l1_stack_core0, Size));
  k.push_back(K_REQ(budgets.dory.l1_stack_other, Size));
  k.push_back(K_OPT(budgets.dory.l2_reserved, Size, "0"));
  k.push_back(K_REQ(budgets.dory.l2_code_reserved, Size));
  k.push_back(K_OPT(budgets.dory.l3_reserved, Size, "0"));
  k.push_back(K_REQ(budgets.dory.db, Int));
  k.push_back(K_OPT(budgets.dory.blocking_dma, Bool, "false"));
  k.push_back(K_OPT(budgets.dory.single_core_dma, Bool, "false"));
  k.push_back(K_OPT(budgets.dory.lto, Bool, "true"));
  k.push_back(K_OPT(budgets.dory.bn_bits, Int, "32"));

  k.push_back(K_REQ(budgets.deeploy.l1, SizeOrAuto));
  k.push_back(K_REQ(budgets.deeploy.l2, SizeOrAuto));
  k.push_back(K_REQ(budgets.deeploy.l3, SizeOrAuto));
  k.push_back(K_OPT(budgets.deeploy.wmem, SizeOrAuto, "0"));
  k.push_back(K_OPT(budgets.deeploy.n_cores, Int, "auto").follows("cluster.n_cores"));
  k.push_back(K_OPT(budgets.deeploy.ne16_pw_align, Int, "3").only("npu.impl", {"ne16"}));
  // Deeploy's cluster kernel library on this platform, where its costs differ from cluster.cost
  k.push_back(K_REQ(budgets.deeploy.cost.c_il, Cycles));
  k.push_back(K_REQ(budgets.deeploy.cost.c_rq, Cycles));
  k.push_back(K_REQ(budgets.deeploy.cost.c_kl, Cycles));
  k.push_back(K_REQ(budgets.deeploy.cost.c_cp, Cycles));
  k.push_back(K_REQ(budgets.deeploy.cost.c_dwrow, Cycles));
  k.push_back(K_REQ(budgets.deeploy.cost.c_dwpx, Cycles));
  k.push_back(K_REQ(budgets.deeploy.cost.c_dwtap4, Cycles));
  k.push_back(K_REQ(budgets.deeploy.cost.c_dwtap1, Cycles));
  k.push_back(K_REQ(budgets.deeploy.cost.c_dwcol, Cycles));
  k.push_back(K_OPT(budgets.deeploy.cost.c_layer, Cycles, "0"));
  k.push_back(K_OPT(budgets.deeploy.cost.c_layer_tr, Cycles, "0"));

  k.push_back(K_OPT(fidelity.mode, String, "gvsoc").one_of({"gvsoc", "realistic"}));
  k.push_back(K_OPT(fidelity.l1_conflicts, Bool, "@mode"));
  k.push_back(K_OPT(fidelity.l2_bw_cap, Bool, "@mode"));
  k.push_back(K_OPT(fidelity.dma_ext_latency, Bool, "@mode"));
  k.push_back(K_OPT(fidelity.npu_hci_contention, Bool, "@mode"));
  k.push_back(K_OPT(fidelity.l3_ddr, Bool, "@mode"));
  k.push_back(K_OPT(fidelity.icache_misses, Bool, "@mode"));
}

}  // namespace edgesim::schema
