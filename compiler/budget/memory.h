// Bounded resources: the memory a network will need, estimated before anything runs on it, and
// the limit beyond which edgesim refuses it with one error instead of growing without bound
// (an input batch of 100,000 once took `edgesim verify` past a minute and 9 GB).
//
// The estimate adds up what the commands actually allocate, from the imported Graph alone:
//   tensors   every tensor of the graph (constants, inputs, activations) in its dtype: the golden
//             model keeps them all (per-layer checks); `copies` = 2 when a simulation with data
//             holds a second copy (memory levels and the simulated tensors, sim/exec);
//   inputs    the graph inputs as 8-byte values while they are generated or read from golden
//             files (random_inputs, load_inputs);
//   scratch   the largest working set of one kernel call: 8 bytes per element of a node's
//             operands and output, the reference kernels' int64 copies (the optimised kernels
//             need a quarter of that, so this bounds both);
//   schedule  after tiling: kScheduleBytesPerTile per L1 tile of every layer (its commands, their
//             views and dependencies) plus kScheduleBytesPerLayer per layer (its step), an upper
//             bound fitted to the schedule heap of MobileNetV1-128 on gap8 and siracusa
//             (docs/hardening.md).
// The limit is process-wide: kDefaultMemoryLimit unless --memory-limit says otherwise (0: none).
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/ir/graph.h"
#include "compiler/tiler/tiling.h"

namespace edgesim {

constexpr int64_t kDefaultMemoryLimit = int64_t{4} << 30;   // 4 GiB
constexpr int64_t kScheduleBytesPerTile = 4096;
constexpr int64_t kScheduleBytesPerLayer = 32768;

struct MemoryEstimate {
  int64_t tensors = 0;
  int copies = 1;
  int64_t inputs = 0;
  int64_t scratch = 0;
  int64_t schedule = 0;
  int64_t total() const;
  // "9.3 GiB (tensors 4.1 GiB x2, inputs 307 MiB, largest kernel working set 1.2 GiB)"
  std::string str() const;
};

MemoryEstimate estimate_memory(const Graph& g, int copies = 1);
// Adds the schedule of these tilings.
void add_schedule_estimate(MemoryEstimate& e, const Graph& g, const std::vector<LayerTiling>& tilings);

// The process-wide limit in bytes (0: no limit); kDefaultMemoryLimit until set.
int64_t& memory_limit();

class MemoryLimitError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws MemoryLimitError when e.total() exceeds memory_limit():
//   "<what>: needs an estimated 9.3 GiB of memory (...), above the limit of 4 GiB (input 'x' has
//    batch 100000); raise it with --memory-limit SIZE (0: no limit)"
void check_memory(const MemoryEstimate& e, const Graph& g, const std::string& what);

// Work whose memory the estimate cannot foresee (the tuner's search: options per layer, plans per
// network) is bounded as it runs: check_resident throws MemoryLimitError when the process's
// resident memory (/proc/self/statm; 0 when unknown) exceeds memory_limit():
//   "<what>: the process reached 4.1 GiB of memory, above the limit of 4 GiB; raise it with ..."
int64_t resident_bytes();
void check_resident(const std::string& what);

}  // namespace edgesim
