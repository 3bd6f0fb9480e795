// DORY's L2↔L1 command structure (docs/timing.md "How DORY issues a schedule copy", [12]
// dory_dma.c) for one schedule copy of count[0]·count[1] rows of count[2] contiguous bytes
// (docs/schedule.md §4.2 "DMA shapes"), and the copy's totals on the DMA engine and on the issuing
// cores.
// Rules: {1,1,n} → one 1-D command by core 0 (rule 1); {1,L,ℓ} → one 2-D command of L lines by
// core 0 (rule 2); {R,L,ℓ} with R > 1 → one 2-D command per row, rows split chunk(R) =
// ⌈R/n_cores⌉ per core, core c taking rows [c·chunk, (c+1)·chunk) (rule 3); a depthwise gather
// of P pixels × C channels → one 2-D command per channel of P one-byte lines, channels split
// chunk(C) per core (rule 4). single_core_dma: core 0 issues everything (rule 5, GAP9).
// Command size limit: a command moves at most max_cmd_bytes (MCHAN's length field). A larger
// 1-D run becomes several 1-D commands; a larger 2-D command becomes several 2-D commands of
// ⌊max_cmd_bytes/ℓ⌋ lines each, or — when a single line exceeds the limit — 1-D commands per
// line. The pieces stay with the core that owns the original command. DORY itself does not
// split (its tiler keeps tiles below the limit); this only keeps the model defined.
// Blocking (GAP8, rule 5): see dory_copy_cost in cost.h — one serial chain of issue, transfer
// and T_wake per command.
// Not modelled: the order in which commands of different cores reach the engine (totals only).
#include <algorithm>
#include <stdexcept>
#include <string>

#include "kernels/dma/cost.h"

namespace edgesim {
namespace {

void emit_1d(int64_t bytes, int64_t offset, int core, int64_t max_bytes, std::vector<MchanCommand>& out) {
  for (int64_t done = 0; done < bytes; done += max_bytes)
    out.push_back({1, std::min(max_bytes, bytes - done), offset + done, false, core});
}

// One 2-D command of `lines` × `line_bytes` (TCDM offset `offset`), split at max_bytes.
void emit_2d(int64_t lines, int64_t line_bytes, int64_t offset, int core, int64_t max_bytes,
             std::vector<MchanCommand>& out) {
  if (line_bytes > max_bytes) {
    for (int64_t k = 0; k < lines; ++k) emit_1d(line_bytes, offset + k * line_bytes, core, max_bytes, out);
    return;
  }
  const int64_t per_cmd = std::max<int64_t>(1, max_bytes / line_bytes);
  for (int64_t k = 0; k < lines; k += per_cmd)
    out.push_back({std::min(per_cmd, lines - k), line_bytes, offset + k * line_bytes, true, core});
}

int owner(const DmaTiming& t, int64_t index, int64_t total) {
  if (t.single_core_dma) return 0;
  const int64_t chunk = (total + std::max<int64_t>(1, t.n_cores) - 1) / std::max<int64_t>(1, t.n_cores);
  return static_cast<int>(index / chunk);
}

}  // namespace

std::vector<MchanCommand> dory_commands(const DmaTiming& t, const int64_t count[3], bool depthwise_gather,
                                        int64_t gather_channels) {
  for (int k = 0; k < 3; ++k)
    if (count[k] < 0)
      throw std::invalid_argument("dory_commands: negative count[" + std::to_string(k) +
                                  "] = " + std::to_string(count[k]));
  std::vector<MchanCommand> out;
  const int64_t total = count[0] * count[1] * count[2];
  if (total == 0) return out;
  const int64_t max_bytes = std::max<int64_t>(1, t.max_cmd_bytes);

  if (depthwise_gather) {
    const int64_t channels = gather_channels > 0 ? gather_channels : count[2];
    if (total % channels != 0)
      throw std::invalid_argument("dory_commands: depthwise gather of " + std::to_string(total) +
                                  " bytes is not a whole number of pixels of " +
                                  std::to_string(channels) + " channels");
    const int64_t pixels = total / channels;
    out.reserve(static_cast<size_t>(channels));
    for (int64_t ch = 0; ch < channels; ++ch)  // CHW in L1: channel ch at ch·pixels
      emit_2d(pixels, 1, ch * pixels, owner(t, ch, channels), max_bytes, out);
    return out;
  }
  if (count[0] == 1 && count[1] == 1) {
    emit_1d(count[2], 0, 0, max_bytes, out);
  } else if (count[0] == 1) {
    emit_2d(count[1], count[2], 0, 0, max_bytes, out);
  } else {
    const int64_t row_bytes = count[1] * count[2];
    out.reserve(static_cast<size_t>(count[0]));
    for (int64_t r = 0; r < count[0]; ++r)
      emit_2d(count[1], count[2], r * row_bytes, owner(t, r, count[0]), max_bytes, out);
  }
  return out;
}

CopyCost dory_copy_cost(const DmaTiming& t, const int64_t count[3], int64_t tcdm_addr, bool to_l1,
                        bool depthwise_gather, int64_t gather_channels) {
  const std::vector<MchanCommand> cmds = dory_commands(t, count, depthwise_gather, gather_channels);
  CopyCost c;
  c.commands = static_cast<int64_t>(cmds.size());
  std::vector<int64_t> per_core;
  int64_t issue_sum = 0;
  for (const MchanCommand& m : cmds) {
    const int64_t addr = tcdm_addr + m.tcdm_offset;
    c.transfer += to_l1 ? mchan_in_cycles(t, m.lines, m.line_bytes, addr)
                        : mchan_out_cycles(t, m.lines, m.line_bytes, addr);
    const int64_t issue = mchan_issue_cycles(t, m.two_d);
    if (per_core.size() <= static_cast<size_t>(m.core)) per_core.resize(static_cast<size_t>(m.core) + 1, 0);
    per_core[static_cast<size_t>(m.core)] += issue;
    issue_sum += issue;
  }
  if (t.blocking) {
    c.issue = issue_sum;
    if (c.commands > 1) c.transfer += (c.commands - 1) * t.wake_cycles;
  } else {
    for (int64_t v : per_core) c.issue = std::max(c.issue, v);
  }
  return c;
}

}  // namespace edgesim
