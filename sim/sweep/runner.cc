// Resume, journal, dispatch and output of `edgesim sweep` (runner.h).
#include "sim/sweep/runner.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "sim/report/format.h"
#include "sim/report/provenance.h"
#include "sim/report/text_table.h"
#include "compiler/io/write_file.h"
#include "sim/sweep/html.h"
#include "sim/sweep/progress.h"

namespace edgesim::sweep {

namespace {

using nlohmann::json;

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Earlier results by record_key; later sources override earlier ones.
std::map<std::string, PointRecord> earlier_results(const SweepSpec& s, const SweepOutputs& o) {
  const std::vector<std::string> keys = axis_keys(s);
  std::map<std::string, PointRecord> known;
  std::error_code ec;
  if (!o.csv.empty() && std::filesystem::is_regular_file(o.csv, ec))
    for (PointRecord& r : records_from_csv(read_text(o.csv), keys)) known[record_key(r, keys)] = std::move(r);
  if (!o.json.empty() && std::filesystem::is_regular_file(o.json, ec)) {
    const json j = json::parse(read_text(o.json), nullptr, false);
    if (j.is_object() && j.contains("results") && j["results"].is_array())
      for (const json& e : j["results"])
        if (auto r = record_from_json(e, keys)) known[record_key(*r, keys)] = std::move(*r);
  }
  const std::string jp = journal_path(o);
  if (!jp.empty() && std::filesystem::is_regular_file(jp, ec)) {
    std::istringstream in(read_text(jp));
    std::string line;
    while (std::getline(in, line)) {
      const json j = json::parse(line, nullptr, false);   // a torn last line fails to parse
      if (auto r = record_from_json(j, keys)) known[record_key(*r, keys)] = std::move(*r);
    }
  }
  return known;
}

// Appends whole lines with one write(2) each (O_APPEND), so an interrupt never tears a line
// that was reported written.
class Journal {
 public:
  Journal(const std::string& path, bool fresh) : path_(path) {
    if (path_.empty()) return;
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | (fresh ? O_TRUNC : 0), 0644);
    if (fd_ < 0) throw std::runtime_error("cannot write " + path_ + ": cannot open the sweep journal");
  }
  ~Journal() {
    if (fd_ >= 0) ::close(fd_);
  }
  void append(const std::string& line) {
    if (fd_ < 0) return;
    const std::string l = line + "\n";
    if (::write(fd_, l.data(), l.size()) != static_cast<ssize_t>(l.size()))
      throw std::runtime_error("cannot write " + path_ + ": journal write failed");
  }
  void remove() {
    if (fd_ < 0) return;
    ::close(fd_);
    fd_ = -1;
    std::error_code ec;
    std::filesystem::remove(path_, ec);
  }
 private:
  std::string path_;
  int fd_ = -1;
};

void print_summary(std::ostream& out, const SweepSpec& s, const std::vector<PointRecord>& rs) {
  std::vector<report::TableColumn> cols = {{"network", true, 12}};
  const bool policies = s.policies.size() > 1, engines = s.engine_sets.size() > 1;
  if (policies) cols.push_back({"policy", true});
  if (engines) cols.push_back({"engines", true});
  for (const Axis& a : s.axes) cols.push_back({a.key, true, 8});
  for (const char* h : {"status"}) cols.push_back({h, true});
  for (const char* h : {"cycles", "time ms", "MAC/cyc"}) cols.push_back({h});
  const bool energy = std::any_of(rs.begin(), rs.end(), [](const PointRecord& r) { return r.energy_uj >= 0; });
  if (energy) cols.push_back({"energy uJ"});
  cols.push_back({"reason", true});
  report::TextTable t(cols);
  // Reasons are printed whole below the table, one per line, each numbered once; the table
  // names them by number, so no reason is cut to fit the terminal.
  std::vector<std::string> reasons;
  auto note = [&](const std::string& text) -> std::string {
    if (text.empty()) return "";
    auto it = std::find(reasons.begin(), reasons.end(), text);
    if (it == reasons.end()) it = reasons.insert(reasons.end(), text);
    return fmt::format("[{}]", it - reasons.begin() + 1);
  };
  for (const PointRecord& r : rs) {
    std::vector<std::string> row = {r.network};
    if (policies) row.push_back(r.policy);
    if (engines) row.push_back(r.engines.empty() ? "(platform)" : r.engines);
    row.insert(row.end(), r.values.begin(), r.values.end());
    row.push_back(r.status);
    if (r.status == "ok") {
      row.push_back(report::group_digits(r.total_cycles));
      row.push_back(fmt::format("{:.3f}", r.time_ms));
      row.push_back(fmt::format("{:.2f}", r.mac_per_cycle));
      if (energy) row.push_back(r.energy_uj >= 0 ? fmt::format("{:.3f}", r.energy_uj) : "-");
    } else {
      row.insert(row.end(), {"-", "-", "-"});
      if (energy) row.push_back("-");
    }
    row.push_back(note(r.carried_from.empty() ? r.reason : "plan of " + r.carried_from));
    t.add_row(std::move(row));
  }
  out << t.render(report::kTerminalWidth);
  for (size_t k = 0; k < reasons.size(); ++k)   // whole, wrapped within the terminal's width
    out << report::wrap_lines(fmt::format("[{}] {}", k + 1, reasons[k]), report::kTerminalWidth, 4);
}

}  // namespace

