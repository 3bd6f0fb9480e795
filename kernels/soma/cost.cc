// soma_job_cost (cost.h).
#include "kernels/soma/cost.h"

#include <stdexcept>

namespace edgesim {

namespace {

int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace

const char* soma_op_name(SomaOp op) {
  switch (op) {
    case SomaOp::Conv: return "conv";
    case SomaOp::Depthwise: return "depthwise";
    case SomaOp::Dense: return "dense";
    case SomaOp::Add: return "add";
    case SomaOp::Pool: return "pool";
  }
  return "?";
}

SomaCost soma_job_cost(const SomaJob& j, const NpuSpec& npu) {
  if (!npu.present || npu.impl != "soma") throw std::invalid_argument("SOMA cost model: npu.impl is not soma");
  const int64_t pk = npu.pe_k, px = npu.pe_ox;
  if (pk < 1 || px < 1) throw std::invalid_argument("SOMA cost model: npu.pe_k and npu.pe_ox must be >= 1");
  const bool add = j.op == SomaOp::Add;
  if (add ? j.elements < 0 : (j.k < 1 || j.c < 1 || j.ox < 1 || j.oy < 1 || j.fx < 1 || j.fy < 1 || j.rows < 1))
    throw std::invalid_argument("SOMA cost model: non-positive extent in a " + std::string(soma_op_name(j.op)) + " job");
  SomaCost r;
  r.kernel = std::string("soma_") + soma_op_name(j.op);
  switch (j.op) {
    case SomaOp::Conv:
      r.compute = cdiv(j.k, pk) * cdiv(j.ox, px) * j.oy * j.c * j.fy * j.fx;
      r.macs = j.k * j.ox * j.oy * j.c * j.fy * j.fx;
      break;
    case SomaOp::Depthwise:
      r.compute = cdiv(j.c, pk) * cdiv(j.ox, px) * j.oy * pk * j.fy * j.fx;
      r.macs = j.c * j.ox * j.oy * j.fy * j.fx;
      break;
    case SomaOp::Dense:
      r.compute = j.rows * cdiv(j.k, pk) * j.c;
      r.macs = j.rows * j.k * j.c;
      break;
    case SomaOp::Add: {
      if (npu.add_elems_per_cycle <= 0) throw std::invalid_argument("SOMA cost model: npu.add_elems_per_cycle must be > 0");
      const double t = static_cast<double>(j.elements) / npu.add_elems_per_cycle;
      r.compute = static_cast<int64_t>(t);
      if (static_cast<double>(r.compute) < t) ++r.compute;
      break;
    }
    case SomaOp::Pool:
      if (npu.pool_ox < 1 || npu.pool_fx < 1 || npu.pool_fy < 1)
        throw std::invalid_argument("SOMA cost model: npu.pool_ox, pool_fx, pool_fy must be >= 1");
      r.compute = j.c * j.oy * cdiv(j.ox, npu.pool_ox) * cdiv(j.fx, npu.pool_fx) * cdiv(j.fy, npu.pool_fy);
      break;
  }
  r.config = npu.cfg_cycles;
  r.cycles = r.compute + r.config;
  if (r.macs > 0 && r.compute > 0) r.utilisation = static_cast<double>(r.macs) / static_cast<double>(pk * px * r.compute);
  return r;
}

}  // namespace edgesim
