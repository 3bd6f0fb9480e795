// run_to_html: one self-contained page per run (inline CSS and inline SVG, no scripts, no
// external resources), readable offline and attachable to an issue. Sections: title and run
// parameters; summary cards (wall and accounted cycles, time at the cluster clock, MAC/cycle,
// MACs, DMA bytes, verification badge) with the run's overall compute / overhead / DMA-wait
// share; the per-layer stacked bar chart; one occupancy chart per memory level; the per-layer
// table (wall and accounted cycles). Every piece of text from the RunResult is escaped. Charts are in layer_chart.cc / memory_chart.cc.
#include <algorithm>
#include <string>
#include <tuple>

#include <fmt/format.h>

#include "sim/report/calibration_text.h"
#include "sim/report/format.h"
#include "sim/report/provenance.h"
#include "sim/report/report.h"
#include "sim/report/energy_report.h"
#include "sim/report/svg.h"
#include "compiler/io/write_file.h"

namespace edgesim {

namespace {

using report::escape;
using report::group_digits;
using report::percent;

const char* const kCss = R"(
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:#1f2328;
 margin:0;background:#fff}
main{max-width:1340px;margin:0 auto;padding:24px 20px 48px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:32px 0 8px;border-bottom:1px solid #d8dee4;padding-bottom:4px}
h3{font-size:14px;margin:0 0 2px}
.meta,.muted{color:#636c76;fill:#636c76}
.cards{display:flex;flex-wrap:wrap;gap:8px;margin:16px 0 10px}
.card{border:1px solid #d8dee4;border-radius:6px;padding:7px 12px;min-width:96px}
.card .k{font-size:12px;color:#636c76}.card .v{font-size:19px;font-weight:600;font-variant-numeric:tabular-nums}
.badge{display:inline-block;border-radius:12px;padding:1px 10px;font-size:14px;font-weight:600;color:#fff}
.ok{background:#1f883d}.fail{background:#cf222e}.skip{background:#6e7781}
.split{display:flex;height:14px;border-radius:3px;overflow:hidden;margin:6px 0 4px}
.key{display:inline-block;width:11px;height:11px;border-radius:2px;margin:0 5px 0 12px;vertical-align:-1px}
.key:first-child{margin-left:0}
svg.chart{display:block;max-width:100%;height:auto;font-family:inherit}
.pair{display:flex;align-items:flex-start}.pair svg.chart{width:100%}
svg text{font-size:11px}svg .legend{font-size:13px}svg .tick{fill:#636c76;font-size:11px}
svg .stripe{fill:#f6f8fa}svg .grid{stroke:#d8dee4;stroke-width:1}svg .axis{stroke:#8c959f;stroke-width:1}
svg .area{fill:#4C78A8;fill-opacity:.35;stroke:#4C78A8;stroke-width:1.5}
svg line.capacity{stroke:#cf222e;stroke-width:1.5;stroke-dasharray:6 4}svg text.capacity{fill:#cf222e}
svg line.highwater{stroke:#4C78A8;stroke-width:1;stroke-dasharray:2 3}svg text.highwater{fill:#4C78A8}
svg .hover{fill:transparent}svg .hover:hover{fill:#0969da;fill-opacity:.08}
.mem{display:grid;grid-template-columns:repeat(auto-fill,minmax(560px,1fr));gap:18px 28px}
.scroll{overflow-x:auto}
table{border-collapse:collapse;font-size:12.5px;width:100%}
th,td{padding:3px 5px;border-bottom:1px solid #eaeef2;white-space:nowrap}
th{position:sticky;top:0;background:#f6f8fa;text-align:left;border-bottom:1px solid #d8dee4}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
td.name{white-space:normal;overflow-wrap:anywhere;min-width:120px;max-width:320px}
tr.total td{font-weight:600;border-top:2px solid #d8dee4}
tbody tr:nth-child(even){background:#fafbfc}
.note{font-size:12px;color:#636c76;max-width:1000px}
footer.provenance table{width:auto}footer.provenance th{position:static;background:none;color:#636c76;font-weight:400}
footer.provenance td{white-space:normal;overflow-wrap:anywhere}
)";

// Escaped name with line-break opportunities after '/', '_' and '.' (ONNX paths are long).
std::string breakable(const std::string& name) {
  std::string out;
  for (char c : escape(name)) {
    out += c;
    if (c == '/' || c == '_' || c == '.') out += "<wbr>";
  }
  return out;
}

std::string card(const std::string& key, const std::string& value) {
  return R"(<div class="card"><div class="k">)" + escape(key) + R"(</div><div class="v">)" + value + "</div></div>";
}

std::string badge(const RunResult& r) {
  const char* cls = "skip";
  if (report::verdict(r) == report::Verdict::Passed) cls = "ok";
  if (report::verdict(r) == report::Verdict::Failed) cls = "fail";
  return fmt::format(R"(<span class="badge {}">{}</span>)", cls, escape(report::verification(r)));
}

std::string summary(const RunResult& r) {
  const report::Totals t = report::layer_totals(r);
  std::string s = R"(<div class="cards">)";
  s += card("total cycles (wall)", group_digits(r.total_cycles));
  s += card("accounted cycles", group_digits(r.accounted_cycles));
  s += card("time @ " + report::frequency(r.freq_hz), r.freq_hz > 0 ? report::duration(r.total_cycles, r.freq_hz) : "-");
  s += card("MAC/cycle", report::mac_per_cycle(r.total_macs, r.total_cycles));
  s += card("MACs", group_digits(r.total_macs));
  s += card("layers / tiles", fmt::format("{} / {}", r.layers.size(), group_digits(t.tiles)));
  s += card("DMA L2→L1 / L1→L2 / L3", escape(report::bytes_label(t.dma_in) + " / " +
                                                        report::bytes_label(t.dma_out) + " / " + report::bytes_label(t.l3)));
  s += card("engines", escape(report::engine_split_line(r)));
  if (r.energy_modelled) {
    const double e = r.energy.total_pj();
    s += card("energy", escape(report::energy_text(e)));
    s += card("energy / MAC", fmt::format("{:.1f} pJ", report::pj_per_mac(e, r.total_macs)));
    s += card("average power", escape(report::power_text(report::avg_power_w(r))));
    s += card("energy-delay product", escape(report::edp_text(report::edp_js(r))));
  }
  s += card("verification", badge(r));
  s += "</div>\n";
  if (t.cycles > 0) {  // the run's overall split as one CSS bar
    s += R"(<div class="split">)";
    for (const auto& [v, colour] : {std::pair{t.compute, report::kComputeColour},
                                    std::pair{t.overhead, report::kOverheadColour}, std::pair{t.dma_wait, report::kDmaWaitColour}})
      s += fmt::format(R"(<div style="flex:{} 0 0;background:{}"></div>)", std::max<int64_t>(v, 0), colour);
    s += "</div>\n<div class=\"meta\">";
    for (const auto& [label, v, colour] : {std::tuple{"compute", t.compute, report::kComputeColour},
                                           std::tuple{"overhead", t.overhead, report::kOverheadColour},
                                           std::tuple{"DMA wait", t.dma_wait, report::kDmaWaitColour}})
      s += fmt::format(R"(<span class="key" style="background:{}"></span>{} {} ({}))", colour, label, group_digits(v),
                       percent(v, t.cycles));
    s += "</div>\n";
  }
  return s;
}

std::string table(const RunResult& r) {
  std::string s =
      "<div class=\"scroll\"><table>\n<thead><tr><th class=\"n\">#</th><th>name</th><th>op</th><th>engine</th><th class=\"n\">MACs</th>"
      "<th class=\"n\">cycles</th><th class=\"n\">accounted</th><th class=\"n\">MAC/cycle</th><th class=\"n\">compute</th><th class=\"n\">%</th>"
      "<th class=\"n\">DMA wait</th><th class=\"n\">%</th><th class=\"n\">overhead</th><th class=\"n\">%</th>"
      "<th class=\"n\">tiles</th><th class=\"n\">DMA in</th><th class=\"n\">DMA out</th><th class=\"n\">L3</th></tr></thead>\n"
      "<tbody>\n";
  auto row = [](const std::string& cls, const std::string& idx, const std::string& name, const std::string& op,
                const std::string& engine, int64_t macs, int64_t cycles, int64_t accounted, int64_t compute, int64_t wait, int64_t overhead,
                int64_t tiles, int64_t in, int64_t out, int64_t l3) {
    return fmt::format(
        "<tr{}><td class=\"n\">{}</td><td class=\"name\">{}</td><td>{}</td><td>{}</td><td class=\"n\">{}</td>"
        "<td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>"
        "<td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>"
        "<td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>"
        "<td class=\"n\">{}</td></tr>\n",
        cls, idx, breakable(name), escape(op), escape(engine), group_digits(macs), group_digits(cycles),
        group_digits(accounted),
        report::mac_per_cycle(macs, cycles), group_digits(compute), percent(compute, cycles), group_digits(wait),
        percent(wait, cycles), group_digits(overhead), percent(overhead, cycles), group_digits(tiles),
        report::bytes_label(in), report::bytes_label(out), report::bytes_label(l3));
  };
  for (size_t i = 0; i < r.layers.size(); ++i) {
    const LayerStats& l = r.layers[i];
    s += row("", std::to_string(i), l.name, l.op, l.engine, l.macs, l.cycles, l.accounted_cycles, l.compute_cycles, l.dma_wait_cycles,
             l.overhead_cycles, l.tiles, l.dma_bytes_in, l.dma_bytes_out, l.l3_bytes);
  }
  const report::Totals t = report::layer_totals(r);
  s += row(" class=\"total\"", "", "TOTAL", "", "", t.macs, t.cycles, t.accounted, t.compute, t.dma_wait, t.overhead, t.tiles, t.dma_in,
           t.dma_out, t.l3);
  return s + "</tbody>\n</table></div>\n";
}

// "policy dory · buffering double · fidelity gvsoc · 175 MHz · 8 cores", leaving out what a
// platform does not have (no cluster: no core count) instead of printing empty fields.
std::string run_parameters(const RunResult& r) {
  std::string s;
  auto add = [&s](const std::string& label, const std::string& v) {
    if (!v.empty()) s += (s.empty() ? "" : " · ") + label + v;
  };
  add("policy ", r.policy);
  add("buffering ", r.buffering);
  add("fidelity ", r.fidelity);
  if (r.freq_hz > 0) add("", report::frequency(r.freq_hz));
  if (r.n_cores > 0) add("", fmt::format("{} {}", r.n_cores, r.n_cores == 1 ? "core" : "cores"));
  return s;
}

// Which tiling each layer ran with, and why it is on its engine.
std::string tiling_table(const RunResult& r) {
  std::string s =
      "<div class=\"scroll\"><table>\n<thead><tr><th class=\"n\">#</th><th>name</th><th>engine</th>"
      "<th>why this engine</th><th>L2&rarr;L1 tile (Cout&times;rows&times;cols, out / in)</th><th class=\"n\">L1 bytes</th>"
      "<th>L3&rarr;L2 slab</th></tr></thead>\n<tbody>\n";
  for (size_t i = 0; i < r.layers.size(); ++i) {
    const LayerStats& l = r.layers[i];
    const LayerTilingStats& t = l.tiling;
    s += fmt::format(
        "<tr><td class=\"n\">{}</td><td class=\"name\">{}</td><td><span class=\"key\" style=\"background:{}\"></span>{}"
        "</td><td>{}</td><td>{}</td><td class=\"n\">{}</td><td>{}</td></tr>\n",
        i, breakable(l.name), report::engine_colour(l.engine), escape(l.engine), escape(l.engine_reason),
        t.tiled ? escape(t.l1_label) : "whole tensors in L2", t.tiled ? group_digits(t.l1_bytes) : "-",
        t.tiled ? escape(t.l3_label) : "-");
  }
  return s + "</tbody>\n</table></div>\n";
}

std::string memory_section(const RunResult& r) {
  if (r.memory.empty()) return "<p class=\"meta\">No memory occupancy recorded.</p>\n";
  std::string s = "<div class=\"mem\">\n";
  for (const MemoryUse& m : r.memory) {
    // L1's line is the policy's usable budget (the level less stacks and reserves), not its size.
    const std::string what = m.is_budget ? "the policy's budget" : "capacity";
    const std::string share = m.capacity > 0 ? ", " + percent(m.high_water, m.capacity) + " of " + what : "";
    std::string cap = m.capacity > 0 ? escape(report::bytes_label(m.capacity)) : "unknown";
    if (m.is_budget) cap = "policy budget " + cap + " of the " + escape(report::bytes_label(m.size)) + " " + escape(m.level);
    else cap = "capacity " + cap;
    s += "<div><h3>" + escape(m.level) + "</h3><div class=\"meta\">high water " +
         escape(report::bytes_label(m.high_water)) + share + ", " + cap + "</div>\n";
    s += report::memory_chart(m, r) + "</div>\n";
  }
  return s + "</div>\n";
}

// The run's energy per block: dynamic, leakage, total and share (docs/energy.md).
std::string energy_blocks_table(const RunResult& r) {
  const double total = r.energy.total_pj();
  std::string s = "<table><thead><tr><th>block</th><th>dynamic</th><th>leakage</th><th>total</th><th>share</th></tr></thead><tbody>";
  for (const std::string& b : report::energy_blocks(r)) {
    const auto d = r.energy.dynamic_pj.find(b), l = r.energy.leakage_pj.find(b);
    const double dv = d == r.energy.dynamic_pj.end() ? 0 : d->second, lv = l == r.energy.leakage_pj.end() ? 0 : l->second;
    s += fmt::format(R"(<tr><td><span class="key" style="background:{}"></span>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.1f}%</td></tr>)",
                     report::block_colour(b), escape(b), escape(report::energy_text(dv)), escape(report::energy_text(lv)),
                     escape(report::energy_text(dv + lv)), total > 0 ? 100.0 * (dv + lv) / total : 0.0);
  }
  s += "</tbody></table>\n<p class=\"note\">energy model of the platform file (docs/energy.md): dynamic energy of the "
       "simulated transfers, kernels and NPU/MVU jobs, leakage over the run's wall time; the cluster's waiting cores "
       "count as idle core-cycles.</p>\n";
  return s;
}

}  // namespace

std::string run_to_html(const RunResult& r) {
  const std::string title = "edgesim run: " + r.network + " on " + r.platform;
  std::string s = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  s += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  s += "<title>" + escape(title) + "</title>\n<style>" + kCss + "</style>\n</head>\n<body>\n<main>\n";
  s += "<h1>" + escape(title) + "</h1>\n";
  s += "<div class=\"meta\">" + escape(run_parameters(r)) + "</div>\n";
  if (const std::string c = report::calibration_text(r.calibration); !c.empty())
    s += "<div class=\"meta\">calibration: " + escape(c) + "</div>\n";
  s += summary(r);
  if (r.energy_modelled) {   // the energy chart beside the cycle chart, rows aligned (same scale)
    s += "<h2>Where the cycles and the energy go, per layer</h2>\n<div class=\"pair\"><div style=\"flex:1240 1 0\">" +
         report::layer_chart(r) + "</div><div style=\"flex:620 1 0\">" + report::energy_chart(r) + "</div></div>\n";
    s += energy_blocks_table(r);
  } else {
    s += "<h2>Where the cycles go, per layer</h2>\n" + report::layer_chart(r);
  }
  s += "<p class=\"note\">compute: cycles the engine spends in kernels; overhead: fixed costs (fork, barriers, DMA "
       "issue, wake-up after a DMA wait, kernel set-up); DMA wait: the rest of the layer's window, where the engine "
       "idles waiting for data. Hover a bar for its figures.</p>\n";
  s += "<h2>Memory occupancy per step</h2>\n" + memory_section(r);
  s += "<h2>Layers</h2>\n" + table(r);
  s += "<p class=\"note\">total " + group_digits(r.total_cycles) + " cycles (wall) = " +
       escape(report::time_at_clock(r.total_cycles, r.freq_hz)) + "; " + group_digits(r.accounted_cycles) +
       " accounted = the layers' own counters, as DORY/Deeploy print them (wall cycles add the network loop's "
       "blocking L3&rarr;L2 weight reads)</p>\n";
  s += "<h2>Tiling and engines</h2>\n" + tiling_table(r);
  if (!r.warnings.empty()) {   // platform plausibility, DIANA's offload rules, MVU constraints
    s += "<h2>Warnings</h2>\n<ul class=\"warnings\">\n";
    for (const std::string& w : r.warnings) s += "<li>" + escape(w) + "</li>\n";
    s += "</ul>\n";
  }
  s += report::provenance_html(r.provenance);
  return s + "</main>\n</body>\n</html>\n";
}

void write_run_html(const std::string& path, const RunResult& r) { write_file_atomically(path, run_to_html(r)); }

}  // namespace edgesim
