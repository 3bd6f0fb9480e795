// simulate() (executor.h): the replay loop. The Executor module is every engine's JobListener:
// it turns ready commands into jobs, moves data when jobs start, releases dependents when they
// end, reads placements back when a step completes, and accumulates the per-step statistics.
#include "sim/exec/executor.h"

#include <algorithm>
#include <memory>
#include <map>
#include <unordered_map>

#include <fmt/format.h>
#include <systemc>

#include "compiler/ir/op_label.h"
#include "compiler/passes/assign_engine.h"
#include "compiler/passes/io_layout.h"
#include "compiler/schedule/machine.h"
#include "compiler/tiler/tiling_label.h"
#include "sim/core/context.h"
#include "sim/core/sanitizer_hooks.h"
#include "sim/energy/meter.h"
#include "sim/mem/tcdm.h"
#include "sim/soc/soc.h"
#include "sim/stats/memory_use.h"

namespace edgesim {

namespace {

LayerTilingStats tiling_stats(const Graph& g, const Step& st) {
  const LayerTiling& t = st.tiling;
  LayerTilingStats o;
  o.tiled = true;
  o.policy = t.policy;
  o.l1_out = {t.l1.n_out, t.l1.h_out, t.l1.w_out};
  o.l1_in = {t.l1.n_in, t.l1.h_in, t.l1.w_in};
  o.l1_buffering = st.buffering;
  o.l1_bytes = t.l1.l1_bytes;
  L1Tiling shown = t.l1;
  shown.db = st.buffering;   // the buffering the schedule uses, which the label's "db" states
  o.l1_label = l1_tile_label(shown);
  o.l3 = t.l3.tiled();
  o.l3_label = "-";
  if (o.l3) {
    const LayerGeom geom = layer_geom(g, t.node);
    o.l3_slab = {t.l3.n_out, t.l3.h_out, geom.w_out};
    o.l3_in_rows = t.l3.h_in;
    o.l3_streams = l3_streams(t.l3);
    o.l3_label = l3_slab_label(geom, t.l3);
  }
  return o;
}

struct Cmd {
  const Command* c = nullptr;
  int step = -1;
  std::vector<int> dependents;
  int pending = 0;
  bool after_dma = false;       // depends on a DMA transfer (a kernel then pays the wake-up)
  bool first_kernel = false;    // first Compute of its step
  int64_t gather = 0;           // depthwise input load: its channel count (HWC -> CHW gather timing)
  DmaAddresses addr;
  ComputeModel* model = nullptr;   // a Compute command's engine
  Job issue, main;
  bool done = false;
};

class Executor : public sc_core::sc_module, public JobListener {
 public:
  Executor(const sc_core::sc_module_name& n, const Graph& g, const Schedule& s, const PlatformSpec& p,
           ScheduleMachine& m, const SimOptions& opt, RunResult& r, EnergyMeter& meter)
      : sc_core::sc_module(n), g_(g), s_(s), p_(p), m_(m), opt_(opt), r_(r), meter_(meter) {
    SC_HAS_PROCESS(Executor);
    SC_THREAD(start);
  }
  // Binds the run to the SoC's engines (its compute models, sim/engines/compute_model.h).
  void attach(Soc* soc) {
    soc_ = soc;
    const auto* t = soc->l1 ? dynamic_cast<const Tcdm*>(soc->l1.get()) : nullptr;
    l1_.tcdm = t && t->conflicts() ? t : nullptr;
    l1_.wide_contends = l1_.tcdm && p_.fidelity.npu_hci_contention;
    l1_.dma_ports = static_cast<double>(dma_timing(p_).tcdm_ports);
    index_commands();
    for (const Cmd& k : cmds_) {
      const std::string& e = k.c->engine;
      const bool there = k.c->kind == Command::Kind::Compute ? k.model != nullptr
                         : e == "cluster_dma"                 ? soc->dma != nullptr
                                                              : soc->udma != nullptr;
      if (!there) throw SimError(who(k) + ": engine '" + e + "' is not simulated on platform " + p_.name);
      const std::string w = k.model ? k.model->check(*k.c) : "";
      if (!w.empty()) r_.warnings.push_back(who(k) + ": " + w);
    }
  }
  const std::string& error() const { return error_; }
  size_t completed() const { return completed_; }
  size_t total() const { return cmds_.size(); }
  std::string first_stalled() const;

