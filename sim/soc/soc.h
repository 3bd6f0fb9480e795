// Soc: the SystemC module tree of one platform, built from its PlatformSpec for one run
// (docs/architecture.md "Data flow today", docs/simulator.md). Each component is chosen by the YAML
// `impl:` of its section from the registry below; an implementation the simulator lacks is a
// SimError naming the key.
//
//   cluster (impl pulp_cluster)  --issue-->  cluster DMA (mchan_v7 | simple_dma) --TLM--> L1, L2
//                                            uDMA ("l3_dma")                     --TLM--> L3, L2
//   L1 (tcdm), L2 (sram), L3 (hyperram_udma | ddr): Memory targets over the run's level arrays
//   npu (neureka | ne16): jobs of Compute commands on engine "npu" (sim/npu/npu.h)
//   npu (soma), aimc (diana_aimc): DIANA's accelerators (sim/soma, sim/aimc); the cluster DMA
//   also reaches the level WMEM (DIANA's digital weight memory, sim/mem/scratch.h)
//   compute models: every registered engine the platform has (sim/engines/compute_model.h)
//   mvu (barvinn_mvu): the MVU array (sim/mvu/mvu_array.h); a platform without a cluster (BARVINN)
//   gets the array only (its slices read the L2 staging buffer in place)
//
// The modules must be destroyed before the SimContext that created them (declare the Soc after
// the context).
#pragma once
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "compiler/schedule/machine.h"
#include "platforms/loader/spec.h"
#include "sim/cluster/cluster.h"
#include "sim/dma/cluster_dma.h"
#include "sim/dma/udma.h"
#include "sim/mem/memory.h"
#include "sim/aimc/aimc.h"
#include "sim/mvu/mvu_array.h"
#include "sim/npu/npu.h"
#include "sim/soma/soma.h"
#include "sim/engines/compute_model.h"

namespace edgesim {

class SimError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Soc {
  std::unique_ptr<Memory> l1, l2, l3;
  std::unique_ptr<Memory> wmem;     // level WMEM (sim/mem/scratch.h), bound to the cluster DMA
  std::unique_ptr<Cluster> cluster;
  std::unique_ptr<ClusterDma> dma;
  std::unique_ptr<Udma> udma;
  std::unique_ptr<Npu> npu;         // npu.impl neureka | ne16
  std::unique_ptr<Soma> soma;       // npu.impl soma (DIANA's digital accelerator)
  std::unique_ptr<Aimc> aimc;       // aimc.impl diana_aimc (DIANA's analog core)
  std::unique_ptr<MvuArray> mvu;    // mvu.impl barvinn_mvu (BARVINN: no cluster, no L1 model)
  // The compute models of the engines this SoC has, by engine name (sim/engines/compute_model.h):
  // what the executor submits Compute commands to. Last, so destroyed first (they refer to the parts).
  std::map<std::string, std::unique_ptr<ComputeModel>> compute;
};

// `levels` supplies the storage of L1, L2 and L3 (sized to the schedule's high-water marks).
// `workers`: the cores kernels run on; `sizes`: the bytes of each level (storage may be empty
// in timing-only runs).
Soc build_soc(const PlatformSpec& p, std::array<std::vector<std::byte>*, 4> levels, std::array<int64_t, 4> sizes,
              JobListener& listener, int64_t workers);

// "kind: impl, impl, ..." lines of what the simulator implements (for `edgesim describe`).
std::vector<std::string> simulator_components();

}  // namespace edgesim
