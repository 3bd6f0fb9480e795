// Tile runs of one dimension, home strides and box-copy command shapes for the analytic cost
// (analytic_internal.h). The copy and layout rules mirror compiler/schedule/build_dma.cc and
// build_layout.cc (docs/schedule.md §2, §4.2); the schedule builder's own helpers for packed
// strides and 4-D views are reused so that both agree by construction.
#include <algorithm>
#include <numeric>

#include "compiler/schedule/build_internal.h"
#include "compiler/tune/analytic_internal.h"

namespace edgesim::tune_detail {

Shape home_strides(const Graph& g, int tensor, bool as4d) {
  const Shape& sh = g.tensor(tensor).shape;
  const int r = static_cast<int>(sh.size());
  std::vector<int> order(static_cast<size_t>(r));
  for (int i = 0; i < r; ++i) order[static_cast<size_t>(i)] = i;
  bool conv_w = false, gemm_b = false, gemm_b_trans = false;
  for (const Node& n : g.nodes)
    if (n.inputs.size() > 1 && n.inputs[1] == tensor) {
      if (n.kind() == OpKind::Conv) conv_w = true;
      if (n.kind() == OpKind::Gemm) gemm_b = true, gemm_b_trans = n.as<GemmParams>().trans_b;
    }
  if (conv_w && (r == 3 || r == 4)) {
    order = r == 4 ? std::vector<int>{0, 2, 3, 1} : std::vector<int>{0, 2, 1};
  } else if (gemm_b && r >= 2) {
    if (!gemm_b_trans) std::swap(order[static_cast<size_t>(r - 1)], order[static_cast<size_t>(r - 2)]);
  } else if (r == 4) {
    order = {0, 2, 3, 1};
  } else if (r == 3) {
    order = {0, 2, 1};
  }
  Shape st = sched::packed_strides(sh, order);
  if (as4d && sh.size() < 4) st = sched::to4d_strides(sh, st);
  return st;
}

Shape packed_like(const Shape& ext, const Shape& like) {
  // sched::packed_strides(ext, sched::order_of(like)) without temporaries: dims ordered by
  // descending stride of `like` (ties: lower dim outer), innermost stride 1.
  const size_t r = ext.size();
  int order[8];
  const size_t n = std::min<size_t>(r, 8);
  if (n < r) return sched::packed_strides(ext, sched::order_of(like));
  for (size_t i = 0; i < n; ++i) {
    order[i] = static_cast<int>(i);
    for (size_t j = i; j > 0 && like[static_cast<size_t>(order[j])] > like[static_cast<size_t>(order[j - 1])]; --j)
      std::swap(order[j], order[j - 1]);
  }
  Shape st(r, 1);
  int64_t acc = 1;
  for (size_t i = n; i-- > 0;) {
    st[static_cast<size_t>(order[i])] = acc;
    acc *= std::max<int64_t>(ext[static_cast<size_t>(order[i])], 1);
  }
  return st;
}

void copy_pieces(const Shape& ext, const Shape& src, const Shape& dst, int64_t esize, bool l1_is_dst,
                 std::vector<Piece>& out) {
  out.clear();
  int64_t numel = 1;
  for (int64_t e : ext) numel *= e;
  if (numel == 0) return;
  struct Dim {
    int64_t n, ss, ds;
  };
  Dim dims[8];
  size_t nd = 0;
  for (size_t d = 0; d < ext.size() && nd < 8; ++d)
    if (ext[d] > 1) dims[nd++] = Dim{ext[d], src[d], dst[d]};
  for (size_t i = 1; i < nd; ++i)   // stable insertion sort: descending source, then destination stride
    for (size_t j = i; j > 0; --j) {
      const Dim& a = dims[j];
      const Dim& b = dims[j - 1];
      if (!(a.ss != b.ss ? a.ss > b.ss : a.ds > b.ds)) break;
      std::swap(dims[j], dims[j - 1]);
    }
  Dim merged[8];   // innermost first
  size_t nm = 0;
  for (size_t i = nd; i-- > 0;) {
    const Dim& o = dims[i];
    if (nm > 0) {
      Dim& in = merged[nm - 1];
      if (o.ss == in.n * in.ss && o.ds == in.n * in.ds) {
        in.n *= o.n;
        continue;
      }
    }
    merged[nm++] = o;
  }
  int64_t row = esize;
  size_t first = 0;
  if (nm > 0 && merged[0].ss == 1 && merged[0].ds == 1) row = merged[0].n * esize, first = 1;
  Dim loops[8];   // outermost first
  size_t nl = 0;
  for (size_t i = nm; i-- > first;) loops[nl++] = merged[i];
  while (nl < 2) {
    for (size_t i = nl; i-- > 0;) loops[i + 1] = loops[i];
    loops[0] = Dim{1, 0, 0};
    ++nl;
  }
  const size_t extra = nl - 2;
  int64_t pieces = 1;
  for (size_t i = 0; i < extra; ++i) pieces *= loops[i].n;
  for (int64_t p = 0; p < pieces; ++p) {
    Piece pc;
    int64_t rest = p;
    for (size_t i = extra; i-- > 0;) {
      const int64_t k = rest % loops[i].n;
      rest /= loops[i].n;
      pc.l1_off += k * (l1_is_dst ? loops[i].ds : loops[i].ss) * esize;
    }
    pc.count[0] = loops[extra].n;
    pc.count[1] = loops[extra + 1].n;
    pc.count[2] = row;
    out.push_back(pc);
  }
}

CopyCost fast_copy_cost(const DmaTiming& t, const int64_t count[3], int64_t tcdm_addr, bool to_l1, int64_t gather_ch) {
  const int64_t total = count[0] * count[1] * count[2];
  const bool gather = gather_ch > 0;
  int64_t cmds = 0, lines = 0, line = 0;
  if (gather && total > 0 && total % gather_ch == 0) {
    cmds = gather_ch, lines = total / gather_ch, line = 1;        // one command per channel
  } else if (!gather && count[0] > 1) {
    cmds = count[0], lines = count[1], line = count[2];           // one 2-D command per row
  }
  if (cmds == 0 || lines * line > std::max<int64_t>(1, t.max_cmd_bytes))
    return dory_copy_cost(t, count, tcdm_addr, to_l1, gather, gather_ch);
  const int64_t W = std::max<int64_t>(1, t.word_bytes);
  const int64_t stride = lines * line;                            // TCDM offset between commands
  const int64_t period = W / std::gcd(stride % W, W);
  auto one = [&](int64_t k) {
    const int64_t addr = tcdm_addr + k * stride;
    return to_l1 ? mchan_in_cycles(t, lines, line, addr) : mchan_out_cycles(t, lines, line, addr);
  };
  int64_t per_period = 0, head = 0;
  const int64_t full = cmds / period, rest = cmds % period;
  for (int64_t k = 0; k < std::min(period, cmds); ++k) {
    const int64_t v = one(k);
    per_period += v;
    if (k < rest) head += v;
  }
  CopyCost c;
  c.commands = cmds;
  c.transfer = full * per_period + head;
  const int64_t i2 = mchan_issue_cycles(t, true);
  const int64_t nc = std::max<int64_t>(1, t.n_cores);
  const int64_t busiest = t.blocking || t.single_core_dma ? cmds : std::min(cmds, (cmds + nc - 1) / nc);
  c.issue = busiest * i2;
  if (t.blocking && cmds > 1) c.transfer += (cmds - 1) * t.wake_cycles;
  return c;
}

}  // namespace edgesim::tune_detail
