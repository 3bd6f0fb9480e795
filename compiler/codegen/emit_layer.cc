// Layer files (emit_layer.h).
#include "compiler/codegen/emit_layer.h"

#include <algorithm>
#include <map>
#include <regex>
#include <set>

#include <fmt/format.h>

#include "compiler/codegen/kernel_emit.h"
#include "compiler/codegen/reroll.h"

namespace edgesim::codegen {

namespace {

std::string file_stem(const std::string& name) {
  std::string r;
  for (char ch : name) r += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  return r.substr(0, 40);
}

// A note without its tile / slab numbers ("load x tile 3/16" -> "load x tile").
std::string generic(const std::string& note) {
  std::string r = std::regex_replace(note, std::regex(" ?[0-9]+(/[0-9]+)?"), "");
  return r;
}

std::string where(const Schedule& s, const DmaSide& d) {
  const Buffer& b = s.buffers.at(static_cast<size_t>(d.buffer));
  return fmt::format("{} '{}' +{}", level_name(b.level), b.name, d.offset);
}

// Issues, waits and handle slots of one step's DMAs.
class Slots {
 public:
  // Statements waiting for the DMAs among `deps` still in flight.
  void wait_for(const std::vector<int>& deps, Segment& seg) {
    for (int d : deps) {
      auto it = slot_of_.find(d);
      if (it != slot_of_.end()) wait(it->second, seg);
    }
  }
  // A free slot for a new copy (waiting for the oldest copy when all are busy).
  int take(int cmd, Segment& seg) {
    if (static_cast<int>(busy_.size()) == kDmaSlots) wait(slot_of_.at(order_.front()), seg);
    int slot = 0;
    while (busy_.count(slot)) ++slot;
    busy_[slot] = cmd;
    slot_of_[cmd] = slot;
    order_.push_back(cmd);
    used_ = std::max(used_, slot + 1);
    return slot;
  }
  void wait_all(Segment& seg) {
    while (!busy_.empty()) wait(busy_.begin()->first, seg);
  }
  int used() const { return std::max(used_, 1); }

