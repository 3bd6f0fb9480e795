// Soma (soma.h).
#include "sim/soma/soma.h"

#include <stdexcept>

namespace edgesim {

Soma::Soma(const sc_core::sc_module_name& name, JobListener& listener, const PlatformSpec& p)
    : ProgramOrderEngine(name, listener, "digital"), p_(p) {}

SomaJob Soma::job_of(const Command& c) const {
  if (c.inputs.empty() || c.outputs.size() != 1) throw std::runtime_error("SOMA command without operands");
  const Shape& x = c.inputs[0].shape;
  const Shape& y = c.outputs[0].shape;
  SomaJob j;
  if (const auto* p = std::get_if<ConvParams>(&c.params)) {
    if (x.size() != 4 || y.size() != 4) throw std::runtime_error("SOMA conv command without 4-D views");
    j.op = p->groups > 1 ? SomaOp::Depthwise : SomaOp::Conv;
    j.c = x[1], j.k = y[1], j.oy = y[2], j.ox = y[3], j.fy = p->kh, j.fx = p->kw;
  } else if (const auto* g = std::get_if<GemmParams>(&c.params)) {
    if (x.size() < 2 || y.size() < 2) throw std::runtime_error("SOMA dense command without 2-D views");
    j.op = SomaOp::Dense;
    j.c = g->trans_a ? x[x.size() - 2] : x.back();
    j.k = y.back();
    j.rows = y[y.size() - 2];
  } else if (std::holds_alternative<AddParams>(c.params)) {
    j.op = SomaOp::Add;
    j.elements = 1;
    for (int64_t d : y) j.elements *= d;
  } else if (const auto* q = std::get_if<PoolParams>(&c.params)) {
    if (y.size() != 4) throw std::runtime_error("SOMA pool command without 4-D views");
    j.op = SomaOp::Pool;
    j.c = j.k = y[1], j.oy = y[2], j.ox = y[3], j.fy = q->kh, j.fx = q->kw;
  } else {
    throw std::runtime_error("the SOMA runs conv, dense, add and pool commands only");
  }
  return j;
}

void Soma::cost_job(Job& j, const Command& c) const {
  const SomaCost k = cost_of(c);
  j.kind = Job::Kind::Kernel;
  j.duration = k.cycles;
  j.work = k.compute;
  j.lead = k.config;
  j.kernel = k.kernel;
  j.core_cycles.clear();
}

}  // namespace edgesim
