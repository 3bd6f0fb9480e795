// Tiling: the decision a tiling policy makes for one layer node, and the geometry it is made on.
//
// Every tileable layer (Conv incl. depthwise/grouped/1-D, Gemm as FC/MatMul, Pool, Add) is seen
// through one LayerGeom in DORY's terms (docs/tiling.md "Layers as the tiler sees them"): channels,
// rows and columns of input and output, kernel, strides, four pads, bit widths and the per-channel
// constants.
//   Conv  [N=1, Cin, H, W] -> [Cout, Ho, Wo]          (1-D conv: H = 1)
//   Gemm  A [M, K] x B [K, N] -> [M, N] seen as Cin = K, Cout = N, H = Ho = M, W = Wo = 1, k = 1×1
//         (batched MatMul: batch = product of leading dims, tiled as an outer loop of whole batches)
//   Pool  channels C = Cin = Cout
//   Add   C, H, W of the output; inputs have the same tile (so are Mul / Requant / Act / FloatChain
//         on image tensors)
//   rows  a rows layer (compiler/ir/layout_domain.h: softmax, norms, activations, element-wise
//         ops on sequence tensors) as [R rows, L = last axis]: Cin = Cout = L (never split),
//         H = Ho = R, W = Wo = 1; the per-position norm weights count as per-channel constants
// Tiles are given by their OUTPUT extent (n_out, h_out, w_out); the input extent follows from
// the geometry (input rows = (h_out − 1)·sh + (kh − 1)·dh + 1, clipped at the borders; padding
// only on border tiles). Tiles are enumerated Cout (outer) → H → W (inner); the last tile along
// each dimension takes the remainder.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/ir/graph.h"

namespace edgesim {

struct LayerGeom {
  int node = -1;
  OpKind kind = OpKind::Conv;
  bool depthwise = false;        // Conv with groups == Cin == Cout (and Pool: channel-wise)
  bool fc = false;               // Gemm, or Conv with 1×1 spatial input and output
  int64_t batch = 1;             // Gemm: product of leading (broadcast) batch dims
  int64_t cin = 0, cout = 0;
  int64_t h_in = 1, w_in = 1, h_out = 1, w_out = 1;
  int64_t kh = 1, kw = 1, sh = 1, sw = 1, dh = 1, dw = 1;
  int64_t pt = 0, pl = 0, pb = 0, pr = 0;
  int64_t groups = 1;
  int bx = 8, by = 8, bw = 8;    // input / output / weight element bits (storage dtypes)
  int bx2 = 8;                   // Add: second input bits
  bool has_bias = false;
  int bb = 32;                   // bias bits
  int n_c = 0;                   // number of per-channel requant constants present (k, λ): 0..2
  int cb = 32;                   // bits of each constant (DORY BNRelu_bits)
  bool weights_const = true;     // Gemm with a runtime B operand (MatMul of two activations): false
  bool rows = false;             // a rows layer (see above)
  int n_in = 0;                  // runtime inputs of an element-wise / rows layer; 0: by kind (inputs())
  int64_t transient = 0;         // L1 scratch of the kernel, bytes (iSoftmax: one row buffer per core)

  int inputs() const { return n_in > 0 ? n_in : (kind == OpKind::Add || kind == OpKind::Mul ? 2 : 1); }
  // Element-wise geometry (C, H, W of the output, both inputs the same tile): Add, Mul,
  // Requant, Act, FloatChain on image tensors; rows layers have their own rule.
  bool eltwise() const {
    return !rows && (kind == OpKind::Add || kind == OpKind::Mul || kind == OpKind::Requant ||
                     kind == OpKind::Act || kind == OpKind::FloatChain);
  }

