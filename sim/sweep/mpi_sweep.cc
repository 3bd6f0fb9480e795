// Loading the MPI plugin (mpi_sweep.h, mpi_backend.h).
#include "sim/sweep/mpi_sweep.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "sim/core/sanitizer_hooks.h"
#include "sim/sweep/mpi_backend.h"

namespace edgesim::sweep {

bool launched_under_mpi() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
    if (std::getenv(v)) return true;
  return false;
}

std::vector<std::string> mpi_plugin_paths() {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {"libedgesim_mpi.so"};
  const fs::path dir = exe.parent_path();
  return {(dir / "libedgesim_mpi.so").string(), (dir.parent_path() / "lib" / "edgesim" / "libedgesim_mpi.so").string()};
}

MpiSweep::MpiSweep() {
  std::string tried, why;
  for (const std::string& p : mpi_plugin_paths()) {
    handle_ = ::dlopen(p.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle_) break;
    tried += (tried.empty() ? "" : ", ") + p;
    if (const char* e = ::dlerror()) why = e;
  }
  if (!handle_)
    throw std::runtime_error("MPI support not found: cannot load the plugin libedgesim_mpi.so (tried " + tried +
                             (why.empty() ? "" : "; " + why) + ")");
  using Create = MpiBackend* (*)(const MpiHooks*);
  const auto create = reinterpret_cast<Create>(::dlsym(handle_, "edgesim_mpi_backend_create"));
  if (!create) {
    ::dlclose(handle_);
    throw std::runtime_error("MPI support: libedgesim_mpi.so has no edgesim_mpi_backend_create (a plugin of another build?)");
  }
  MpiHooks hooks;
  hooks.interrupted = &interrupted;
  hooks.leak_check_disable = &leak_check_disable;
  hooks.leak_check_enable = &leak_check_enable;
  backend_.reset(create(&hooks));
}

// MPI is finalised before the plugin goes; the plugin stays mapped (Open MPI keeps handlers and
// components of its own past MPI_Finalize).
MpiSweep::~MpiSweep() { backend_.reset(); }

int MpiSweep::rank() const { return backend_->rank(); }
int MpiSweep::size() const { return backend_->size(); }

void MpiSweep::serve(const std::vector<size_t>& pending, const Evaluate& evaluate, const Sink& sink) {
  served_ = true;
  backend_->serve(pending, evaluate, sink);
}

void MpiSweep::work(const Evaluate& evaluate) { backend_->work(evaluate); }

}  // namespace edgesim::sweep
