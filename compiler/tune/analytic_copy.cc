// Copy costs of the analytic model (analytic_layer.h): the commands of a box copy
// (copy_pieces) priced with the cluster DMA's issue and transfer functions, or the uDMA's, plus
// a per-thread memo of command costs (the same shapes recur across tile classes and candidates).
#include <array>
#include <cmath>

#include "compiler/tune/analytic_layer.h"
#include "platforms/util/hash.h"

namespace edgesim::tune_detail {

namespace {

bool same_timing(const DmaTiming& a, const DmaTiming& b) {
  return a.burst_bytes == b.burst_bytes && a.tcdm_ports == b.tcdm_ports && a.word_bytes == b.word_bytes &&
         a.setup == b.setup && a.max_outstanding == b.max_outstanding && a.ext_latency == b.ext_latency &&
         a.l2_latency == b.l2_latency && a.l2_bw == b.l2_bw && a.id_cycles == b.id_cycles &&
         a.reg_cycles == b.reg_cycles && a.sw_cycles == b.sw_cycles && a.words_1d == b.words_1d &&
         a.words_2d == b.words_2d && a.wake_cycles == b.wake_cycles && a.n_cores == b.n_cores &&
         a.single_core_dma == b.single_core_dma && a.blocking == b.blocking && a.max_cmd_bytes == b.max_cmd_bytes;
}

}  // namespace

uint64_t timing_generation(const DmaTiming& tx, const DmaTiming& ti) {
  thread_local DmaTiming last_tx, last_ti;
  thread_local uint64_t gen = 0;
  if (gen == 0 || !same_timing(tx, last_tx) || !same_timing(ti, last_ti)) last_tx = tx, last_ti = ti, ++gen;
  return gen;
}

namespace {

// Copy costs recur across the tile classes and candidates of a layer: a small direct-mapped
// memo per thread, keyed by the command shape, the TCDM word offset, the direction, the gather
// and the timing generation (Env::gen changes whenever the timing parameters do).
struct MemoEntry {
  int64_t c0 = -1, c1 = 0, c2 = 0, addr = 0, gather = 0;
  uint64_t tag = 0;
  CopyCost v;
};

CopyCost memo_copy(const Env& e, bool issue_timing, const int64_t count[3], int64_t addr, bool to_l1, int64_t gather) {
  thread_local std::array<MemoEntry, 4096> memo;
  const DmaTiming& t = issue_timing ? e.ti : e.tx;
  if (t.word_bytes > 0) addr %= t.word_bytes;   // only the word offset matters (kernels/dma/mchan_cost.cc)
  const uint64_t tag = (e.gen << 2) | (issue_timing ? 2u : 0u) | (to_l1 ? 1u : 0u);
  Fnv1a h;
  for (int64_t v : {count[0], count[1], count[2], addr, gather, static_cast<int64_t>(tag)}) h.word(static_cast<uint64_t>(v));
  MemoEntry& m = memo[(h.value() >> 20) & (memo.size() - 1)];
  if (m.c0 == count[0] && m.c1 == count[1] && m.c2 == count[2] && m.addr == addr && m.gather == gather && m.tag == tag)
    return m.v;
  m = MemoEntry{count[0], count[1], count[2], addr, gather, tag, fast_copy_cost(t, count, addr, to_l1, gather)};
  return m.v;
}

}  // namespace

Dma l1_copy(Env& e, const Shape& ext, const Shape& src, const Shape& dst, int64_t esize, bool to_l1,
            int64_t l1_base, int64_t gather_ch) {
  Dma r;
  copy_pieces(ext, src, dst, esize, to_l1, e.pieces);
  for (const Piece& p : e.pieces) {
    const int64_t addr = l1_base + p.l1_off;
    const CopyCost c = memo_copy(e, false, p.count, addr, to_l1, gather_ch);
    r.issue += e.split_issue ? memo_copy(e, true, p.count, 0, true, gather_ch).issue : c.issue;
    if (e.simple)
      r.transfer += e.tx.setup + (e.tx.ext_latency ? e.tx.l2_latency : 0) + static_cast<int64_t>(std::ceil(
                                     static_cast<double>(p.count[0] * p.count[1] * p.count[2]) / e.simple_bpc));
    else
      r.transfer += c.transfer;
  }
  return r;
}

int64_t l3_copy(Env& e, const Shape& ext, const Shape& src, const Shape& dst, int64_t esize) {
  copy_pieces(ext, src, dst, esize, true, e.pieces);
  int64_t r = 0;
  for (const Piece& p : e.pieces) r += l3_copy_cycles(e.l3, p.count[0] * p.count[1], p.count[2]);
  return r;
}

}  // namespace edgesim::tune_detail
