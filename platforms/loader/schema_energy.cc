// Schema table, part 4: the energy model (docs/energy.md). Energies are in picojoules per the
// event the key names, leakage powers in watts. Every key of a block the platform has is
// required once the `energy` section is present (a value is cited or marked as an assumption in
// the platform file); the keys of a block the platform lacks are errors (bound to its `impl`).
#include "platforms/loader/schema.h"

namespace edgesim::schema {

void add_energy_keys(std::vector<KeyDef>& k) {
  k.push_back(K_REQ(energy.l1.read_per_byte, Energy));
  k.push_back(K_REQ(energy.l1.write_per_byte, Energy));
  k.push_back(K_REQ(energy.l1.leakage, Power));
  k.push_back(K_REQ(energy.l2.read_per_byte, Energy));
  k.push_back(K_REQ(energy.l2.write_per_byte, Energy));
  k.push_back(K_REQ(energy.l2.leakage, Power));
  const std::vector<std::string> l3{"hyperram_udma", "ddr"};
  k.push_back(K_REQ(energy.l3.read_per_byte, Energy).only("l3.impl", l3));
  k.push_back(K_REQ(energy.l3.write_per_byte, Energy).only("l3.impl", l3));
  k.push_back(K_REQ(energy.l3.leakage, Power).only("l3.impl", l3));
  const std::vector<std::string> wmem{"neureka_wmem"};
  k.push_back(K_REQ(energy.wmem.read_per_byte, Energy).only("wmem.impl", wmem));
  k.push_back(K_REQ(energy.wmem.write_per_byte, Energy).only("wmem.impl", wmem));
  k.push_back(K_REQ(energy.wmem.leakage, Power).only("wmem.impl", wmem));
  const std::vector<std::string> dma{"mchan_v7", "simple_dma"};
  k.push_back(K_REQ(energy.dma.per_burst, Energy).only("cluster.dma.impl", dma));
  k.push_back(K_REQ(energy.dma.per_command, Energy).only("cluster.dma.impl", dma));
  k.push_back(K_REQ(energy.dma.leakage, Power).only("cluster.dma.impl", dma));
  const std::vector<std::string> cluster{"pulp_cluster", "riscv_host"};
  k.push_back(K_REQ(energy.cluster.per_active_cycle, Energy).only("cluster.impl", cluster));
  k.push_back(K_REQ(energy.cluster.per_idle_cycle, Energy).only("cluster.impl", cluster));
  k.push_back(K_REQ(energy.cluster.per_mac, Energy).only("cluster.impl", cluster));
  k.push_back(K_REQ(energy.cluster.leakage, Power).only("cluster.impl", cluster));
  const std::vector<std::string> npu{"neureka", "ne16", "soma"};
  k.push_back(K_REQ(energy.npu.per_mac, Energy).only("npu.impl", npu));
  k.push_back(K_REQ(energy.npu.leakage, Power).only("npu.impl", npu));
  const std::vector<std::string> mvu{"barvinn_mvu"};
  k.push_back(K_REQ(energy.mvu.per_bit_mac, Energy).only("mvu.impl", mvu));
  k.push_back(K_REQ(energy.mvu.leakage, Power).only("mvu.impl", mvu));
}

}  // namespace edgesim::schema