 private:
  void wait(int slot, Segment& seg) {
    const int cmd = busy_.at(slot);
    StmtBuilder b;
    b << "es_dma_wait(&h[";
    b.hole(slot) << "]);";
    seg.push_back(b.done());
    busy_.erase(slot);
    slot_of_.erase(cmd);
    order_.erase(std::find(order_.begin(), order_.end(), cmd));
  }
  std::map<int, int> busy_;      // slot -> command
  std::map<int, int> slot_of_;   // command -> slot
  std::vector<int> order_;       // commands in flight, oldest first
  int used_ = 0;
};

Stmt dma_stmt(const Schedule& s, const Step& st, const Command& c, int slot) {
  const Buffer& sb = s.buffers.at(static_cast<size_t>(c.src.buffer));
  const Buffer& db = s.buffers.at(static_cast<size_t>(c.dst.buffer));
  auto ptr = [](const Buffer& b) { return b.level == Level::L1 ? "es_l1 + " : b.level == Level::WMEM ? "es_wmem + " : "es_l2 + "; };
  StmtBuilder b;
  b << "";
  const bool l1_dst = db.level == Level::L1 && (sb.level == Level::L2 || sb.level == Level::WMEM);
  const bool l1_src = sb.level == Level::L1 && (db.level == Level::L2 || db.level == Level::WMEM);
  if (l1_dst || l1_src) {
    b << (l1_dst ? "es_dma_in(&h[" : "es_dma_out(&h[");
    b.hole(slot) << "], " << ptr(db);
    b.hole(db.offset + c.dst.offset) << ", " << ptr(sb);
    b.hole(sb.offset + c.src.offset) << ", ";
  } else if (sb.level == Level::L3 && db.level == Level::L2) {
    b << "es_l3_read(&h[";
    b.hole(slot) << "], es_l2 + ";
    b.hole(db.offset + c.dst.offset) << ", ";
    b.hole(sb.offset + c.src.offset) << ", ";
  } else if (sb.level == Level::L2 && db.level == Level::L3) {
    b << "es_l3_write(&h[";
    b.hole(slot) << "], ";
    b.hole(db.offset + c.dst.offset) << ", es_l2 + ";
    b.hole(sb.offset + c.src.offset) << ", ";
  } else {
    throw CodegenError(fmt::format("codegen: step '{}' command {} ({}): no HAL copy from {} to {}", st.name, c.id, c.note,
                                   level_name(sb.level), level_name(db.level)));
  }
  for (int64_t v : {c.count[0], c.count[1], c.count[2], c.src.stride[0], c.src.stride[1], c.dst.stride[0], c.dst.stride[1]}) {
    b.hole(v);
    b << ", ";
  }
  Stmt r = b.done();
  r.text.back() = ");";
  r.comment = fmt::format("{}: {} -> {}, {}x{}x{} B", c.note, where(s, c.src), where(s, c.dst), c.count[0], c.count[1],
                          c.count[2]);
  r.what = generic(c.note);
  return r;
}

std::string compute_comment(const Command& c) {
  std::string r = c.note + ":";
  if (!c.outputs.empty()) r += " y " + shape_str(c.outputs[0].shape);
  for (size_t k = 0; k < c.inputs.size(); ++k) r += (k == 0 ? " <- " : ", ") + shape_str(c.inputs[k].shape);
  if (c.engine != "cluster") r += " (" + c.engine + " layer, run as its C equivalent)";
  return r;
}

std::string header(const Graph& g, const Schedule& s, size_t k) {
  const Step& st = s.steps[k];
  const Node& n = g.nodes.at(static_cast<size_t>(st.node));
  std::string r = fmt::format("/* Step {} '{}': {} on engine {}, {} commands, {} buffering.\n", k, c_comment(st.name), op_name(n.kind()),
                              n.engine, st.commands.size(), st.buffering == 2 ? "double" : "single");
  if (st.tiled) {
    const L1Tiling& t = st.tiling.l1;
    r += fmt::format(" * Tiling ({}): L1 tile Cout {} x rows {} x cols {}{}", st.tiling.policy, t.n_out, t.h_out, t.w_out,
                     t.whole ? " (whole slab)" : "");
    const L3Tiling& l3 = st.tiling.l3;
    if (l3.tiled())
      r += fmt::format("; L3 slabs Cout {} x rows {} (x{} w{} y{} in L3)", l3.n_out, l3.h_out, l3.input_in_l3 ? "+" : "-",
                       l3.weights_in_l3 ? "+" : "-", l3.output_in_l3 ? "+" : "-");
    r += ".\n";
  }
  r += " * Buffers of the step (level, offset from the level's start, bytes):\n";
  std::set<int> shown;
  auto show = [&](int id) {
    if (id < 0 || !shown.insert(id).second) return;
    const Buffer& b = s.buffers.at(static_cast<size_t>(id));
    r += fmt::format(" *   {:<4} {:>8} {:>8}  {}\n", level_name(b.level), b.offset, b.bytes, c_comment(b.name));
  };
  for (const Command& c : st.commands) {
    if (c.kind == Command::Kind::Dma) {
      show(c.src.buffer);
      show(c.dst.buffer);
    } else {
      for (const BufView& v : c.inputs) show(v.buffer);
      for (const BufView& v : c.outputs) show(v.buffer);
    }
  }
  return r + " * Generated by edgesim codegen from the schedule; do not edit. */\n";
}

}  // namespace

LayerFile emit_layer(const Graph& g, const Schedule& s, size_t k) {
  const Step& st = s.steps.at(k);
  LayerFile f;
  f.function = fmt::format("es_step_{}", k);
  f.file = fmt::format("layer_{:02}_{}.c", k, file_stem(st.name));
  LayerData data(fmt::format("s{}", k));
  Slots slots;
  std::vector<Segment> segs(1);
  // A segment closes after a Compute and the copies that move its results on (stores whose
  // source the compute, or a store before them, wrote).
  bool after_compute = false;
  std::set<int> results;
  for (const Command& c : st.commands) {
    const bool moves_result = c.kind == Command::Kind::Dma && results.count(c.src.buffer);
    if (after_compute && !moves_result) {
      segs.emplace_back();
      after_compute = false;
      results.clear();
    }
    Segment& seg = segs.back();
    slots.wait_for(c.deps, seg);
    if (c.kind == Command::Kind::Dma) {
      seg.push_back(dma_stmt(s, st, c, slots.take(c.id, seg)));
      if (after_compute) results.insert(c.dst.buffer);
      continue;
    }
    StmtBuilder b;
    ComputeEmit e{g, s, c, data, b, f.npu_scratch};
    emit_compute(e);
    b.comment(compute_comment(c), generic(c.note));
    seg.push_back(b.done());
    after_compute = true;
    results.clear();
    for (const BufView& v : c.outputs) results.insert(v.buffer);
  }
  slots.wait_all(segs.back());
  const RerolledCode code = reroll(segs, fmt::format("s{}", k));
  f.text = header(g, s, k) + "#include \"network.h\"\n\n" + data.declarations() + code.tables +
           fmt::format("\nvoid {}(void) {{\n  es_dma_t h[{}];\n  (void)h;\n", f.function, slots.used()) + code.body + "}\n";
  return f;
}

}  // namespace edgesim::codegen
