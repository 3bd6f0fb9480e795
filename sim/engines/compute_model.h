// ComputeModel: a compute engine as the executor drives it (docs/extending.md "An engine").
// The executor (sim/exec/executor.cc) knows Compute commands only through this interface: it
// asks the command's engine, by the name Command::engine holds, for the model the platform's
// SoC built, and hands it each job when the command becomes ready, starts and finishes. The
// built-in models (sim/engines/builtin_models.cc) adapt the cluster's cores, the NPU (N-EUREKA,
// NE16 or DIANA's SOMA), DIANA's analog core and BARVINN's MVU array; a model registered from
// elsewhere (register_compute_model) joins them without a change to the executor.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "compiler/passes/engine_registry.h"
#include "compiler/schedule/schedule.h"
#include "platforms/loader/spec.h"
#include "sim/cluster/cluster.h"
#include "sim/core/job.h"
#include "sim/energy/meter.h"
#include "sim/mem/tcdm.h"

namespace edgesim {

struct Soc;
class ComputeModel;

// What runs on the shared L1 at this moment (bank-conflict mode, docs/simulator.md): the models
// update it as their jobs start and finish, and DMA transfers that start are stretched by it.
struct L1Traffic {
  const Tcdm* tcdm = nullptr;      // set in bank-conflict mode only
  bool wide_contends = false;      // wide accelerator beats meet the DMA (fidelity.npu_hci_contention)
  double dma_ports = 0;            // TCDM ports of one DMA direction
  int dma_transfers = 0;           // cluster-DMA transfers into or out of L1 in flight
  int kernels = 0;                 // cluster kernels running
  const Job* wide_job = nullptr;   // the accelerator job with wide TCDM beats running, if any
  const ComputeModel* wide_model = nullptr;   // its model (beat_share)
};

// What the executor knows about a Compute command when it becomes ready.
struct JobContext {
  const Schedule* schedule = nullptr;
  const ClusterConventions* conv = nullptr;   // the conventions of the command's step
  bool first_kernel = false;                  // the step's first Compute
  bool tiled = false;                         // part of a tiled step
  bool after_dma = false;                     // depends on a DMA transfer
};

class ComputeModel {
 public:
  virtual ~ComputeModel() = default;
  // A warning about command c ("" for none), given once when the schedule is attached.
  virtual std::string check(const Command&) const { return ""; }
  // Costs job j of command c and submits it to the engine.
  virtual void submit(Job& j, const Command& c, const JobContext& x) = 0;
  // The job begins / ends occupying the engine.
  virtual void started(Job&, L1Traffic&) {}
  virtual void finished(Job&, L1Traffic&) {}
  // TCDM beats per cycle of a running wide job (0..1), for DMA transfers that meet it.
  virtual double beat_share(const Job&) const { return 0; }
  // Energy of a finished job. Default: busy core-cycles and MACs on the cluster's account.
  virtual void meter(EnergyMeter& m, int step, const Job& j, const Command& c, const Schedule&) const {
    m.cluster_job(step, j.core_cycles, c.macs);
  }
  // The statistics of a step take its busiest unit's split (parallel units) rather than the sum.
  virtual bool parallel_units() const { return false; }
  // Its depthwise kernels read their input channel by channel (CHW), so the DMA gathers it.
  virtual bool gathers_depthwise_input() const { return false; }
  // The trace track of command c's jobs.
  virtual std::string track(const Command& c) const = 0;
};

// Builds the model of an engine on a platform's SoC, or returns nullptr when the platform does
// not have that engine.
using ComputeModelFactory =
    std::function<std::unique_ptr<ComputeModel>(Soc&, const PlatformSpec&, JobListener&)>;

// Adds a model under an engine name (Command::engine). Throws std::invalid_argument when the
// name is registered already.
void register_compute_model(const std::string& engine, ComputeModelFactory f);
void unregister_compute_model(const std::string& engine);

// An engine in one line: its compiler definition (compiler/passes/engine_registry.h,
// register_engine) and its model under the definition's name. remove_engine undoes both.
void add_engine(EngineDef d, ComputeModelFactory f);
void remove_engine(const std::string& engine);

// The models of every registered engine the platform has, by engine name.
std::map<std::string, std::unique_ptr<ComputeModel>> build_compute_models(Soc& soc, const PlatformSpec& p,
                                                                          JobListener& listener);

}  // namespace edgesim
