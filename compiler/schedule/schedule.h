// Schedule: the single artefact the simulator consumes from the compiler (docs/architecture.md
// "Contracts").
// Plain data with exactly one functional meaning, specified in docs/schedule.md:
//
//   * Buffers live in one memory level at a byte offset chosen by the allocator.
//   * Every graph tensor that exists outside a layer (graph inputs and outputs, activations
//     between layers, constants) has a Placement: its home buffer and the element strides of its
//     logical (ONNX) shape there. Activations [N,C,H,W] are stored HWC (DORY's layout), 1-D
//     [N,C,L] as [N,L,C], conv weights [Cout,Cin/g,kh,kw] as [Cout,kh,kw,Cin/g]; other tensors
//     row-major. Before execution, constants and graph inputs are written to their placements.
//   * Commands are grouped per step (a layer node or a whole-tensor op) and listed in an order
//     that is a valid sequential execution; `deps` give the partial order a timed executor may
//     exploit (a command may start once every command in deps has completed). A layer's tiles
//     appear unrolled, so double buffering is visible as buffer indices and deps, not hidden.
//   * Dma copies count[0]·count[1] rows of count[2] contiguous bytes from src to dst, row
//     (i, j) starting at offset + i·stride[0] + j·stride[1] on each side.
//   * Compute runs the reference kernel of `params` (kernels/reference.h) on views into buffers.
//     Requant constants, bias and zero points travel inside params (already sliced to the tile);
//     Dma commands of the constant bytes model their traffic. Compute on engine "npu" reads its
//     weights in the NPU's encoded layout (Placement/Command::npu_weights) and decodes them.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kernels/ir/graph.h"
#include "compiler/tiler/tiling.h"
#include "kernels/npu/weights.h"

namespace edgesim {

enum class Level { L3, L2, L1, WMEM };
const char* level_name(Level l);   // "L3", "L2", "L1", "WMEM"

struct Buffer {
  int id = -1;
  Level level = Level::L2;
  int64_t offset = -1;           // bytes from the start of the level; -1 until allocated
  int64_t bytes = 0;
  std::string name;              // e.g. "x[1] L1 layer 3", "act %12", "w Conv_3"
  // Lifetime in steps (indices into Schedule::steps), inclusive: two buffers of one level
  // whose lifetimes intersect must not overlap in [offset, offset + bytes).
  int first_step = 0;
  int last_step = 0;
};

struct Placement {
  int tensor = -1;               // graph tensor id
  int buffer = -1;
  int64_t offset = 0;            // bytes within the buffer
  Shape strides;                 // element strides of the tensor's logical shape
  // Weights of an NPU layer: stored encoded in the NPU's layout (kernels/npu/weights.h), rows
  // of npu_weights->row_bytes from `offset`; `strides` is then unused.
  std::optional<NpuWeightGeom> npu_weights;
};

struct DmaSide {
  int buffer = -1;
  int64_t offset = 0;                    // bytes within the buffer
  std::array<int64_t, 2> stride{0, 0};   // bytes between rows of dim 0 and dim 1
};

struct BufView {
  int buffer = -1;
  int64_t offset = 0;            // bytes within the buffer
  DType dtype = DType::U8;
  Shape shape;                   // logical shape (as the kernel expects, e.g. [1,C,h,w])
  Shape strides;                 // element strides
};

struct Command {
  enum class Kind { Dma, Compute };
  int id = -1;                   // unique, increasing in list order
  Kind kind = Kind::Dma;
  std::string engine;            // "cluster_dma", "l3_dma", "cluster", "npu", "aimc", "mvu"
  std::vector<int> deps;         // ids of earlier commands
  std::string note;              // human-readable: "load x tile 3", "compute tile 3/16"
  // A command of the network loop around the layers (an L3 -> L2 copy of a layer's weights that
  // DORY's network.c issues outside the layer function), not of the layer itself: the layer's
  // own cycle counter does not bracket it (RunResult accounted_cycles). It may belong to an
  // earlier step than the layer it feeds (the paper-era loop prefetches the next layer's weights).
  bool loop = false;

  // Kind::Dma
  DmaSide src, dst;
  std::array<int64_t, 3> count{1, 1, 0};   // count[2]: contiguous bytes per row
  int64_t bytes() const { return count[0] * count[1] * count[2]; }

  // Kind::Compute
  int node = -1;                 // graph node whose (tile of) work this is
  OpParams params;               // tile-specialised params (pads of border tiles, sliced rq)
  std::vector<BufView> inputs, outputs;
  int64_t macs = 0;
  // engine "npu": inputs[1] holds rows [npu_row0, npu_row0 + inputs[1].shape[0]) of the layer's
  // encoded weights; the tile's output channels start npu_skip channels into those rows
  // (depthwise rows hold several channels).
  std::optional<NpuWeightGeom> npu_weights;
  int64_t npu_row0 = 0, npu_skip = 0;
  // engine "npu": the spatial extent the job is programmed with when the deployment reshapes it
  // (Deeploy's NE16 pointwise reshape, compiler/passes/ne16_pw_reshape.h): {rows, cols} with
  // rows·cols = the output view's H·W; {0, 0}: the output view's own H × W.
  int64_t npu_ho = 0, npu_wo = 0;
  int unit = 0;                  // engine "mvu": which MVU of the array runs the command
  // engine "aimc": the array does not hold this command's weights (another layer's or another
  // output-channel tile's are programmed): it writes them first (kernels/aimc/cost.h).
  bool aimc_program = false;
};

struct Step {
  int node = -1;                 // graph node
  std::string name;              // node name
  bool tiled = false;            // a layer with a LayerTiling (else a whole-tensor op in L2)
  LayerTiling tiling;            // valid when tiled
  int buffering = 1;             // 1 single, 2 double
  std::vector<Command> commands;
};

struct Schedule {
  std::string network;
  std::string platform;
  std::string policy;
  std::string buffering;         // "single" | "double"
  // How the network loop moves L3-homed weights (ScheduleOptions::network_loop, resolved):
  // "dory", "dory-2020", or "" when no weight lives in L3. Under "dory-2020" the whole network
  // runs inside one team fork (the layers are separated by barriers, not forks).
  std::string network_loop;
  std::vector<Buffer> buffers;
  std::vector<Placement> placements;
  std::vector<Step> steps;
  // High-water marks per level in bytes (after allocation), index by Level.
  std::array<int64_t, 4> high_water{0, 0, 0, 0};

  const Placement* placement_of(int tensor) const;   // nullptr if none
};

}  // namespace edgesim