  void job_started(Job& j) override { guard([&] { started(j); }); }
  void job_finished(Job& j) override { guard([&] { finished(j); }); }

 private:
  template <class F>
  void guard(F&& f) {
    if (!error_.empty()) return;
    try {
      f();
    } catch (const std::exception& e) {
      error_ = e.what();
      sc_core::sc_stop();
    }
  }
  std::string who(const Cmd& k) const {
    const Step& st = s_.steps[static_cast<size_t>(k.step)];
    return fmt::format("step {} '{}' command {} ({})", k.step, st.name, k.c->id, k.c->note);
  }
  void index_commands();
  void start();
  void ready(int k);
  void started(Job& j);
  void finished(Job& j);
  void complete(int k);
  void record(const Job& j, const Cmd& k, bool engine_job);
  void meter(const Job& j, const Cmd& k, bool engine_job);
  ComputeModel* model_of(const Cmd& k) const;

  const Graph& g_;
  const Schedule& s_;
  const PlatformSpec& p_;
  ScheduleMachine& m_;
  SimOptions opt_;
  RunResult& r_;
  EnergyMeter& meter_;
  Soc* soc_ = nullptr;
  L1Traffic l1_;                    // what contends for L1 now (bank-conflict mode)
  std::vector<Cmd> cmds_;
  std::vector<ClusterConventions> conv_;   // per step: its tiling's policy (a tuned network mixes loops)
  std::vector<int> step_left_;      // commands not yet complete, per step
  std::vector<int64_t> acc_lo_, acc_hi_;   // per step: first start / last end of its non-loop jobs
  size_t next_end_ = 0;             // first step not yet ended
  int64_t step_start_ = 0;
  size_t completed_ = 0;
  std::string error_;
};

void Executor::index_commands() {
  std::vector<int> by_id;   // command id -> index into cmds_ (ids are small and increasing)
  std::vector<std::pair<int, int64_t>> gather_buffers;   // (buffer, channels of the tile)
  step_left_.assign(s_.steps.size(), 0);
  acc_lo_.assign(s_.steps.size(), INT64_MAX);
  acc_hi_.assign(s_.steps.size(), INT64_MIN);
  size_t total = 0;
  for (const Step& st : s_.steps) total += st.commands.size();
  cmds_.reserve(total);
  for (const Step& st : s_.steps)
    conv_.push_back(conventions_for(st.tiled ? st.tiling.policy : s_.policy, p_, s_.network_loop));
  r_.layers.resize(s_.steps.size());
  for (size_t si = 0; si < s_.steps.size(); ++si) {
    const Step& st = s_.steps[si];
    const Node& node = g_.nodes.at(static_cast<size_t>(st.node));
    LayerStats& L = r_.layers[si];
    L.step = static_cast<int>(si);
    L.name = st.name;
    L.op = layer_label(g_, node);
    if (st.tiled) L.tiling = tiling_stats(g_, st);
    L.engine = engine_role(p_, "cluster");   // reports name DIANA's engines digital / analog / host
    for (const Command& c : st.commands)
      if (c.kind == Command::Kind::Compute) {
        L.engine = engine_role(p_, c.engine);
        break;
      }
    // A depthwise input that a layout Transpose already wrote CHW (io_layout nchw) loads as a
    // plain copy.
    const bool chw_input = std::any_of(g_.nodes.begin(), g_.nodes.end(), [&](const Node& p) {
      return is_relayout(p) && p.as<TransposeParams>().relayout == "hwc_to_nchw" && !node.inputs.empty() &&
             p.outputs.at(0) == node.inputs[0];
    });
    const bool dw = !chw_input && node.kind() == OpKind::Conv &&
                    node.as<ConvParams>().depthwise(g_.tensor(node.inputs[0]).shape.at(1),
                                                    g_.tensor(node.outputs[0]).shape.at(1));
    for (const Command& c : st.commands) {
      if (c.kind != Command::Kind::Compute) continue;   // engines are checked in attach()
      L.macs += c.macs;
      ++L.tiles;
    }
    // Loads into L1 that a cluster depthwise kernel reads as its input are gathers (PULP-NN's
    // depthwise kernels read CHW, so DORY loads them HWC -> CHW, one command per channel): the
    // writers of input 0 since its last read. NPU depthwise jobs read HWC (NE16 and N-EUREKA take
    // 16 contiguous input channels per pixel) and load their input as a plain copy.
    std::map<int, std::vector<size_t>> writers;   // L1 buffer -> indices into cmds_
    bool first = true;
    for (const Command& c : st.commands) {
      Cmd k;
      k.c = &c;
      k.step = static_cast<int>(si);
      if (c.kind == Command::Kind::Compute) {
        k.first_kernel = first;
        first = false;
        k.model = model_of(k);
      } else {
        if (c.engine != "cluster_dma" && c.engine != "l3_dma")
          throw SimError(fmt::format("step {} '{}' command {}: DMA engine '{}' is not simulated", si, st.name, c.id,
                                     c.engine));
        try {
          k.addr = m_.dma_addresses(c, "");   // the label is only built on an error
        } catch (const std::runtime_error& e) {
          throw std::runtime_error(who(k) + e.what());
        }
        if (dw && c.engine == "cluster_dma" && k.addr.dst_level == Level::L1) writers[c.dst.buffer].push_back(cmds_.size());
      }
      if (dw && c.kind == Command::Kind::Compute && !c.inputs.empty() && c.inputs[0].shape.size() == 4) {
        if (k.model && k.model->gathers_depthwise_input())
          for (size_t w : writers[c.inputs[0].buffer]) cmds_[w].gather = c.inputs[0].shape[1];
        writers[c.inputs[0].buffer].clear();
      }
      if (c.id < 0 || c.id > (1 << 30)) throw std::runtime_error(who(k) + ": command id out of range");
      if (static_cast<size_t>(c.id) >= by_id.size()) by_id.resize(static_cast<size_t>(c.id) + 1, -1);
      by_id[static_cast<size_t>(c.id)] = static_cast<int>(cmds_.size());
      cmds_.push_back(std::move(k));
      ++step_left_[si];
    }
  }
  for (size_t i = 0; i < cmds_.size(); ++i) {
    Cmd& k = cmds_[i];
    for (int d : k.c->deps) {
      const int at = d >= 0 && static_cast<size_t>(d) < by_id.size() ? by_id[static_cast<size_t>(d)] : -1;
      if (at < 0 || at >= static_cast<int>(i))
        throw std::runtime_error(fmt::format("{}: dependency on unknown or later command {}", who(k), d));
      cmds_[static_cast<size_t>(at)].dependents.push_back(static_cast<int>(i));
      ++k.pending;
      if (cmds_[static_cast<size_t>(at)].c->kind == Command::Kind::Dma) k.after_dma = true;
    }
  }
}

void Executor::start() {
  clear_stale_stack_poison();
  guard([&] {
    // Steps without commands end at once, in order.
    complete(-1);
    for (size_t i = 0; i < cmds_.size(); ++i)
      if (cmds_[i].pending == 0) ready(static_cast<int>(i));
  });
}

// The compute model of a Compute command's engine; nullptr when the SoC has none (attach() says so).
ComputeModel* Executor::model_of(const Cmd& k) const {
  const auto it = soc_->compute.find(k.c->engine);
  return it == soc_->compute.end() ? nullptr : it->second.get();
}

void Executor::ready(int ki) {
  Cmd& k = cmds_[static_cast<size_t>(ki)];
  const Command& c = *k.c;
  const Step& st = s_.steps[static_cast<size_t>(k.step)];
  k.main.cmd = k.issue.cmd = ki;
  k.main.step = k.issue.step = k.step;
  k.main.id = k.issue.id = c.id;
  if (c.kind == Command::Kind::Compute) {
    const JobContext x{&s_, &conv_[static_cast<size_t>(k.step)], k.first_kernel, st.tiled, k.after_dma};
    k.model->submit(k.main, c, x);
  } else if (c.engine == "cluster_dma") {
    soc_->cluster->cost_issue(k.issue, c, conv_[static_cast<size_t>(k.step)], k.gather);
    soc_->cluster->submit(&k.issue);
  } else {
    if (!soc_->udma) throw SimError(who(k) + ": an L3 copy on a platform without L3");
    k.main.kind = Job::Kind::Transfer;
    soc_->udma->channel.submit(&k.main);
  }
}

void Executor::started(Job& j) {
  Cmd& k = cmds_[static_cast<size_t>(j.cmd)];
  if (&j == &k.issue) return;
  const Command& c = *k.c;
  if (c.kind == Command::Kind::Compute) {
    k.model->started(j, l1_);
    if (opt_.data) m_.run_compute(c, who(k));
  } else if (c.engine == "cluster_dma") {
    if (l1_.tcdm && l1_.kernels > 0)
      soc_->dma->stretch_for_conflicts(j, *l1_.tcdm, soc_->cluster->n_cores(), Cluster::kTcdmShare);
    // A wide NPU beat occupies 8 banks: as 8 accesses for the beats' share of the NPU's cycles.
    if (l1_.wide_contends && l1_.wide_job)
      soc_->dma->stretch_for_conflicts(j, *l1_.tcdm, 8, l1_.wide_model->beat_share(*l1_.wide_job));
    ++l1_.dma_transfers;
    if (opt_.data) soc_->dma->move(c, k.addr, who(k));
  } else {
    soc_->udma->start(j, c, k.addr, opt_.data, who(k));
  }
}

void Executor::finished(Job& j) {
  Cmd& k = cmds_[static_cast<size_t>(j.cmd)];
  record(j, k, j.kind != Job::Kind::Transfer);
  if (&j == &k.issue) {
    soc_->dma->cost_transfer(k.main, *k.c, k.addr, k.gather);
    k.main.kind = Job::Kind::Transfer;
    soc_->dma->channel(k.addr).submit(&k.main);
    return;
  }
  if (k.c->kind == Command::Kind::Compute) k.model->finished(j, l1_);
  else if (k.c->engine == "cluster_dma") --l1_.dma_transfers;
  k.done = true;
  ++completed_;
  for (int d : k.dependents)
    if (--cmds_[static_cast<size_t>(d)].pending == 0) ready(d);
  complete(j.cmd);
}

// Energy of a finished job (sim/energy/meter.h), from the same job the statistics record.
// engine_job: a Compute job on its engine or the cores issuing a DMA command (not a transfer).
void Executor::meter(const Job& j, const Cmd& k, bool engine_job) {
  if (!meter_.enabled()) return;
  const Command& c = *k.c;
  if (engine_job && c.kind == Command::Kind::Compute) {
    k.model->meter(meter_, k.step, j, c, s_);
  } else if (engine_job) {   // the cores issuing a DMA command
    meter_.cluster_job(k.step, j.core_cycles, 0);
  } else if (c.engine == "cluster_dma") {
    meter_.transfer(k.step, k.addr.src_level, k.addr.dst_level, c.bytes(), k.issue.dma_bursts, k.issue.dma_commands);
  } else {
    meter_.l3_transfer(k.step, k.addr.src_level, k.addr.dst_level, c.bytes());
  }
}

void Executor::record(const Job& j, const Cmd& k, bool engine_job) {
  meter(j, k, engine_job);
  LayerStats& L = r_.layers[static_cast<size_t>(k.step)];
  if (!k.c->loop) {   // the span the layer's own counter brackets
    const size_t si = static_cast<size_t>(k.step);
    acc_lo_[si] = std::min(acc_lo_[si], j.start);
    acc_hi_[si] = std::max(acc_hi_[si], j.start + j.duration);
  }
  if (engine_job && k.model && k.model->parallel_units()) {   // parallel units: the split of the busiest one
    L.compute_cycles = std::max(L.compute_cycles, j.work);
    L.overhead_cycles = std::max(L.overhead_cycles, j.duration - j.work);
  } else if (engine_job) {
    L.compute_cycles += j.work;
    L.overhead_cycles += j.duration - j.work;
  } else if (k.c->kind == Command::Kind::Dma) {
    if (k.c->engine == "l3_dma") L.l3_bytes += k.c->bytes();
    else if (k.addr.src_level == Level::L1) L.dma_bytes_out += k.c->bytes();
    else L.dma_bytes_in += k.c->bytes();
  }
  if (!opt_.trace || j.duration == 0) return;
  const std::string name = j.kind == Job::Kind::Issue ? "issue " + k.c->note : k.c->note;
  std::string track = k.model ? k.model->track(*k.c) : engine_role(p_, "cluster");   // DMA issue: the cores
  if (j.kind == Job::Kind::Transfer)
    track = k.c->engine == "l3_dma" ? soc_->udma->channel.track() : soc_->dma->channel(k.addr).track();
  r_.trace.push_back(TraceSlice{track, name, k.step, j.start, j.duration});
  if (j.kind == Job::Kind::Transfer) return;
  const int64_t begin = j.start + j.lead;
  for (size_t c = 0; c < j.core_cycles.size(); ++c)
    if (j.core_cycles[c] > 0)
      r_.trace.push_back(TraceSlice{fmt::format("core {}", c), j.kind == Job::Kind::Issue ? name : j.kernel, k.step,
                                    j.kind == Job::Kind::Issue ? j.start : begin, j.core_cycles[c]});
}

// After command ki completed (or at start with -1): end every step whose commands are all done,
// in order, reading back the placements that die there.
void Executor::complete(int ki) {
  if (ki >= 0) --step_left_[static_cast<size_t>(cmds_[static_cast<size_t>(ki)].step)];
  const int64_t now = now_cycles();
  while (next_end_ < step_left_.size() && step_left_[next_end_] == 0) {
    LayerStats& L = r_.layers[next_end_];
    L.start = step_start_;
    L.end = std::max(now, step_start_);
    L.cycles = L.end - L.start;
    L.dma_wait_cycles = std::max<int64_t>(0, L.cycles - L.compute_cycles - L.overhead_cycles);
    L.accounted_cycles = acc_hi_[next_end_] > acc_lo_[next_end_] ? acc_hi_[next_end_] - acc_lo_[next_end_] : 0;
    step_start_ = L.end;
    if (opt_.data) m_.end_step(static_cast<int>(next_end_));
    ++next_end_;
  }
}

std::string Executor::first_stalled() const {
  for (const Cmd& k : cmds_)
    if (!k.done) return fmt::format("{} (waiting for {} of its dependencies)", who(k), k.pending);
  return "none";
}

}  // namespace

SimOutcome simulate(const Graph& g, const Schedule& s, const PlatformSpec& p, const std::vector<Tensor>& inputs,
                    const SimOptions& opt) {
  SimOutcome out;
  RunResult& r = out.result;
  r.network = s.network;
  r.platform = p.name;
  r.policy = s.policy;
  r.buffering = s.buffering;
  r.fidelity = p.fidelity.mode;
  r.freq_hz = p.cluster.present ? p.cluster.freq_hz : p.mvu.freq_hz;   // BARVINN: the MVU clock
  r.data = opt.data;

  ScheduleMachine machine(g, s, opt.data);   // timing only: levels without storage
  machine.set_arith(opt.arith);
  if (opt.data) machine.load(inputs);
  std::array<std::vector<std::byte>*, 4> levels{};
  std::array<int64_t, 4> sizes{};
  for (Level l : {Level::L3, Level::L2, Level::L1, Level::WMEM}) {
    levels[static_cast<size_t>(l)] = &machine.level(l);
    sizes[static_cast<size_t>(l)] = std::max<int64_t>(1, s.high_water[static_cast<size_t>(l)]);
  }
  const ClusterConventions conv = conventions_for(s.policy, p, s.network_loop);
  EnergyMeter meter(p, p.cluster.present ? conv.workers : 0, s.steps.size());
  {
    SimContext ctx;
    Executor ex("executor", g, s, p, machine, opt, r, meter);
    r.n_cores = p.cluster.present ? static_cast<int>(conv.workers) : 0;
    Soc soc = build_soc(p, levels, sizes, ex, conv.workers);
    ex.attach(&soc);
    ctx.run();
    if (!ex.error().empty()) throw std::runtime_error(ex.error());
    if (ex.completed() != ex.total())
      throw std::runtime_error(fmt::format("simulation stalled after {} of {} commands; first not run: {}",
                                           ex.completed(), ex.total(), ex.first_stalled()));
  }
  for (const LayerStats& L : r.layers) {
    r.total_cycles = std::max(r.total_cycles, L.end);
    r.accounted_cycles += L.accounted_cycles;
    r.total_macs += L.macs;
  }
  meter.finish(r, r.freq_hz);
  r.memory = memory_use(s, p);
  if (opt.data) out.values = machine.finish();
  return out;
}

}  // namespace edgesim
