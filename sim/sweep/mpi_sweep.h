// The MPI backend of `edgesim sweep` (Boost.MPI over Open MPI): `mpirun -n N edgesim sweep ...`
// runs the same command on N ranks. Every rank parses the command and imports the networks
// (deterministic, so every rank agrees on the point list); rank 0 resumes, journals, collects
// and writes the files exactly as a local sweep; ranks 1..N-1 only evaluate.
// Dynamic assignment: a worker rank sends a request (empty at first, then "<index>\t<message>"
// with the result of its last point) and rank 0 answers with the next point index or "stop".
// With one rank, rank 0 evaluates in process. Built as its own library (edgesim_sweep_mpi)
// linked by the edgesim executable only; without mpirun edgesim never initialises MPI.
#pragma once
#include <memory>
#include <vector>

#include "sim/sweep/dispatch.h"

namespace edgesim::sweep {

// True when the process was started by Open MPI's mpirun (OMPI_COMM_WORLD_SIZE is set) or by
// another launcher that sets PMI_SIZE / PMIX_RANK.
bool launched_under_mpi();

class MpiSweep {
 public:
  MpiSweep();    // initialises MPI
  ~MpiSweep();   // finalises it
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
  struct Impl;
  std::unique_ptr<Impl> impl_;
  bool served_ = false;
};

}  // namespace edgesim::sweep
