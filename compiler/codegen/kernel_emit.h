// Kernel emitters: one per graph op kind, turning a Compute command of the Schedule into the C
// call of its portable kernel (kernels/c/es_kernels.h through runtime/es_run.h). Each emitter
// normalises the command's views the way the reference kernel reads them (rank-3 conv / pool
// views as 4-D, Gemm operands K-last, broadcast axes with stride 0, Transpose as a permuted
// view, Concat and Pad as copies into sub-views) and writes the tile's params as C constants.
//
// Registration: kernel_emitters() maps an OpKind to its emitter; a new op adds its emitter
// there. A Compute whose op has none is a CodegenError naming the node and the supported ops.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

#include "compiler/codegen/layer_data.h"
#include "compiler/codegen/stmt.h"
#include "kernels/ir/graph.h"
#include "compiler/schedule/schedule.h"

namespace edgesim::codegen {

class CodegenError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A view as the generated code sees it: a level's base pointer plus a byte offset.
struct CView {
  std::string base;              // "es_l1", "es_l2", "es_wmem"
  int64_t offset = 0;            // bytes from the level's start
  DType dtype = DType::U8;
  Shape shape, strides;          // strides in elements
};

struct ComputeEmit {
  const Graph& graph;
  const Schedule& schedule;
  const Command& command;
  LayerData& data;
  StmtBuilder& out;
  int64_t& npu_scratch;          // bytes of decoded NPU weights the program must provide (max)

  CView view(const BufView& v) const;   // throws CodegenError for a view into L3
  void emit_view(const CView& v);       // "&(es_view_t){...}" with the integers as holes
  std::string who() const;              // "node 'name' (op)" for errors
};

using KernelEmitter = void (*)(ComputeEmit&);

struct KernelEntry {
  OpKind kind;
  KernelEmitter emit;
};
const std::vector<KernelEntry>& kernel_emitters();
// Emits the call for c (engine cluster, npu or mvu) with the emitter `table` registers for its
// op; throws CodegenError naming the node, its op and the supported ops when there is none.
void emit_compute(ComputeEmit& e, const std::vector<KernelEntry>& table = kernel_emitters());

// Shared by the emitters (kernel_emit_util.cc).
CView as_4d(const CView& v);
// v right-aligned to `shape` (same or lower rank): missing leading axes and axes of extent 1
// that `shape` broadcasts get stride 0.
CView broadcast_to(const CView& v, const Shape& shape);
std::string c_dtype(DType t);
std::string rq_init(const Requant& rq, LayerData& data, int axis);   // es_rq_t initializer

}  // namespace edgesim::codegen
