// The built-in compute models (compute_model.h) and the registry of models by engine name: one
// line per engine in registry().
//   cluster  the cluster's cores (sim/cluster/cluster.h): PULP-NN / host-loop kernels
//   npu      N-EUREKA or NE16 (sim/npu/npu.h), or DIANA's digital accelerator SOMA (sim/soma)
//   aimc     DIANA's analog in-memory core (sim/aimc/aimc.h)
//   mvu      BARVINN's MVU array (sim/mvu/mvu_array.h): a command runs on its MVU `unit`
#include <stdexcept>

#include <fmt/format.h>

#include "compiler/passes/assign_engine.h"
#include "sim/engines/compute_model.h"
#include "sim/soc/soc.h"

namespace edgesim {

namespace {

Level level_of(const Schedule& s, const BufView& v) { return s.buffers.at(static_cast<size_t>(v.buffer)).level; }

int64_t view_bytes(const BufView& v) {
  int64_t n = static_cast<int64_t>(dtype_size(v.dtype));
  for (int64_t d : v.shape) n *= d;
  return n;
}

class ClusterModel : public ComputeModel {
 public:
  ClusterModel(Cluster& c, const PlatformSpec& p) : c_(c), role_(engine_role(p, "cluster")) {}
  void submit(Job& j, const Command& c, const JobContext& x) override {
    bool in_l1 = true;
    for (const auto* views : {&c.inputs, &c.outputs})
      for (const BufView& v : *views) in_l1 = in_l1 && level_of(*x.schedule, v) == Level::L1;
    c_.cost_kernel(j, c, *x.conv, x.first_kernel, x.tiled, in_l1, x.after_dma);
    c_.submit(&j);
  }
  void started(Job& j, L1Traffic& t) override {
    if (t.tcdm) c_.stretch_for_conflicts(j, *t.tcdm, t.dma_transfers > 0);
    ++t.kernels;
  }
  void finished(Job&, L1Traffic& t) override { --t.kernels; }
  bool gathers_depthwise_input() const override { return true; }
  std::string track(const Command&) const override { return role_; }

 private:
  Cluster& c_;
  std::string role_;
};

// N-EUREKA / NE16: weights from the TCDM or the weight memory; wide beats contend with the DMA.
class NpuModel : public ComputeModel {
 public:
  NpuModel(Npu& n, const PlatformSpec& p) : n_(n), role_(engine_role(p, "npu")) {}
  void submit(Job& j, const Command& c, const JobContext& x) override {
    const bool w_tcdm = c.inputs.size() > 1 && level_of(*x.schedule, c.inputs[1]) != Level::WMEM;
    n_.cost_job(j, c, w_tcdm, x.first_kernel);
    n_.submit(&j);
  }
  void started(Job& j, L1Traffic& t) override {
    if (t.tcdm && t.wide_contends) n_.stretch_for_conflicts(j, *t.tcdm, t.dma_transfers > 0 ? t.dma_ports : 0.0);
    t.wide_job = &j;
    t.wide_model = this;
  }
  void finished(Job&, L1Traffic& t) override { t.wide_job = nullptr, t.wide_model = nullptr; }
  double beat_share(const Job& j) const override { return n_.beat_share(j); }
  void meter(EnergyMeter& m, int step, const Job&, const Command& c, const Schedule& s) const override {
    meter_npu(m, step, c, s);
  }
  std::string track(const Command&) const override { return role_; }

  static void meter_npu(EnergyMeter& m, int step, const Command& c, const Schedule& s) {
    std::vector<std::pair<Level, int64_t>> reads, writes;
    for (const BufView& v : c.inputs) reads.emplace_back(level_of(s, v), view_bytes(v));
    for (const BufView& v : c.outputs) writes.emplace_back(level_of(s, v), view_bytes(v));
    m.npu_job(step, c.macs, reads, writes);
  }

