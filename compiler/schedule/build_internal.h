// Internal pieces of build_schedule() shared by the build_*.cc files (not a public contract).
//
//   build_layout.cc  home placements: storage order (HWC, [N,L,C], [Cout,kh,kw,Cin/g], Gemm B as
//                    [N,K] rows), home level (L2, or L3 when the tiling or the L2 budget says so)
//   build_dma.cc     strided box copies -> Dma commands (3-D count/stride form), and the
//                    dependency tracker that turns buffer reuse into `deps`
//   build_params.cc  tile-specialised OpParams (border pads, sliced bias / zero points / rq)
//   build_slabs.cc   L3 slab planning: which L2 slab buffer holds what an L3-homed operand needs
//   build_layer.cc   the tiled layer step (L3 slabs -> L2 -> L1 tiles)
//   build_whole.cc   whole-tensor steps in L2
//   build_relayout.cc graph I/O layout conversions, tiled through L1
//   build_loop.cc    the network loop: L3 -> L2 weight reads before (or ahead of) a layer
//   build.cc         orchestration, budgets, allocation and the overflow check
// A "region" is a tensor (or a part of it) stored in a buffer: its logical shape in kernel
// coordinates, element strides, and the logical coordinates of its first element (origin).
#pragma once
#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "kernels/ir/graph.h"
#include "compiler/ir/layout_domain.h"
#include "compiler/schedule/build.h"
#include "compiler/schedule/schedule.h"
#include "platforms/loader/spec.h"

