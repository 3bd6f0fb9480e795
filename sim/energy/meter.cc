// EnergyMeter (meter.h).
#include "sim/energy/meter.h"

#include <algorithm>

#include "kernels/energy/cost.h"

namespace edgesim {

EnergyMeter::EnergyMeter(const PlatformSpec& p, int64_t workers, size_t layers)
    : e_(p.energy), workers_(std::max<int64_t>(0, workers)), layers_(layers), busy_(layers, 0) {
  has_cluster_ = p.cluster.present;
  has_dma_ = p.cluster.present && p.cluster.dma.present;
  has_npu_ = p.npu.present;
  has_mvu_ = p.mvu.present;
  has_l3_ = !p.l3.impl.empty() && p.l3.impl != "none" && p.l3.size > 0;
  has_wmem_ = p.wmem.present;
}

const MemEnergySpec& EnergyMeter::level(Level l) const {
  switch (l) {
    case Level::L1: return e_.l1;
    case Level::L2: return e_.l2;
    case Level::L3: return e_.l3;
    case Level::WMEM: return e_.wmem;
  }
  return e_.l2;
}

const char* EnergyMeter::block(Level l) {
  switch (l) {
    case Level::L1: return "l1";
    case Level::L2: return "l2";
    case Level::L3: return "l3";
    case Level::WMEM: return "wmem";
  }
  return "l2";
}

void EnergyMeter::add(int layer, const char* blk, double pj) {
  if (!enabled() || layer < 0 || static_cast<size_t>(layer) >= layers_.size()) return;
  layers_[static_cast<size_t>(layer)].dynamic_pj[blk] += pj;
}

void EnergyMeter::transfer(int layer, Level src, Level dst, int64_t bytes, int64_t bursts, int64_t commands) {
  add(layer, block(src), read_energy_pj(level(src), bytes));
  add(layer, block(dst), write_energy_pj(level(dst), bytes));
  add(layer, "dma", dma_overhead_pj(e_, bursts, commands));
}

void EnergyMeter::l3_transfer(int layer, Level src, Level dst, int64_t bytes) {
  add(layer, block(src), read_energy_pj(level(src), bytes));
  add(layer, block(dst), write_energy_pj(level(dst), bytes));
}

void EnergyMeter::cluster_job(int layer, const std::vector<int64_t>& core_cycles, int64_t macs) {
  int64_t busy = 0;
  for (int64_t c : core_cycles) busy += std::max<int64_t>(0, c);
  if (layer >= 0 && static_cast<size_t>(layer) < busy_.size()) busy_[static_cast<size_t>(layer)] += busy;
  add(layer, "cluster", core_energy_pj(e_, busy, 0, macs));
}

void EnergyMeter::npu_job(int layer, int64_t macs, const std::vector<std::pair<Level, int64_t>>& reads,
                          const std::vector<std::pair<Level, int64_t>>& writes) {
  add(layer, "npu", npu_mac_energy_pj(e_, macs));
  for (const auto& [l, b] : reads) add(layer, block(l), read_energy_pj(level(l), b));
  for (const auto& [l, b] : writes) add(layer, block(l), write_energy_pj(level(l), b));
}

void EnergyMeter::mvu_job(int layer, int64_t macs, int64_t a_bits, int64_t w_bits) {
  add(layer, "mvu", mvu_energy_pj(e_, macs, a_bits, w_bits));
}

void EnergyMeter::finish(RunResult& r, int64_t freq_hz) const {
  r.energy_modelled = enabled();
  r.energy = EnergyStats{};
  if (!enabled()) return;
  struct Leak {
    bool on;
    const char* blk;
    double watts;
  };
  const Leak leaks[] = {{has_cluster_, "cluster", e_.cluster.leakage}, {true, "l1", e_.l1.leakage},
                        {true, "l2", e_.l2.leakage},                   {has_l3_, "l3", e_.l3.leakage},
                        {has_wmem_, "wmem", e_.wmem.leakage},          {has_dma_, "dma", e_.dma.leakage},
                        {has_npu_, "npu", e_.npu.leakage},             {has_mvu_, "mvu", e_.mvu.leakage}};
  for (size_t i = 0; i < r.layers.size() && i < layers_.size(); ++i) {
    LayerStats& L = r.layers[i];
    EnergyStats es = layers_[i];
    if (has_cluster_) {
      const int64_t idle = std::max<int64_t>(0, workers_ * L.cycles - busy_[i]);
      es.dynamic_pj["cluster"] += core_energy_pj(e_, 0, idle, 0);
    }
    for (const Leak& k : leaks)
      if (k.on) es.leakage_pj[k.blk] += leakage_pj(k.watts, L.cycles, freq_hz);
    for (const auto& [b, v] : es.dynamic_pj) r.energy.dynamic_pj[b] += v;
    for (const auto& [b, v] : es.leakage_pj) r.energy.leakage_pj[b] += v;
    L.energy = std::move(es);
  }
}

}  // namespace edgesim