 private:
  Npu& n_;
  std::string role_;
};

// An accelerator a core programs one job at a time, costed by its own model: DIANA's digital
// accelerator SOMA (engine "npu" with npu.impl soma; its energy on the NPU's account) and its
// analog core (energy on the cluster's account, the default).
template <class Part, bool kNpuEnergy>
class ProgrammedModel : public ComputeModel {
 public:
  ProgrammedModel(Part& part, const PlatformSpec& p, const char* engine) : part_(part), role_(engine_role(p, engine)) {}
  void submit(Job& j, const Command& c, const JobContext&) override {
    part_.cost_job(j, c);
    part_.submit(&j);
  }
  void meter(EnergyMeter& m, int step, const Job& j, const Command& c, const Schedule& s) const override {
    if (kNpuEnergy) NpuModel::meter_npu(m, step, c, s);
    else ComputeModel::meter(m, step, j, c, s);
  }
  std::string track(const Command&) const override { return role_; }

 private:
  Part& part_;
  std::string role_;
};
using SomaModel = ProgrammedModel<Soma, true>;
using AimcModel = ProgrammedModel<Aimc, false>;

// BARVINN: each command runs on its MVU `unit`; the MVUs have their own RAMs (no TCDM contention).
class MvuModel : public ComputeModel {
 public:
  explicit MvuModel(MvuArray& m) : m_(m) {}
  std::string check(const Command& c) const override {
    return m_.quantizer_violation(c) ? "violates the MVU quantizer constraint iC*Fh*Fw*a*w >= oprec" : "";
  }
  void submit(Job& j, const Command& c, const JobContext&) override {
    m_.cost_job(j, c);
    m_.unit(c.unit).submit(&j);
  }
  void meter(EnergyMeter& m, int step, const Job&, const Command& c, const Schedule&) const override {
    const int64_t a = c.inputs.empty() ? 8 : 8 * static_cast<int64_t>(dtype_size(c.inputs[0].dtype));
    const int64_t w = c.inputs.size() < 2 ? 8 : 8 * static_cast<int64_t>(dtype_size(c.inputs[1].dtype));
    m.mvu_job(step, c.macs, a, w);
  }
  bool parallel_units() const override { return true; }
  std::string track(const Command& c) const override { return fmt::format("mvu {}", c.unit); }

 private:
  MvuArray& m_;
};

template <class Model, class Part, class... Args>
std::unique_ptr<ComputeModel> adapt(const std::unique_ptr<Part>& part, const PlatformSpec& p, Args... args) {
  if (!part) return nullptr;
  return std::make_unique<Model>(*part, p, args...);
}

std::map<std::string, ComputeModelFactory>& registry() {
  static std::map<std::string, ComputeModelFactory> r{
      {"cluster", [](Soc& s, const PlatformSpec& p, JobListener&) { return adapt<ClusterModel>(s.cluster, p); }},
      {"npu",
       [](Soc& s, const PlatformSpec& p, JobListener&) {
         return s.soma ? adapt<SomaModel>(s.soma, p, "npu") : adapt<NpuModel>(s.npu, p);
       }},
      {"aimc", [](Soc& s, const PlatformSpec& p, JobListener&) { return adapt<AimcModel>(s.aimc, p, "aimc"); }},
      {"mvu",
       [](Soc& s, const PlatformSpec&, JobListener&) -> std::unique_ptr<ComputeModel> {
         return s.mvu ? std::make_unique<MvuModel>(*s.mvu) : nullptr;
       }},
  };
  return r;
}

}  // namespace

void register_compute_model(const std::string& engine, ComputeModelFactory f) {
  if (!registry().emplace(engine, std::move(f)).second)
    throw std::invalid_argument("compute model '" + engine + "' is registered already");
}

void unregister_compute_model(const std::string& engine) { registry().erase(engine); }

void add_engine(EngineDef d, ComputeModelFactory f) {
  const std::string name = d.name;
  if (registry().count(name)) throw std::invalid_argument("compute model '" + name + "' is registered already");
  register_engine(std::move(d));   // checks the definition and the name first
  register_compute_model(name, std::move(f));
}

void remove_engine(const std::string& engine) {
  unregister_compute_model(engine);
  unregister_engine(engine);
}

std::map<std::string, std::unique_ptr<ComputeModel>> build_compute_models(Soc& soc, const PlatformSpec& p,
                                                                          JobListener& listener) {
  std::map<std::string, std::unique_ptr<ComputeModel>> m;
  for (const auto& [name, make] : registry())
    if (auto model = make(soc, p, listener)) m.emplace(name, std::move(model));
  return m;
}

}  // namespace edgesim