std::string journal_path(const SweepOutputs& o) {
  if (!o.csv.empty()) return o.csv + ".journal";
  if (!o.json.empty()) return o.json + ".journal";
  return "";
}

std::string encode_record(const PointRecord& r, const std::vector<std::string>& keys) {
  return record_to_json(r, keys).dump();
}

Evaluate make_evaluate(const SweepSpec& s, const std::vector<SweepNetwork>& nets, const TilingHint& hint) {
  return [&s, &nets, hint](size_t index) {
    const PointRef p = point_at(s, index);
    return encode_record(evaluate_point(s, nets.at(p.network), p, hint), axis_keys(s));
  };
}

EvaluatePlan make_evaluate_plan(const SweepSpec& s, const std::vector<SweepNetwork>& nets) {
  return [&s, &nets](size_t index, const nlohmann::json& plan) {
    const PointRef p = point_at(s, index);
    return evaluate_plan(s, nets.at(p.network), p, plan);
  };
}

std::string error_message(const SweepSpec& s, size_t index, const std::string& why) {
  const PointRef p = point_at(s, index);
  PointRecord r = point_identity(s, p);
  r.status = "error";
  r.reason = why;
  r.has_layers = true;
  return encode_record(r, axis_keys(s));
}

std::string results_csv(const SweepSpec& s, const std::vector<PointRecord>& rs, const Provenance& prov) {
  std::string text = report::provenance_comment_lines(prov) + csv_header(axis_keys(s)) + "\n";
  for (const PointRecord& r : rs) text += csv_row(r) + "\n";
  return text;
}

std::string results_json(const SweepSpec& s, const std::vector<PointRecord>& rs, const Provenance& prov) {
  const std::vector<std::string> keys = axis_keys(s);
  json j;
  j["platform"] = s.platform;
  j["policies"] = s.policies;
  json sets = json::array();
  for (const auto& e : s.engine_sets) sets.push_back(engines_label(e));
  j["engine_sets"] = sets;
  j["points"] = rs.size();
  json axes = json::array(), nets = json::array(), results = json::array();
  for (const Axis& a : s.axes) {
    json ax = {{"key", a.key}, {"values", a.values}};
    if (a.link >= 0) ax["link"] = a.link;
    axes.push_back(ax);
  }
  for (size_t n = 0; n < s.networks.size(); ++n) nets.push_back({{"name", spec_network_name(s, n)}, {"path", s.networks[n]}});
  for (PointRecord r : rs) {
    r.has_layers = true;
    results.push_back(record_to_json(r, keys));
  }
  j["axes"] = axes;
  j["networks"] = nets;
  j["results"] = results;
  j["provenance"] = report::provenance_json(prov);
  return j.dump(1) + "\n";
}

