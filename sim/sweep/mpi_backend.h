// The interface between edgesim and its MPI plugin (libedgesim_mpi.so, sim/sweep/mpi_backend.cc):
// the plugin alone links Boost.MPI and Open MPI, and `edgesim sweep` loads it (mpi_sweep.cc) only
// under mpirun or with --mpi, so no other process pays for MPI's libraries at start-up. Both
// sides are built together by one compiler, so the interface is a C++ class behind one C entry.
#pragma once
#include <cstddef>
#include <vector>

#include "sim/sweep/dispatch.h"

namespace edgesim::sweep {

// What the plugin needs from edgesim's side: the interrupt flag of the sweep and the leak-check
// pause around MPI_Init / MPI_Finalize (sim/core/sanitizer_hooks.h).
struct MpiHooks {
  bool (*interrupted)() = nullptr;
  void (*leak_check_disable)() = nullptr;
  void (*leak_check_enable)() = nullptr;
};

class MpiBackend {
 public:
  virtual ~MpiBackend() = default;   // finalises MPI
  virtual int rank() const = 0;
  virtual int size() const = 0;
  virtual void serve(const std::vector<size_t>& pending, const Evaluate& evaluate, const Sink& sink) = 0;
  virtual void work(const Evaluate& evaluate) = 0;
};

}  // namespace edgesim::sweep

// The plugin's one exported symbol: initialises MPI and returns the backend (owned by the caller).
extern "C" edgesim::sweep::MpiBackend* edgesim_mpi_backend_create(const edgesim::sweep::MpiHooks* hooks);