  int64_t weight_bytes() const;  // Cout·(Cin/g)·kh·kw·bw/8 (Gemm: K·N·bw/8)
  int64_t in_bytes() const;      // Cin·H·W·bx/8 (per batch element)
  int64_t out_bytes() const;     // Cout·Ho·Wo·by/8
  int64_t const_bytes() const;   // bias + κ/λ of all Cout
};

// Builds the geometry of a layer node; throws TilingError for a node the tiler cannot handle.
LayerGeom layer_geom(const Graph& g, int node);

// L3 -> L2 decision (docs/tiling.md "L3 slab (`L3Tiling`)"). When nothing is L3-tiled, slab == the
// whole layer.
struct L3Tiling {
  bool input_in_l3 = false;      // the layer's input is read from L3 (slabs of rows)
  bool output_in_l3 = false;     // the output is written back to L3 (slabs of rows)
  bool weights_in_l3 = false;    // weights streamed from L3 in Cout tiles
  int64_t n_out = 0;             // L2 slab: output channels (== Cout unless weights are tiled)
  int64_t h_out = 0;             // L2 slab: output rows (== Ho unless activations are tiled)
  int64_t h_in = 0;              // L2 slab: input rows
  int db_x = 1, db_w = 1, db_o = 1;   // L2 buffering of input, weights, output slabs
  bool tiled() const { return input_in_l3 || output_in_l3 || weights_in_l3; }
  bool operator==(const L3Tiling&) const = default;
};

// L2 -> L1 decision (docs/tiling.md "L1 tile"): the output tile extent and the input extent
// it needs, plus how the L1 buffers are multiplied.
struct L1Tiling {
  int64_t n_out = 0, h_out = 0, w_out = 0;
  int64_t n_in = 0, h_in = 0, w_in = 0;    // n_in < Cin only for partial-sum tilings
  int db = 1;                    // buffering factor the tile was sized with (1 or 2)
  bool whole = false;            // the whole L2 slab is one L1 tile (DORY's early exit)
  int64_t l1_bytes = 0;          // L1 footprint under the policy's own accounting
};

// Cross-layer decisions of the tuned flow (docs/tune.md "Network decisions"); the other
// policies leave them off.
struct NetTiling {
  // Weights homed in L3: their L3 -> L2 read is issued this many layer nodes before the layer
  // (0: where the network loop issues it). A layer that streams its weights in Cout slabs
  // (L3Tiling::weights_in_l3) issues its first slab loads, one per slab buffer, that early.
  int prefetch = 0;
  // The layer's constants (weights and per-channel vectors) are homed in L3 and staged into L2
  // for its step (read by the network loop with its weights, prefetched with them), even when
  // the network's constants would fit in L2.
  bool consts_l3 = false;
  // Depth-first fusion: this layer (a conv) and the conv that alone consumes its output run as
  // one step, tile by tile, the intermediate kept in L1 (the consumer's tiling gives the tiles).
  bool fuse = false;
  // Horizontal fusion: this layer (a conv) and its sibling — the next layer node that reads the
  // same input, a conv of the same window geometry — run as one step: each input tile is loaded
  // into L1 once and both layers compute on it (this layer's tiling gives the tiles; the
  // sibling's step is empty). compiler/schedule/build_siblings.cc.
  bool sibling = false;
  bool operator==(const NetTiling&) const = default;
};

struct LayerTiling {
  int node = -1;
  std::string policy;            // "dory", "dory-2021", "deeploy", ...
  L3Tiling l3;
  L1Tiling l1;
  NetTiling net;
  int64_t reported_l1 = -1;      // dory-2021: DORY's logged "Total L1 occupation" (else -1)
};

// Number of L1 tiles of a layer slab (⌈Cout/n⌉·⌈Ho/h⌉·⌈Wo/w⌉ per L2 slab, times slabs).
int64_t tile_count(const LayerGeom& g, const LayerTiling& t);

// A layer with no feasible tiling. The message names the layer and says the smallest budget of
// the failing level that would make it feasible (when one exists), e.g.
//   "layer 3 'Conv_12' (conv 3x3, 64->128, 32x32): no L2->L1 tiling fits the L1 budget of
//    10000 B under policy dory; needs at least 12345 B"
class TilingError : public std::runtime_error {
 public:
  TilingError(const std::string& msg, int node = -1, std::string level = "", int64_t min_budget = -1)
      : std::runtime_error(msg), node_(node), level_(std::move(level)), min_budget_(min_budget) {}
  int node() const { return node_; }
  const std::string& level() const { return level_; }   // "L1" or "L2"
  int64_t min_budget() const { return min_budget_; }    // -1 when unknown / none exists
 private:
  int node_;
  std::string level_;
  int64_t min_budget_;
};

}  // namespace edgesim
