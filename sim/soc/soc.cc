// build_soc (soc.h): the registry of component implementations by `impl:` name.
#include "sim/soc/soc.h"

#include <functional>
#include <map>

#include "sim/mem/hyperram.h"
#include "sim/mem/scratch.h"
#include "sim/mem/sram.h"
#include "sim/mem/tcdm.h"

namespace edgesim {

namespace {

using MemoryFactory =
    std::function<std::unique_ptr<Memory>(const char*, std::vector<std::byte>&, int64_t, const PlatformSpec&)>;

template <class T>
MemoryFactory make() {
  return [](const char* n, std::vector<std::byte>& s, int64_t size, const PlatformSpec& p) {
    return std::make_unique<T>(n, s, size, p);
  };
}

const std::map<std::string, MemoryFactory>& l1_impls() {
  static const std::map<std::string, MemoryFactory> m{{"tcdm", make<Tcdm>()}};
  return m;
}
const std::map<std::string, MemoryFactory>& l2_impls() {
  static const std::map<std::string, MemoryFactory> m{{"sram", make<Sram>()}};
  return m;
}
const std::map<std::string, MemoryFactory>& l3_impls() {
  static const std::map<std::string, MemoryFactory> m{{"hyperram_udma", make<HyperRam>()}, {"ddr", make<HyperRam>()}};
  return m;
}
const std::vector<std::string>& cluster_impls() {
  static const std::vector<std::string> v{"pulp_cluster", "riscv_host"};
  return v;
}
const std::vector<std::string>& npu_impls() {
  static const std::vector<std::string> v{"neureka", "ne16"};
  return v;
}
const std::vector<std::string>& dma_impls() {
  static const std::vector<std::string> v{"mchan_v7", "simple_dma"};
  return v;
}

template <class Map>
std::string names(const Map& m) {
  std::string s;
  for (const auto& [k, v] : m) s += (s.empty() ? "" : ", ") + k;
  return s;
}
std::string names(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& k : v) s += (s.empty() ? "" : ", ") + k;
  return s;
}

std::unique_ptr<Memory> memory(const std::map<std::string, MemoryFactory>& reg, const std::string& key,
                               const std::string& impl, const char* name, std::vector<std::byte>& storage,
                               int64_t size, const PlatformSpec& p) {
  const auto it = reg.find(impl);
  if (it == reg.end())
    throw SimError("platform " + p.name + ": " + key + " '" + impl + "' is not implemented by the simulator (has: " +
                   names(reg) + ")");
  return it->second(name, storage, size, p);
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
  for (const auto& x : v)
    if (x == s) return true;
  return false;
}

}  // namespace

Soc build_soc(const PlatformSpec& p, std::array<std::vector<std::byte>*, 4> levels, std::array<int64_t, 4> sizes,
              JobListener& listener, int64_t workers) {
  if (!p.cluster.present) {
    if (!p.mvu.present || p.mvu.impl != "barvinn_mvu")
      throw SimError("platform " + p.name + " has neither a cluster nor an MVU array the simulator implements");
    Soc s;   // the MVUs read the L2 staging buffer in place: no memory component is needed
    s.mvu = std::make_unique<MvuArray>("mvu", listener, p);
    s.compute = build_compute_models(s, p, listener);
    return s;
  }
  if (!contains(cluster_impls(), p.cluster.impl))
    throw SimError("platform " + p.name + ": cluster.impl '" + p.cluster.impl +
                   "' is not implemented by the simulator (has: " + names(cluster_impls()) + ")");
  if (p.cluster.impl == "pulp_cluster" && !p.cluster.cost.present)
    throw SimError("platform " + p.name + ": cluster.cost is missing (kernel cost model)");
  if (p.cluster.impl == "riscv_host" && !p.cluster.host_cost.present)
    throw SimError("platform " + p.name + ": cluster.host_cost is missing (host loop cost model)");
  if (!p.cluster.dma.present || !contains(dma_impls(), p.cluster.dma.impl))
    throw SimError("platform " + p.name + ": cluster.dma.impl '" + p.cluster.dma.impl +
                   "' is not implemented by the simulator (has: " + names(dma_impls()) + ")");
  Soc s;
  s.l1 = memory(l1_impls(), "l1.impl", p.l1.impl, "l1", *levels[static_cast<size_t>(Level::L1)],
                  sizes[static_cast<size_t>(Level::L1)], p);
  s.l2 = memory(l2_impls(), "l2.impl", p.l2.impl, "l2", *levels[static_cast<size_t>(Level::L2)],
                  sizes[static_cast<size_t>(Level::L2)], p);
  const bool has_l3 = p.l3.impl != "none" && p.l3.size > 0;
  if (has_l3) s.l3 = memory(l3_impls(), "l3.impl", p.l3.impl, "l3", *levels[static_cast<size_t>(Level::L3)],
                  sizes[static_cast<size_t>(Level::L3)], p);
  s.cluster = std::make_unique<Cluster>("cluster", listener, p, workers);
  s.dma = std::make_unique<ClusterDma>("cluster_dma", listener, p);
  s.wmem = std::make_unique<Scratch>("wmem", *levels[static_cast<size_t>(Level::WMEM)],
                                     sizes[static_cast<size_t>(Level::WMEM)], p);
  s.dma->l1.bind(s.l1->socket);
  s.dma->l2.bind(s.l2->socket);
  s.dma->wmem.bind(s.wmem->socket);
  if (has_l3) {
    s.udma = std::make_unique<Udma>("udma", listener, p);
    s.udma->l3.bind(s.l3->socket);
    s.udma->l2.bind(s.l2->socket);
  }
  if (p.npu.present && contains(npu_impls(), p.npu.impl)) s.npu = std::make_unique<Npu>("npu", listener, p);
  if (p.npu.present && p.npu.impl == "soma") s.soma = std::make_unique<Soma>("soma", listener, p);
  if (p.aimc.present && p.aimc.impl == "diana_aimc") s.aimc = std::make_unique<Aimc>("aimc", listener, p);
  s.compute = build_compute_models(s, p, listener);
  return s;
}

std::vector<std::string> simulator_components() {
  return {"cluster.impl: " + names(cluster_impls()), "cluster.dma.impl: " + names(dma_impls()),
          "l1.impl: " + names(l1_impls()), "l2.impl: " + names(l2_impls()), "l3.impl: " + names(l3_impls()),
          "npu.impl: " + names(npu_impls()) + ", soma", "aimc.impl: diana_aimc", "mvu.impl: barvinn_mvu"};
}

}  // namespace edgesim
