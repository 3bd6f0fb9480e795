// The MPI plugin (mpi_backend.h): Boost.MPI over Open MPI, built as libedgesim_mpi.so. Rank 0
// hands out point indices on request and collects "<index>\t<message>" results; the other ranks
// evaluate (protocol in mpi_sweep.h).
#include "sim/sweep/mpi_backend.h"

#include <memory>
#include <string>

#include <boost/mpi/communicator.hpp>
#include <boost/mpi/environment.hpp>
#include <boost/serialization/string.hpp>

namespace edgesim::sweep {

namespace {

constexpr int kRequest = 1;   // worker -> rank 0: "" or "<index>\t<message>"
constexpr int kWork = 2;      // rank 0 -> worker: point index (long)
constexpr int kStop = 3;      // rank 0 -> worker: no more points

// MPI_Init and MPI_Finalize: what Open MPI allocates there it keeps to the end of the process
// (not a leak of edgesim's; ignored in a sanitized build through the hooks).
struct MpiEnvironment {
  explicit MpiEnvironment(const MpiHooks& h) : hooks(h) {
    hooks.leak_check_disable();
    env = std::make_unique<boost::mpi::environment>(boost::mpi::threading::single, false);
    hooks.leak_check_enable();
  }
  ~MpiEnvironment() {
    hooks.leak_check_disable();
    env.reset();
    hooks.leak_check_enable();
  }
  MpiHooks hooks;
  std::unique_ptr<boost::mpi::environment> env;
};

class BoostMpi final : public MpiBackend {
 public:
  explicit BoostMpi(const MpiHooks& hooks) : hooks_(hooks), env_(hooks) {}
  int rank() const override { return world_.rank(); }
  int size() const override { return world_.size(); }
  void serve(const std::vector<size_t>& pending, const Evaluate& evaluate, const Sink& sink) override;
  void work(const Evaluate& evaluate) override;

 private:
  MpiHooks hooks_;
  MpiEnvironment env_;                // first in, last out: MPI is up while the communicator lives
  boost::mpi::communicator world_;
};

void BoostMpi::serve(const std::vector<size_t>& pending, const Evaluate& evaluate, const Sink& sink) {
  size_t next = 0;
  if (world_.size() == 1) {
    for (; next < pending.size() && !hooks_.interrupted(); ++next) sink(pending[next], evaluate(pending[next]));
    return;
  }
  int active = world_.size() - 1;
  while (active > 0) {
    std::string msg;
    const boost::mpi::status st = world_.recv(boost::mpi::any_source, kRequest, msg);
    if (!msg.empty()) {
      const size_t tab = msg.find('\t');
      sink(std::stoul(msg.substr(0, tab)), tab == std::string::npos ? std::string() : msg.substr(tab + 1));
    }
    if (next < pending.size() && !hooks_.interrupted()) {
      world_.send(st.source(), kWork, static_cast<long>(pending[next++]));
    } else {
      world_.send(st.source(), kStop);
      --active;
    }
  }
}

void BoostMpi::work(const Evaluate& evaluate) {
  world_.send(0, kRequest, std::string());
  while (true) {
    const boost::mpi::status st = world_.probe(0, boost::mpi::any_tag);
    if (st.tag() == kStop) {
      world_.recv(0, kStop);
      return;
    }
    long index = 0;
    world_.recv(0, kWork, index);
    std::string msg;
    try {
      msg = evaluate(static_cast<size_t>(index));
    } catch (...) {
      msg.clear();   // rank 0 turns an empty result into an "error" record
    }
    world_.send(0, kRequest, std::to_string(index) + "\t" + msg);
  }
}

}  // namespace

}  // namespace edgesim::sweep

extern "C" __attribute__((visibility("default"))) edgesim::sweep::MpiBackend* edgesim_mpi_backend_create(
    const edgesim::sweep::MpiHooks* hooks) {
  return new edgesim::sweep::BoostMpi(*hooks);
}
