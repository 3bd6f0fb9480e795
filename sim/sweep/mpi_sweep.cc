// Boost.MPI implementation of the sweep's MPI backend (mpi_sweep.h).
#include "sim/sweep/mpi_sweep.h"

#include <cstdlib>
#include <string>

#include <boost/mpi/communicator.hpp>
#include <boost/mpi/environment.hpp>
#include <boost/serialization/string.hpp>

#include "sim/core/sanitizer_hooks.h"

namespace edgesim::sweep {

namespace {

constexpr int kRequest = 1;   // worker -> rank 0: "" or "<index>\t<message>"
constexpr int kWork = 2;      // rank 0 -> worker: point index (long)
constexpr int kStop = 3;      // rank 0 -> worker: no more points

}  // namespace

bool launched_under_mpi() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
    if (std::getenv(v)) return true;
  return false;
}

// MPI_Init and MPI_Finalize: what Open MPI allocates there it keeps to the end of the process
// (not a leak of edgesim's; ignored in a sanitized build, sim/core/sanitizer_hooks.h).
struct MpiEnvironment {
  MpiEnvironment() {
    LeakCheckPause pause;
    env = std::make_unique<boost::mpi::environment>(boost::mpi::threading::single, false);
  }
  ~MpiEnvironment() {
    LeakCheckPause pause;
    env.reset();
  }
  std::unique_ptr<boost::mpi::environment> env;
};

struct MpiSweep::Impl {
  MpiEnvironment env;
  boost::mpi::communicator world;
};

MpiSweep::MpiSweep() : impl_(std::make_unique<Impl>()) {}
MpiSweep::~MpiSweep() = default;

int MpiSweep::rank() const { return impl_->world.rank(); }
int MpiSweep::size() const { return impl_->world.size(); }

void MpiSweep::serve(const std::vector<size_t>& pending, const Evaluate& evaluate, const Sink& sink) {
  served_ = true;
  auto& world = impl_->world;
  size_t next = 0;
  if (world.size() == 1) {
    for (; next < pending.size() && !interrupted(); ++next) sink(pending[next], evaluate(pending[next]));
    return;
  }
  int active = world.size() - 1;
  while (active > 0) {
    std::string msg;
    const boost::mpi::status st = world.recv(boost::mpi::any_source, kRequest, msg);
    if (!msg.empty()) {
      const size_t tab = msg.find('\t');
      sink(std::stoul(msg.substr(0, tab)), tab == std::string::npos ? std::string() : msg.substr(tab + 1));
    }
    if (next < pending.size() && !interrupted()) {
      world.send(st.source(), kWork, static_cast<long>(pending[next++]));
    } else {
      world.send(st.source(), kStop);
      --active;
    }
  }
}

void MpiSweep::work(const Evaluate& evaluate) {
  auto& world = impl_->world;
  world.send(0, kRequest, std::string());
  while (true) {
    const boost::mpi::status st = world.probe(0, boost::mpi::any_tag);
    if (st.tag() == kStop) {
      world.recv(0, kStop);
      return;
    }
    long index = 0;
    world.recv(0, kWork, index);
    std::string msg;
    try {
      msg = evaluate(static_cast<size_t>(index));
    } catch (...) {
      msg.clear();   // rank 0 turns an empty result into an "error" record
    }
    world.send(0, kRequest, std::to_string(index) + "\t" + msg);
  }
}

}  // namespace edgesim::sweep
