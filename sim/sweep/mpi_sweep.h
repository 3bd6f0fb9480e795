// The MPI backend of `edgesim sweep`: `mpirun -n N edgesim sweep ...` runs the same command on N
// ranks. Every rank parses the command and imports the networks (deterministic, so every rank
// agrees on the point list); rank 0 resumes, journals, collects and writes the files exactly as a
// local sweep; ranks 1..N-1 only evaluate. Dynamic assignment: a worker rank sends a request
// (empty at first, then "<index>\t<message>" with the result of its last point) and rank 0
// answers with the next point index or "stop". With one rank, rank 0 evaluates in process.
// MPI itself lives in a plugin, libedgesim_mpi.so (mpi_backend.h), which MpiSweep loads: next to
// the executable (the build tree), else in ../lib/edgesim/ (an install); no other command and
// no process started without mpirun loads MPI's libraries.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "sim/sweep/dispatch.h"

namespace edgesim::sweep {

class MpiBackend;

// True when the process was started by Open MPI's mpirun (OMPI_COMM_WORLD_SIZE is set) or by
// another launcher that sets PMI_SIZE / PMIX_RANK.
bool launched_under_mpi();

// Where the plugin is looked for, in order (the executable's folder, then ../lib/edgesim).
std::vector<std::string> mpi_plugin_paths();

class MpiSweep {
 public:
  // Loads the plugin and initialises MPI; throws std::runtime_error naming the paths tried when
  // the plugin cannot be loaded.
  MpiSweep();
  ~MpiSweep();   // finalises MPI
  MpiSweep(const MpiSweep&) = delete;
  MpiSweep& operator=(const MpiSweep&) = delete;

  int rank() const;
  int size() const;

  // Rank 0: spreads `pending` over the other ranks, calling `sink` for every result; returns
  // when every worker rank has been told to stop. Call exactly once (with no points to release
  // the workers after an error).
  void serve(const std::vector<size_t>& pending, const Evaluate& evaluate, const Sink& sink);
  bool served() const { return served_; }

  // Ranks > 0: evaluate what rank 0 hands out until it says stop.
  void work(const Evaluate& evaluate);

 private:
  void* handle_ = nullptr;
  std::unique_ptr<MpiBackend> backend_;
  bool served_ = false;
};

}  // namespace edgesim::sweep
