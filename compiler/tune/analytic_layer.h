// The analytic cost's view of one layer step (not a public header): operands in the schedule
// builder's kernel coordinates with their home strides, which tile indices each operand's box
// depends on, the window geometry, and the tile extents of every operand for a tile class.
// Built once per analytic_cycles call by analytic_layer.cc, read by analytic.cc.
#pragma once
#include <cstdint>
#include <vector>

#include "kernels/ir/graph.h"
#include "compiler/tiler/tiling.h"
#include "compiler/tune/analytic.h"
#include "compiler/tune/analytic_internal.h"
#include "kernels/dma/cost.h"
#include "platforms/loader/spec.h"

namespace edgesim::tune_detail {

enum { kN = 0, kC = 1, kH = 2, kW = 3 };   // tile indices: batch element, Cout, H, W

struct Operand {
  Shape shape;                   // kernel coordinates
  Shape home;                    // element strides of its home
  int64_t esize = 1;
  bool l3 = false;               // homed in L3: staged through L2 slabs
  bool reuse = false;            // conv / gemm input 1: loaded only when its box changes
  bool dep[4] = {true, true, true, true};   // its box changes with that tile index
  int slab_db = 1;               // L2 slab buffers when staged
  bool gather = false;           // depthwise conv input: DORY's HWC -> CHW gather
};

struct Layer {
  bool tileable = true;          // false: the builder makes a whole-tensor step
  OpKind kind = OpKind::Conv;
  bool gemm = false;
  size_t KR = 4;
  int cd = 1, hd = 2, wd = 3;    // kernel dims of Cout, H, W in the output (wd = -1: Gemm)
  int64_t C = 1, H = 1, W = 1, nbatch = 1;
  std::vector<Operand> in;
  Operand y;
  std::vector<int> cvec;         // constant vectors (4 B entries): bit 1 = along Cout, bit 2 = along H
  Shape cvec_full;               // their full entry counts (same order)
  bool windows = false;          // conv / pool: H and W tiles read input windows
  int64_t kh = 1, sh = 1, dh = 1, pt = 0, hin = 1, kw = 1, sw = 1, dw = 1, pl = 0, win = 1;
  int64_t cout_g = 1, cin_g = 1;
  bool grouped = false;          // groups > 1 (incl. depthwise): input channels follow the Cout tile
  int64_t cin = 1;
  OpParams lean;                 // the node's params without per-channel vectors (cost only)
  std::vector<Shape> whole_in;   // whole-step fallback: the operands' shapes
};

// Throws TilingError when `t` is not a valid tiling of the node (grouped Cout tile splitting a
// group, partial-sum tiling) or the node is not a layer.
Layer make_layer(const Graph& g, int node, const LayerTiling& t, const PlatformSpec& spec,
                 const AnalyticContext& ctx, const std::string& l2_policy);

// Extents of operand k (k == in.size(): the output) for a tile of nc channels and the given H / W kinds.
Shape tile_ext(const Layer& L, size_t k, int64_t nc, const Kind& h, const Kind& w);
// Extents of what operand k needs for a whole L2 slab (bounding box of its tiles).
Shape slab_ext(const Layer& L, size_t k, int64_t nc_s, const DimTiles& h, const DimTiles& w);
// Tile params for the kernel cost model (pads / groups of the tile).
OpParams tile_params(const Layer& L, int64_t nc, const Kind& h, const Kind& w);

// Timing environment of one analytic evaluation: conventions and resolved timing parameters.
struct Env {
  ClusterSpec workers;           // cluster spec with n_cores = the policy's worker cores
  DmaTiming tx, ti;              // transfer timing; issue timing (single-core issue under Deeploy)
  bool split_issue = false;      // ti differs from tx
  L3Timing l3;
  bool simple = false;           // cluster.dma.impl simple_dma
  double simple_bpc = 1;
  bool deeploy = false;          // fork per tile, no extra barriers
  bool every_tile = false;       // policy deeploy: every input cube loaded at every single-buffered tile
  bool dw3x3_s1 = false;         // the tuned flow calls pulp_nn_depthwise_3x3_s1 where it applies
  int64_t wake = 0, bar = 0, fork = 0;
  std::vector<Piece> pieces;     // scratch
  uint64_t gen = 0;              // identifies tx / ti for the copy-cost memo (analytic_step.cc)
};

struct Dma {
  int64_t issue = 0, transfer = 0;
  int64_t sum() const { return issue + transfer; }
};
// Issue (cluster) and transfer (channel) cycles of copying a box of extents `ext` between
// regions with element strides `src` / `dst` to or from L1 (TCDM-side base offset l1_base;
// gather_ch > 0: a depthwise input gathered per channel).
Dma l1_copy(Env& e, const Shape& ext, const Shape& src, const Shape& dst, int64_t esize, bool to_l1,
            int64_t l1_base, int64_t gather_ch);
// uDMA cycles of copying a box between L3 and L2.
int64_t l3_copy(Env& e, const Shape& ext, const Shape& src, const Shape& dst, int64_t esize);
// A generation number that changes whenever (tx, ti) differ from the previous call's.
uint64_t timing_generation(const DmaTiming& tx, const DmaTiming& ti);
// Cycles of the tiled step (analytic_step.cc).
int64_t step_cycles(const Layer& L, const LayerTiling& t, Env& e);

}  // namespace edgesim::tune_detail
