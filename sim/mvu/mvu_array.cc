// MvuArray (mvu_array.h).
#include "sim/mvu/mvu_array.h"

#include <stdexcept>

#include <fmt/format.h>

namespace edgesim {

MvuArray::MvuArray(const sc_core::sc_module_name& name, JobListener& listener, const PlatformSpec& p)
    : sc_core::sc_module(name), p_(p) {
  for (int64_t u = 0; u < std::max<int64_t>(1, p.mvu.count); ++u) {
    const std::string n = fmt::format("mvu{}", u);
    units_.push_back(std::make_unique<FifoEngine>(n.c_str(), listener, fmt::format("mvu {}", u)));
  }
}

Engine& MvuArray::unit(int64_t u) {
  if (u < 0 || u >= units()) throw std::out_of_range(fmt::format("MVU unit {} does not exist (mvu.count {})", u, units()));
  return *units_[static_cast<size_t>(u)];
}

MvuConv MvuArray::conv_of(const Command& c) const {
  if (c.inputs.size() != 2 || c.outputs.size() != 1 || !std::holds_alternative<ConvParams>(c.params) ||
      c.inputs[0].shape.size() != 4 || c.outputs[0].shape.size() != 4)
    throw std::runtime_error("MVU command is not a 2-D convolution slice");
  const ConvParams& p = std::get<ConvParams>(c.params);
  const Shape& x = c.inputs[0].shape;
  MvuConv m;
  m.cin = x[1];
  m.cout = c.outputs[0].shape[1];
  m.h = x[2];
  m.w = x[3];
  m.fh = p.kh, m.fw = p.kw, m.sh = p.sh, m.sw = p.sw;
  m.pt = p.pad_t, m.pb = p.pad_b, m.pl = p.pad_l, m.pr = p.pad_r;
  m.a_bits = 8 * static_cast<int64_t>(dtype_size(c.inputs[0].dtype));
  m.w_bits = 8 * static_cast<int64_t>(dtype_size(c.inputs[1].dtype));
  m.out_bits = 8 * static_cast<int64_t>(dtype_size(c.outputs[0].dtype));
  return m;
}

MvuConvCost MvuArray::cost_of(const Command& c) const {
  return mvu_conv_cost(conv_of(c), p_.mvu, p_.ctrl, p_.mvu.geometry.empty() ? "generator" : p_.mvu.geometry);
}

void MvuArray::cost_job(Job& j, const Command& c) const {
  const MvuConvCost k = cost_of(c);
  j.kind = Job::Kind::Kernel;
  j.work = k.layer;
  j.lead = p_.mvu.xbar_latency;
  j.duration = k.total + p_.mvu.xbar_latency;
  j.core_cycles.clear();
  j.kernel = fmt::format("mvu conv {}x{} countdown {}", c.inputs[0].shape[1], c.outputs[0].shape[1], k.countdown);
}

}  // namespace edgesim
