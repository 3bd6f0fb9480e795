// ScheduleMachine: the state of one execution of a Schedule with data — one byte array per
// memory level, the placements loaded with constants and graph inputs, and the read-back of
// every placed tensor at the end of its home buffer's lifetime (docs/schedule.md §1). NPU
// weights are written in their encoded layout and decoded again by the NPU's compute commands
// (kernels/npu/weights.h), so a wrong layout or row range shows up as a verification mismatch.
//
// The untimed functional executor (functional.h) drives it in list order; the SystemC executor
// (sim/exec) drives the same machine in simulated time: its memory components use the level
// arrays as their storage, its DMA moves bytes through them, and its engines call run_compute().
// Every byte range a command touches is checked against its buffer, so a wrong offset in the
// schedule surfaces as an error naming the step and command.
#pragma once
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "kernels/ir/graph.h"
#include "compiler/schedule/functional.h"
#include "compiler/schedule/schedule.h"
#include "kernels/core/tensor.h"

namespace edgesim {

// Absolute byte addresses (within their levels) of the first row of a Dma command, after its
// ranges were checked against its buffers.
struct DmaAddresses {
  Level src_level = Level::L2, dst_level = Level::L1;
  int64_t src = 0, dst = 0;
};

class ScheduleMachine {
 public:
  // Validates buffers and placements and allocates each level (high_water bytes); without
  // `storage` the levels stay empty (timing-only runs: only dma_addresses() may be used).
  ScheduleMachine(const Graph& g, const Schedule& s, bool storage = true);
  // Writes the constants and the graph inputs to their placements.
  void load(const std::vector<Tensor>& inputs);

  std::vector<std::byte>& level(Level l) { return mem_[static_cast<size_t>(l)]; }

  // Checks a Dma command's source and destination ranges; `who` names it in errors.
  DmaAddresses dma_addresses(const Command& c, const std::string& who) const;
  void run_dma(const Command& c, const std::string& who);       // byte copy, untimed
  void run_compute(const Command& c, const std::string& who);   // reference kernel on views
  // Requant arithmetic of the compute commands (default exact; DORY's shift for `--arith dory`).
  void set_arith(ArithMode mode) { arith_ = mode; }
  // Reads back the placements whose home buffer's lifetime ends at step k.
  void end_step(int k);
  // Reads the graph outputs (call after the last end_step).
  FunctionalResult finish();

 private:
  View view(int buffer, int64_t offset, DType t, const Shape& shape, const Shape& strides,
            const std::string& who);
  View placement_view(const Placement& p);
  std::byte* encoded_bytes(const Placement& p);   // NPU-encoded placement: its bytes, checked
  Tensor read_placement(const Placement& p);      // values of a placement (decoded if encoded)

  const Graph& g_;
  const Schedule& s_;
  ArithMode arith_ = ArithMode::Exact;
  std::array<std::vector<std::byte>, 4> mem_;
  std::vector<std::vector<const Placement*>> snap_;   // per step: placements to read back
  std::vector<std::optional<Tensor>> values_;
};

}  // namespace edgesim
