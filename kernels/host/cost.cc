// Host (riscv_host) loop-nest costs (cost.h).
#include "kernels/host/cost.h"

#include <algorithm>
#include <stdexcept>

namespace edgesim {

namespace {

int64_t numel(const Shape& s) {
  int64_t n = 1;
  for (int64_t d : s) n *= std::max<int64_t>(d, 0);
  return n;
}

void require(const HostCostSpec& h) {
  if (!h.present) throw std::invalid_argument("host cost model: platform has no cluster.host_cost section");
}

KernelCost finish(std::string kernel, int64_t body, const HostCostSpec& h) {
  KernelCost k;
  k.kernel = std::move(kernel);
  k.overhead = h.call;
  k.cycles = h.call + body;
  k.core_cycles = {body};
  return k;
}

// The padded input copy of a conv or pool: a (C, Hp, Wp) nest per batch element.
int64_t pad_copy(int64_t n, int64_t c, int64_t hp, int64_t wp, const HostCostSpec& h) {
  return h.loop * host_loop_iterations({n, c, hp, wp}) + n * c * hp * wp * h.pad;
}

}  // namespace

int64_t host_loop_iterations(const std::vector<int64_t>& extents) {
  int64_t total = 0, prod = 1;
  for (int64_t e : extents) {
    if (e <= 0) return total;
    if (e == 1) continue;
    prod *= e;
    total += prod;
  }
  return total;
}

KernelCost host_conv_cost(const ConvParams& p, const Shape& x, const Shape& y, const HostCostSpec& h) {
  require(h);
  if (x.size() != 4 || y.size() != 4) throw std::invalid_argument("host cost model: conv views must be rank 4");
  const int64_t n = y[0], cout = y[1], ho = y[2], wo = y[3];
  const int64_t cg = p.groups > 0 ? x[1] / p.groups : x[1];
  int64_t body = 0;
  if (p.pad_t || p.pad_b || p.pad_l || p.pad_r)
    body += pad_copy(n, x[1], x[2] + p.pad_t + p.pad_b, x[3] + p.pad_l + p.pad_r, h);
  body += h.loop * host_loop_iterations({n, cout, ho, wo, cg, p.kh, p.kw});
  body += numel(y) * (h.out + cg * p.kh * p.kw * h.mac);
  return finish(p.groups > 1 ? "tvm_conv2d_grouped" : "tvm_conv2d", body, h);
}

KernelCost host_gemm_cost(const GemmParams& p, const Shape& a, const Shape& y, const HostCostSpec& h) {
  require(h);
  if (a.size() < 2 || y.size() < 2) throw std::invalid_argument("host cost model: gemm operands must be rank >= 2");
  const int64_t k = p.trans_a ? a[a.size() - 2] : a[a.size() - 1];
  const int64_t m = y[y.size() - 2], nn = y[y.size() - 1];
  const int64_t batch = numel(y) / std::max<int64_t>(1, m * nn);
  int64_t body = h.loop * host_loop_iterations({batch, m, nn, k});
  body += numel(y) * (h.out + k * h.mac);
  return finish("tvm_dense", body, h);
}

KernelCost host_pool_cost(const PoolParams& p, const Shape& x, const Shape& y, const HostCostSpec& h) {
  require(h);
  if (x.size() != 4 || y.size() != 4) throw std::invalid_argument("host cost model: pool views must be rank 4");
  const int64_t n = y[0], c = y[1], ho = y[2], wo = y[3];
  int64_t body = 0;
  if (p.pad_t || p.pad_b || p.pad_l || p.pad_r)
    body += pad_copy(n, c, x[2] + p.pad_t + p.pad_b, x[3] + p.pad_l + p.pad_r, h);
  body += h.loop * host_loop_iterations({n, c, ho, wo, p.kh, p.kw});
  body += numel(y) * (h.out + p.kh * p.kw * h.mac);
  return finish(p.kind == PoolParams::Kind::Max ? "tvm_max_pool2d" : "tvm_avg_pool2d", body, h);
}

KernelCost host_eltwise_cost(const std::string& kernel, int64_t elements, const HostCostSpec& h) {
  require(h);
  const int64_t e = std::max<int64_t>(elements, 0);
  return finish("tvm_" + kernel, h.loop * host_loop_iterations({e}) + e * h.elem, h);
}

}  // namespace edgesim
