// Job: one unit of work the executor hands to an engine (sim/exec/executor.h): a kernel or a
// DMA issue on the cluster, an NPU job, or a transfer on a DMA channel. The engine's timing
// model fills in `duration` (and the split) when the job is created; the engine decides when it
// runs.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace edgesim {

struct Job {
  enum class Kind { Kernel, Issue, Transfer };
  Kind kind = Kind::Kernel;
  int cmd = -1;                      // index into the executor's command table
  int step = -1;
  int64_t id = 0;                    // schedule command id: lower runs first among ready jobs
  int64_t duration = 0;              // cycles the engine is occupied
  int64_t work = 0;                  // cycles of `duration` spent computing (the rest is overhead)
  int64_t lead = 0;                  // overhead cycles before the work starts (wake, fork)
  std::vector<int64_t> core_cycles;  // kernel: busy cycles per core; issue: issue cycles per core
  std::string kernel;                // modelled kernel name (trace)
  int64_t tcdm_beats = 0;            // NPU job: its wide TCDM beats (bank-conflict mode)
  int64_t dma_commands = 0;          // DMA issue job: the DMA commands it programs (energy)
  int64_t dma_bursts = 0;            // DMA issue job: the bursts those commands move (energy)
  int64_t start = -1, end = -1;      // filled by the engine
};

// The executor's side of the engine contract: an engine calls job_started when the job begins
// occupying it (at the job's start cycle) and job_finished when it ends.
class JobListener {
 public:
  virtual ~JobListener() = default;
  virtual void job_started(Job& j) = 0;
  virtual void job_finished(Job& j) = 0;
};

}  // namespace edgesim
