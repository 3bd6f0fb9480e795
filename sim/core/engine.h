// Engine: anything that executes Jobs in simulated time (the cluster's cores, a DMA channel,
// later the NPU and MVU).
// Contract: submit() may be called at any simulated time from any process with a job whose
// dependencies are all complete; the engine occupies itself for exactly job.duration cycles
// per job, one job at a time, chosen among the submitted ones by its own rule (stated in its
// header), and reports start and end through the JobListener. Jobs submitted in the same cycle
// are all considered before the choice is made (the engine lets one delta cycle pass).
// job_started may still set job.duration: an engine whose timing depends on the state of its
// target at start time (the uDMA and its HyperRAM bus) finalises it there.
#pragma once
#include <deque>
#include <string>
#include <vector>

#include <systemc>

#include "sim/core/job.h"

namespace edgesim {

class Engine : public sc_core::sc_module {
 public:
  Engine(const sc_core::sc_module_name& name, JobListener& listener);
  void submit(Job* j);
  const std::string& track() const { return track_; }

 protected:
  // Index into pending_ of the job to run next (pending_ is never empty when called).
  virtual size_t pick() const = 0;
  std::vector<Job*> pending_;
  std::string track_;

 private:
  void run();
  JobListener& listener_;
  sc_core::sc_event arrived_;
};

// An engine serving jobs in submission order (DMA channels).
class FifoEngine : public Engine {
 public:
  FifoEngine(const sc_core::sc_module_name& name, JobListener& listener, std::string track);

 protected:
  size_t pick() const override { return 0; }
};

// An engine serving the lowest command id first (program order): the accelerators a core
// programs one job at a time (NPU, SOMA, AIMC).
class ProgramOrderEngine : public Engine {
 public:
  ProgramOrderEngine(const sc_core::sc_module_name& name, JobListener& listener, std::string track);

 protected:
  size_t pick() const override;
};

}  // namespace edgesim