int run_sweep(const SweepSpec& s, const SweepOutputs& o, const Dispatch& dispatch, std::ostream& out, bool tty,
              SweepTotals* totals, const EvaluatePlan& carry) {
  const std::vector<std::string> keys = axis_keys(s);
  const size_t total = point_count(s);
  SweepTotals t;
  t.points = total;
  std::vector<std::optional<PointRecord>> results(total);
  std::vector<size_t> pending;
  {
    const std::map<std::string, PointRecord> known = o.fresh ? std::map<std::string, PointRecord>{} : earlier_results(s, o);
    for (size_t i = 0; i < total; ++i) {
      const PointRef p = point_at(s, i);
      const auto it = known.find(record_key(point_identity(s, p), keys));
      if (it != known.end() && (it->second.has_layers || o.json.empty() || it->second.status != "ok")) {
        results[i] = it->second;
        ++t.reused;
      } else {
        pending.push_back(i);
      }
    }
  }

  Journal journal(journal_path(o), o.fresh);
  Progress progress(out, tty, total, t.reused);
  {
    InterruptGuard guard;
    dispatch(pending, [&](size_t index, const std::string& msg) {
      std::optional<PointRecord> r = record_from_json(json::parse(msg, nullptr, false), keys);
      if (!r || index >= total) {
        r = record_from_json(json::parse(error_message(s, index, "unreadable result from a worker"), nullptr, false), keys);
      }
      r->has_layers = true;
      journal.append(encode_record(*r, keys));
      results[index] = std::move(*r);
      ++t.computed;
      progress.step();
    });
    t.interrupted = interrupted();
  }
  progress.finish();

  const size_t done = static_cast<size_t>(std::count_if(results.begin(), results.end(), [](const auto& r) { return r.has_value(); }));
  if (done < total) {
    if (totals) *totals = t;
    const std::string jp = journal_path(o);
    std::cerr << fmt::format("edgesim: sweep {}: {} of {} points done{}\n", t.interrupted ? "interrupted" : "incomplete", done,
                             total, jp.empty() ? " (no -o/--json: nothing kept)" : "; kept in " + jp + ": run the same command again to resume");
    return 130;
  }

  std::vector<PointRecord> rs;
  for (auto& r : results) rs.push_back(std::move(*r));
  if (carry) {
    const CarryTotals c = carry_tuned_plans(s, rs, carry);
    if (c.simulated > 0)
      out << fmt::format("tuned plans carried to more memory: {} of {} plans simulated at a larger point were faster there\n",
                         c.carried, c.simulated);
  }
  for (const PointRecord& r : rs) {
    t.infeasible += r.status == "infeasible";
    t.errors += r.status == "error";
  }
  if (!o.csv.empty()) write_file_atomically(o.csv, results_csv(s, rs, o.provenance));
  if (!o.json.empty()) write_file_atomically(o.json, results_json(s, rs, o.provenance));
  if (!o.report.empty()) write_file_atomically(o.report, sweep_to_html(s, rs, o.provenance));
  journal.remove();

  print_summary(out, s, rs);
  out << fmt::format("sweep: {} points, {} ok, {} infeasible{}\n", total, total - t.infeasible - t.errors, t.infeasible,
                     t.errors ? fmt::format(", {} errors", t.errors) : "");
  for (const auto& [flag, path] : {std::pair{"csv", o.csv}, {"json", o.json}, {"report", o.report}})
    if (!path.empty()) out << fmt::format("{} written to {}\n", flag, path);
  if (totals) *totals = t;
  if (t.infeasible + t.errors == total && total > 0) {
    std::cerr << fmt::format("edgesim: error: sweep: none of the {} points could be evaluated ({} infeasible, {} errors; "
                             "reasons below the table)\n", total, t.infeasible, t.errors);
    return 1;
  }
  return 0;
}

}  // namespace edgesim::sweep