namespace edgesim::sched {

struct Box {
  Shape start, ext;
  bool operator==(const Box& o) const { return start == o.start && ext == o.ext; }
  bool operator!=(const Box& o) const { return !(*this == o); }
  int64_t numel() const;
};

struct Region {
  int buffer = -1;
  int64_t offset = 0;            // bytes within the buffer of the element at `origin`
  DType dtype = DType::U8;
  Shape shape;                   // extent of the stored part (kernel coordinates)
  Shape strides;                 // element strides
  Shape origin;                  // logical coordinates of the stored part's first element
};

// Element strides of `shape` stored densely with dims nested in `order` (outermost first).
Shape packed_strides(const Shape& shape, const std::vector<int>& order);
// Storage order implied by strides (descending stride; ties: lower dim outermost).
std::vector<int> order_of(const Shape& strides);
// Rank-1..3 tensors as the 4-D views the conv / pool / add tiles use:
// [C] -> [1,C,1,1], [A,B] -> [A,B,1,1], [N,C,L] -> [N,C,1,L]. dim_map[d] = the 4-D axis of d.
std::vector<int> to4d_map(size_t rank);
Shape to4d_shape(const Shape& s);
Shape to4d_strides(const Shape& shape, const Shape& strides);

// ---- placements (build_layout.cc) ----
struct BuildContext {
  const Graph* g = nullptr;
  const PlatformSpec* spec = nullptr;
  Schedule* s = nullptr;
  std::map<int, const LayerTiling*> tiling_of;   // node -> tiling
  LayoutDomains domains;                          // layout_domains(g): HWC / sequence tensors
  int64_t l2_budget = 0;                          // tensors larger than this live in L3
  int64_t l1_budget = 0;
  bool layout_ops_in_l1 = false;                  // Budgets::layout_ops_in_l1 (build_whole.cc)
  int buffering = 2;              // 1 single, 2 double, 0 per layer (LayerTiling::l1.db)
  bool consts_in_l3 = false;                      // constants homed in L3 (docs/schedule.md §4.6)
  int next_cmd = 0;
  int last_step = 0;
  std::vector<int> step_sinks;                    // sink commands of the previous step
  std::vector<int> const_buffer;                  // node -> L2 buffer of its constant vectors (-1)
  // Network loop (build_loop.cc): "dory", "dory-2020" or "deeploy"; the L2 buffer the loop
  // reads each layer's L3-homed weights into (layer node -> buffer); the layers whose weights
  // are read at the start of a step (step -> layer nodes).
  std::string network_loop = "dory";
  std::map<int, int> loop_weights;
  std::map<int, std::vector<int>> loop_issue;
  // Prefetch (NetTiling::prefetch): layer node -> the step at whose start its weight reads are
  // issued; per step, step_sinks as the step began (what a read issued there waits for).
  std::map<int, int> ahead;
  std::vector<std::vector<int>> sinks_at;
  int last_ahead = -1;   // the last L3 read issued ahead (they form one chain)
  // Fused pairs (NetTiling::fuse, build_fused.cc): producer -> consumer and back; the
  // intermediate tensors, which get no home.
  std::map<int, int> fused_next, fused_prev;
  std::set<int> unplaced;
  // Sibling pairs (NetTiling::sibling, build_siblings.cc): first -> second and back.
  std::map<int, int> sibling_next, sibling_prev;
  // The step that runs a layer: its own, its producer's when it is fused into it, or its
  // sibling's when it runs with it.
  int run_step(int node) const {
    if (const auto it = fused_prev.find(node); it != fused_prev.end()) return it->second;
    if (const auto it = sibling_prev.find(node); it != sibling_prev.end()) return it->second;
    return node;
  }
  // DIANA's analog core: the layer and weight box whose weights the array holds (-1: none).
  int aimc_node = -1;
  Box aimc_weights;
};

int add_buffer(Schedule& s, Level level, int64_t bytes, const std::string& name, int first, int last);
void place_tensors(BuildContext& ctx);
// A Reshape whose output shares its input's bytes (both row-major): its step has no commands.
bool is_alias_reshape(const BuildContext& ctx, int node);
// The home region of a tensor; with as4d, rank 1..3 shown as 4-D (conv / pool / add tiles).
Region home_region(const BuildContext& ctx, int tensor, bool as4d);
// The home region of a row-major tensor as the 2-D [rows, last axis] view of a rows layer
// (compiler/ir/layout_domain.h); false when its leading axes cannot be merged (not row-major).
bool rows_region(const BuildContext& ctx, int tensor, Region& out);
Level home_level(const BuildContext& ctx, int tensor);
// A dense region (L1 tile, L2 slab or staging copy) holding `box` in the storage order of `like`.
Region packed(int buffer, int64_t offset, const Region& like, const Box& box);
// The part of region r that holds `box` (logical coordinates), read in place: same buffer and
// strides, offset moved to the box's first element.
Region sub_region(const Region& r, const Box& box);
BufView view_of(const Region& r);

// ---- commands and dependencies (build_dma.cc) ----
// Tracks, per buffer, the commands that wrote it since it was last read and the commands that
// read it since it was last written, so that reuse of a buffer becomes deps (RAW and WAR).
class StepEmitter {
 public:
  StepEmitter(BuildContext& ctx, Step& step, bool serial);
  int emit(Command c, const std::vector<int>& reads, const std::vector<int>& writes);
  // While set, commands without deps inside the step wait for `roots` instead of the previous
  // step's sinks (a read issued at an earlier step's start: BuildContext::sinks_at), and are
  // marked Command::loop (the network loop issues them, not the layer's own code).
  // `chain`: L3 reads join the chain of reads issued ahead (BuildContext::last_ahead); a read
  // issued at its own step's start does not.
  void issue_ahead(std::vector<int> roots, bool chain = true) { roots_ = std::move(roots), ahead_ = true, chain_ = chain; }
  void issue_here() { ahead_ = false; }
  // Copies `box` (coordinates of the logical tensor) from one region to another; returns the
  // ids of the Dma commands (none for an empty box).
  // `loop`: the copies are the network loop's (Command::loop).
  std::vector<int> copy(const Region& src, const Region& dst, const Box& box, const std::string& engine,
                        const std::string& note, bool loop = false);
  void finish();   // records the step's sink commands for the next step's barrier
 private:
  BuildContext& ctx_;
  Step& step_;
  bool serial_;
  bool ahead_ = false;
  bool chained_ = false;   // serial: a command of the step's own chain was emitted
  bool chain_ = true;      // issuing ahead: L3 reads join BuildContext::last_ahead's chain
  std::vector<int> roots_;
  std::set<int> ahead_ids_;   // commands emitted while issuing ahead
  int prev_ = -1;
  std::map<int, std::vector<int>> writers_, readers_;
};

// ---- constant vectors of a layer step (build_consts.cc) ----
struct ConstVec;
struct ConstHome {
  std::vector<Region> regions;   // per vector, in its L2 buffer (resident, or the staging buffer)
  int l3 = -1;                   // staged: the L3 home, copied whole into the staging buffer
  int64_t bytes = 0;             // all vectors
  int issue = -1;                // staged and read ahead: the step whose start issues the copy
  int run = -1;                  // staged: the step that runs the layer
};
// run_step: the step that runs the layer (the staging buffer lives until it).
// full: the layer's whole vectors when not the node's own const_vectors (rows layers, aimc).
ConstHome const_home(BuildContext& ctx, int node, const LayerTiling& t, const Shape& out_shape, int run_step,
                     const std::vector<ConstVec>* full = nullptr);
// The staging copy of a staged home (ahead when the layer's reads are prefetched); nothing else.
void emit_const_stage(BuildContext& ctx, StepEmitter& em, const ConstHome& h, const std::string& layer);

// ---- tile params (build_params.cc) ----
// Output box in kernel coordinates of the node's output (4-D for conv / pool / add).
struct TileParams {
  OpParams params;
  std::vector<Box> in_boxes;     // per node input, in that input's kernel coordinates
};
TileParams tile_params(const Graph& g, const Node& n, const std::vector<Shape>& in_shapes,
                       const Shape& out_shape, const Box& out_box);
// Constant vectors (bias, zero points, requant) of a layer as they travel in bytes: each
// non-scalar vector of 4-byte entries, with its full shape and the box one tile needs.
struct ConstVec {
  std::string name;
  Shape shape;
  Box box;
};
std::vector<ConstVec> const_vectors(const Graph& g, const Node& n, const Shape& out_shape, const Box& out_box);
// The requant a params struct fuses (its `rq` member), or nullptr.
Requant* fused_requant(OpParams& p);
// Rows layers (build_rows.cc): the node's params for a tile of whole rows of the 2-D
// [rows, last axis] view (a per-channel requant moves to axis 1), every input reading the
// output's box; constant vectors along axis 1 (norm weight / bias, per-channel requant).
TileParams rows_tile_params(const Node& n, const std::vector<Shape>& in_shapes, const Box& out_box);
std::vector<ConstVec> rows_const_vectors(const Node& n, const Box& out_box);

// ---- L3 slabs (build_slabs.cc) ----
// How one operand homed in L3 is staged through L2 for a layer step: per L2 slab the box it
// needs (bounding box of its tiles' boxes), whether that is a new load (output: always a new
// store) and which slab buffer holds it.
struct SlabPlan {
  bool active = false;
  std::vector<Box> box;          // per slab
  std::vector<bool> load;        // a new box at this slab
  std::vector<int> buf;          // slab buffer used at this slab
  std::vector<int> bufs;         // the slab buffers (1 to kMaxSlabBuffers)
};
inline constexpr int kMaxSlabBuffers = 64;   // the tuned flow's deepest weight ring (PrefetchPlanner::kMaxRing)
Box bounding(const std::vector<Box>& boxes);
SlabPlan plan_slabs(Schedule& s, const Region& home, const std::vector<std::vector<Box>>& tile_boxes, int db,
                    bool output, const std::string& tag, const std::string& node_name, int step);

// ---- network loop (build_loop.cc) ----
// ScheduleOptions::network_loop "auto" resolved for a policy; throws on an unknown name.
std::string resolve_network_loop(const std::string& requested, const std::string& policy);
// After place_tensors: which layers' weights the loop reads, into which L2 buffers, when.
void plan_network_loop(BuildContext& ctx);
// Before a step's own commands: the loop reads issued at its start (sets step_sinks when the
// step's commands must wait for them), and the reads of this layer's weights issued ahead
// (NetTiling::prefetch; the layer waits for them besides the previous step).
void emit_loop_reads(BuildContext& ctx, int step);

// ---- steps ----
void build_whole_step(BuildContext& ctx, int node);
// Fused pairs (build_fused.cc): why producer p cannot be fused with its consumer ("" when it
// can); the consumer of p's output; the fused step (built at p's step; the consumer's is empty).
std::string check_fusion(const Graph& g, int p, const std::map<int, const LayerTiling*>& tiling_of);
int fused_consumer(const Graph& g, int p);
void build_fused_step(BuildContext& ctx, int p, const LayerTiling& tp, int c, const LayerTiling& tc);
// Bytes of `box` stored like `like`; a tile extent `v` (<= 0: the whole `full`) clipped to `full`.
inline int64_t region_bytes(const Region& like, const Box& box) {
  return box.numel() * static_cast<int64_t>(dtype_size(like.dtype));
}
inline int64_t tile_extent(int64_t v, int64_t full) { return v <= 0 ? full : std::min(v, full); }
// A layer's weights as its step reads them: from the L2 buffer the network loop copied them into
// whole (build_loop.cc) when there is one, else from their home `home`.
inline Region loop_weights_home(const BuildContext& ctx, int node, const Region& home) {
  const auto lw = ctx.loop_weights.find(node);
  return lw == ctx.loop_weights.end() ? home : packed(lw->second, 0, home, Box{Shape(home.shape.size(), 0), home.shape});
}
// n L1 buffers of `bytes` named "<tag>[i] L1 <name>", living for step `step`.
std::vector<int> add_l1_buffers(Schedule& s, const std::string& tag, int64_t bytes, int n, const std::string& name, int step);
// Shared by the fused and sibling steps (build_fused.cc): a layer's constant vectors copied whole
// into the L1 buffer `buf` (one after the other, 4 B per entry); and one conv layer's compute on a
// tile: input `in` (in L1 buffer `in_buf`), its weights (L1 buffer `w_l1`, packed whole from
// `w_home`) cut to the tile's weight box, its constants in `c_l1` (-1: none), output `out` (the
// tile `out_box`, `cin` input channels) in buffer `out_buf`.
void load_const_vectors(StepEmitter& em, const ConstHome& h, int buf, const std::string& layer);
struct ConvTileIo {
  Region in;
  int in_buf = -1;
  int w_l1 = -1;
  Region w_home;
  int c_l1 = -1;
  Region out;
  Box out_box;
  int out_buf = -1;
  int64_t cin = 0;
};
void emit_conv_tile(StepEmitter& em, int node, const Node& n, const TileParams& tp, const std::string& tile,
                    const ConvTileIo& io);
// Sibling pairs (build_siblings.cc; sibling_of and check_siblings in build.h): the step running
// both (built at the first's step; the sibling's is empty).
void build_sibling_step(BuildContext& ctx, int a, const LayerTiling& ta, int b, const LayerTiling& tb);
// A conv on the BARVINN MVU array: output rows split over the MVUs (build_mvu.cc).
void build_mvu_step(BuildContext& ctx, int node);
// Returns false when the layer cannot be tiled (the caller then builds a whole-tensor step).
bool build_layer_step(BuildContext& ctx, int node, const LayerTiling& t);
// A graph I/O layout conversion (io_layout.h) tiled through L1 as Deeploy's solver tiles a
// Transpose (build_relayout.cc); false when it cannot be (a side in L3, not even one element
// fits): the caller builds a whole step.
bool build_relayout_step(BuildContext& ctx, int node);

std::string node_label(const Graph& g, int node);   // "node 3 'Conv_12' (conv)"

}  // namespace edgesim::sched
