// Aimc (aimc.h).
#include "sim/aimc/aimc.h"

#include <stdexcept>

namespace edgesim {

Aimc::Aimc(const sc_core::sc_module_name& name, JobListener& listener, const PlatformSpec& p)
    : ProgramOrderEngine(name, listener, "analog"), p_(p) {}

AimcJob Aimc::job_of(const Command& c) const {
  const auto* p = std::get_if<ConvParams>(&c.params);
  if (!p || c.inputs.empty() || c.outputs.size() != 1 || c.inputs[0].shape.size() != 4 ||
      c.outputs[0].shape.size() != 4)
    throw std::runtime_error("the analog core runs 2-D convolution commands only");
  const Shape& x = c.inputs[0].shape;
  const Shape& y = c.outputs[0].shape;
  AimcJob j;
  j.c = x[1], j.k = y[1], j.oy = y[2], j.ox = y[3], j.fy = p->kh, j.fx = p->kw, j.stride = p->sw;
  j.program = c.aimc_program;
  return j;
}

void Aimc::cost_job(Job& j, const Command& c) const {
  const AimcCost k = cost_of(c);
  j.kind = Job::Kind::Kernel;
  j.duration = k.cycles;
  j.work = k.compute;
  j.lead = k.config + k.program;
  j.kernel = k.program > 0 ? "aimc_program_conv" : "aimc_conv";
  j.core_cycles.clear();
}

}  // namespace edgesim
