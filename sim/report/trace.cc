// run_to_trace: Chrome / Perfetto trace (Trace Event Format, JSON object form). One process
// (pid 1) for the run; one thread per track: "layers" (one slice per layer, [start, end)), then
// the TraceSlice tracks in a stable order: cores by index ("core 0", "core 1", ...), "cluster",
// the DMA channels (names containing "dma", alphabetical), then any other track alphabetical.
// Threads are named with "thread_name" metadata and ordered with "thread_sort_index".
// Slices are complete events ("ph": "X"); ts / dur are microseconds of the cluster clock
// (cycles / freq_hz * 1e6), or one microsecond per cycle when the frequency is unknown, so a
// viewer's time axis reads as real time. args carry the step, the layer name and the cycles.
// otherData names the run and carries its provenance (sim/report/provenance.h).
#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/report/provenance.h"
#include "sim/report/report.h"
#include "compiler/io/write_file.h"

namespace edgesim {

namespace {

using nlohmann::json;

constexpr int kPid = 1;
const char* const kLayersTrack = "layers";

// Sort key of a track: (group, core index, name). Groups: 0 cores, 1 cluster, 2 DMA, 3 others.
struct TrackKey {
  int group;
  long index;
  std::string name;
  bool operator<(const TrackKey& o) const {
    if (group != o.group) return group < o.group;
    if (index != o.index) return index < o.index;
    return name < o.name;
  }
};

TrackKey track_key(const std::string& t) {
  if (t.rfind("core ", 0) == 0 && t.size() > 5 &&
      std::all_of(t.begin() + 5, t.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return {0, std::strtol(t.c_str() + 5, nullptr, 10), t};
  if (t == "cluster") return {1, 0, t};
  if (t.find("dma") != std::string::npos || t.find("DMA") != std::string::npos) return {2, 0, t};
  return {3, 0, t};
}

// Thread ids: "layers" is 1, the slice tracks follow in track_key order.
std::map<std::string, int> assign_tids(const RunResult& r) {
  std::set<TrackKey> keys;
  for (const TraceSlice& s : r.trace)
    if (s.track != kLayersTrack) keys.insert(track_key(s.track));
  std::map<std::string, int> tids{{kLayersTrack, 1}};
  int next = 2;
  for (const TrackKey& k : keys) tids.emplace(k.name, next++);
  return tids;
}

class Clock {
 public:
  explicit Clock(int64_t freq_hz) : us_per_cycle_(freq_hz > 0 ? 1e6 / static_cast<double>(freq_hz) : 1.0) {}
  double us(int64_t cycles) const { return static_cast<double>(cycles) * us_per_cycle_; }

 private:
  double us_per_cycle_;
};

json metadata(const char* what, int tid, const json& args) {
  json e = {{"ph", "M"}, {"name", what}, {"pid", kPid}, {"args", args}};
  if (tid >= 0) e["tid"] = tid;
  return e;
}

json slice(const std::string& name, const std::string& cat, int tid, int64_t start, int64_t dur,
           const Clock& clock, json args) {
  args["cycles"] = dur;
  args["start_cycle"] = start;
  return {{"ph", "X"},         {"name", name},  {"cat", cat},           {"pid", kPid}, {"tid", tid},
          {"ts", clock.us(start)}, {"dur", clock.us(dur)}, {"args", std::move(args)}};
}

}  // namespace

std::string run_to_trace(const RunResult& r) {
  const Clock clock(r.freq_hz);
  const std::map<std::string, int> tids = assign_tids(r);
  std::map<int, std::string> layer_of_step;
  for (const LayerStats& l : r.layers) layer_of_step.emplace(l.step, l.name);

  json events = json::array();
  events.push_back(metadata("process_name", -1, {{"name", "edgesim: " + r.network + " on " + r.platform}}));
  std::vector<std::pair<int, std::string>> by_tid;
  for (const auto& [track, tid] : tids) by_tid.emplace_back(tid, track);
  std::sort(by_tid.begin(), by_tid.end());
  for (const auto& [tid, track] : by_tid) {
    events.push_back(metadata("thread_name", tid, {{"name", track}}));
    events.push_back(metadata("thread_sort_index", tid, {{"sort_index", tid}}));
  }

  for (const LayerStats& l : r.layers)
    events.push_back(slice(l.name, "layer", tids.at(kLayersTrack), l.start, l.end - l.start, clock,
                           {{"step", l.step}, {"layer", l.name}, {"op", l.op}, {"macs", l.macs}}));
  for (const TraceSlice& s : r.trace) {
    const auto layer = layer_of_step.find(s.step);
    events.push_back(slice(s.name, s.track, tids.at(s.track), s.start, s.dur, clock,
                           {{"step", s.step}, {"layer", layer == layer_of_step.end() ? "" : layer->second}}));
  }

  const json doc = {{"traceEvents", std::move(events)},
                    {"displayTimeUnit", "ns"},
                    {"otherData",
                     {{"network", r.network},
                      {"platform", r.platform},
                      {"policy", r.policy},
                      {"buffering", r.buffering},
                      {"fidelity", r.fidelity},
                      {"freq_hz", r.freq_hz},
                      {"time_unit", r.freq_hz > 0 ? "us of the cluster clock" : "1 us per cycle (no clock frequency)"},
                      {"total_cycles", r.total_cycles},
                      {"provenance", report::provenance_json(r.provenance)}}}};
  // Compact: traces of large networks hold hundreds of thousands of events.
  return doc.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
}

void write_run_trace(const std::string& path, const RunResult& r) { write_file_atomically(path, run_to_trace(r)); }

}  // namespace edgesim
