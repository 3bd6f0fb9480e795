// Dma generation and dependency tracking for one step.
//
// copy(): a box of a logical tensor moves between two regions with arbitrary element strides
// (a home buffer in HWC order, a packed L1 tile, an L2 slab). Dims of extent 1 are dropped, the
// rest are nested by descending source stride, and neighbours that are contiguous on BOTH sides
// merge; the innermost run becomes count[2] bytes (one element when it is strided), the next two
// dims count[1] and count[0]. A box needing more than three levels is issued as several Dma
// commands (one per index of the extra outer dims) — DORY's per-row / per-channel commands.
//
// emit(): deps come from buffer reuse. Reading a tracked buffer depends on the commands that
// wrote it since its last read (RAW); writing it depends on the commands that read it since the
// last write (WAR). With single buffering every command simply depends on the previous one.
// A command without deps inside its step depends on the sinks of the previous step: steps are
// separated by a barrier (DORY's network loop runs one layer after another).
#include <algorithm>
#include <set>

#include "compiler/schedule/build_internal.h"

namespace edgesim::sched {

StepEmitter::StepEmitter(BuildContext& ctx, Step& step, bool serial)
    : ctx_(ctx), step_(step), serial_(serial) {}

int StepEmitter::emit(Command c, const std::vector<int>& reads, const std::vector<int>& writes) {
  c.id = ctx_.next_cmd++;
  std::vector<int>& deps = c.deps;
  deps.clear();
  if (ahead_) {
    c.loop = true;
    // Reads issued ahead form one chain in the order of the layers they feed: each waits for
    // the previous one, so at most one of them is queued on the uDMA at a time and a layer's own
    // reads never wait behind more than one (the loop issues the next read when one completes).
    if (chain_ && c.kind == Command::Kind::Dma && c.engine == "l3_dma") {
      if (ctx_.last_ahead >= 0) deps.push_back(ctx_.last_ahead);
      ctx_.last_ahead = c.id;
    }
  } else if (serial_) {
    if (prev_ >= 0) deps.push_back(prev_);
    if (!chained_) deps.insert(deps.end(), ctx_.step_sinks.begin(), ctx_.step_sinks.end());
    chained_ = true;
  } else {
    for (int b : reads) deps.insert(deps.end(), writers_[b].begin(), writers_[b].end());
    for (int b : writes) {
      deps.insert(deps.end(), readers_[b].begin(), readers_[b].end());
      if (readers_[b].empty())   // full rewrite without a read in between
        deps.insert(deps.end(), writers_[b].begin(), writers_[b].end());
    }
  }
  if (ahead_) deps.insert(deps.end(), roots_.begin(), roots_.end());
  else if (deps.empty()) deps = ctx_.step_sinks;
  // A command of the step itself that waits only for reads issued ahead (e.g. the L1 load of a
  // prefetched weight slab) still starts with its step: it also waits for the previous step.
  if (!ahead_ && std::all_of(deps.begin(), deps.end(), [&](int d) { return ahead_ids_.count(d) > 0; }))
    deps.insert(deps.end(), ctx_.step_sinks.begin(), ctx_.step_sinks.end());
  if (ahead_) ahead_ids_.insert(c.id);
  std::sort(deps.begin(), deps.end());
  deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
  for (int b : reads) readers_[b].push_back(c.id);
  for (int b : writes) {
    if (!readers_[b].empty()) writers_[b].clear();
    readers_[b].clear();
    writers_[b].push_back(c.id);
  }
  prev_ = c.id;
  step_.commands.push_back(std::move(c));
  return prev_;
}

std::vector<int> StepEmitter::copy(const Region& src, const Region& dst, const Box& box,
                                   const std::string& engine, const std::string& note, bool loop) {
  std::vector<int> ids;
  if (box.numel() == 0) return ids;
  const int64_t e = static_cast<int64_t>(dtype_size(src.dtype));
  int64_t soff = src.offset, doff = dst.offset;
  struct Dim { int64_t n, ss, ds; };
  std::vector<Dim> dims;
  for (size_t d = 0; d < box.ext.size(); ++d) {
    soff += (box.start[d] - src.origin[d]) * src.strides[d] * e;
    doff += (box.start[d] - dst.origin[d]) * dst.strides[d] * e;
    if (box.ext[d] > 1) dims.push_back({box.ext[d], src.strides[d], dst.strides[d]});
  }
  std::stable_sort(dims.begin(), dims.end(), [](const Dim& a, const Dim& b) {
    return a.ss != b.ss ? a.ss > b.ss : a.ds > b.ds;
  });
  // Merge from the innermost dim outwards.
  std::vector<Dim> merged;   // innermost first
  for (size_t i = dims.size(); i-- > 0;) {
    const Dim& o = dims[i];
    if (!merged.empty()) {
      Dim& in = merged.back();
      if (o.ss == in.n * in.ss && o.ds == in.n * in.ds) {
        in.n *= o.n;
        continue;
      }
    }
    merged.push_back(o);
  }
  int64_t row = e;
  if (!merged.empty() && merged.front().ss == 1 && merged.front().ds == 1) {
    row = merged.front().n * e;
    merged.erase(merged.begin());
  }
  // merged: loop dims, innermost first. The innermost two go into count[1], count[0].
  std::vector<Dim> loops(merged.rbegin(), merged.rend());   // outermost first
  while (loops.size() < 2) loops.insert(loops.begin(), Dim{1, 0, 0});
  const size_t extra = loops.size() - 2;
  int64_t pieces = 1;
  for (size_t i = 0; i < extra; ++i) pieces *= loops[i].n;
  for (int64_t piece = 0; piece < pieces; ++piece) {
    Command c;
    c.kind = Command::Kind::Dma;
    c.engine = engine;
    c.note = pieces > 1 ? note + " part " + std::to_string(piece) + "/" + std::to_string(pieces) : note;
    c.src.buffer = src.buffer;
    c.dst.buffer = dst.buffer;
    c.src.offset = soff;
    c.dst.offset = doff;
    int64_t rest = piece;   // mixed-radix index over the extra outer dims (last varies fastest)
    for (size_t i = extra; i-- > 0;) {
      const int64_t k = rest % loops[i].n;
      rest /= loops[i].n;
      c.src.offset += k * loops[i].ss * e;
      c.dst.offset += k * loops[i].ds * e;
    }
    const Dim& a = loops[extra];
    const Dim& b = loops[extra + 1];
    c.count = {a.n, b.n, row};
    c.src.stride = {a.n > 1 ? a.ss * e : 0, b.n > 1 ? b.ss * e : 0};
    c.dst.stride = {a.n > 1 ? a.ds * e : 0, b.n > 1 ? b.ds * e : 0};
    c.loop = loop;
    ids.push_back(emit(std::move(c), {src.buffer}, {dst.buffer}));
  }
  return ids;
}

void StepEmitter::finish() {
  if (step_.commands.empty()) return;
  // Command ids of a step are consecutive: mark the ones some command of the step depends on.
  const int first = step_.commands.front().id;
  std::vector<char> used(step_.commands.size(), 0);
  for (const Command& c : step_.commands)
    for (int d : c.deps)
      if (d >= first && d - first < static_cast<int>(used.size())) used[static_cast<size_t>(d - first)] = 1;
  std::vector<int> sinks;
  for (const Command& c : step_.commands)
    if (!used[static_cast<size_t>(c.id - first)]) sinks.push_back(c.id);
  ctx_.step_sinks = sinks;
}

}  // namespace edgesim::sched
