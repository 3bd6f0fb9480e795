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
  std::vector<std::string> head = {"network"};
  for (const Axis& a : s.axes) head.push_back(a.key);
  for (const char* h : {"status", "cycles", "time ms", "MAC/cyc"}) head.push_back(h);
  std::vector<std::vector<std::string>> rows;
  for (const PointRecord& r : rs) {
    std::vector<std::string> row = {r.network};
    row.insert(row.end(), r.values.begin(), r.values.end());
    row.push_back(r.status);
    if (r.status == "ok") {
      row.push_back(report::group_digits(r.total_cycles));
      row.push_back(fmt::format("{:.3f}", r.time_ms));
      row.push_back(fmt::format("{:.2f}", r.mac_per_cycle));
    } else {
      row.insert(row.end(), {"-", "-", "-"});
    }
    rows.push_back(std::move(row));
  }
  std::vector<size_t> w(head.size());
  for (size_t c = 0; c < head.size(); ++c) {
    w[c] = head[c].size();
    for (const auto& row : rows) w[c] = std::max(w[c], row[c].size());
  }
  const size_t first_num = head.size() - 3;
  auto line = [&](const std::vector<std::string>& row, const std::string& tail) {
    std::string l;
    for (size_t c = 0; c < row.size(); ++c)
      l += (c ? "  " : "") + (c >= first_num ? fmt::format("{:>{}}", row[c], w[c]) : fmt::format("{:<{}}", row[c], w[c]));
    if (!tail.empty()) l += "  " + tail;
    out << l << "\n";
  };
  line(head, "reason");
  for (size_t i = 0; i < rs.size(); ++i) line(rows[i], rs[i].reason);
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
    return encode_record(evaluate_point(s, nets.at(p.network), p.values, hint), axis_keys(s));
  };
}

std::string error_message(const SweepSpec& s, size_t index, const std::string& why) {
  const PointRef p = point_at(s, index);
  PointRecord r = point_identity(s, network_name(s.networks.at(p.network)), p.values);
  r.status = "error";
  r.reason = why;
  r.has_layers = true;
  return encode_record(r, axis_keys(s));
}

std::string results_csv(const SweepSpec& s, const std::vector<PointRecord>& rs) {
  std::string text = csv_header(axis_keys(s)) + "\n";
  for (const PointRecord& r : rs) text += csv_row(r) + "\n";
  return text;
}

std::string results_json(const SweepSpec& s, const std::vector<PointRecord>& rs) {
  const std::vector<std::string> keys = axis_keys(s);
  json j;
  j["platform"] = s.platform;
  j["policy"] = s.policy;
  j["points"] = rs.size();
  json axes = json::array(), nets = json::array(), results = json::array();
  for (const Axis& a : s.axes) axes.push_back({{"key", a.key}, {"values", a.values}});
  for (const std::string& n : s.networks) nets.push_back({{"name", network_name(n)}, {"path", n}});
  for (PointRecord r : rs) {
    r.has_layers = true;
    results.push_back(record_to_json(r, keys));
  }
  j["axes"] = axes;
  j["networks"] = nets;
  j["results"] = results;
  return j.dump(1) + "\n";
}

int run_sweep(const SweepSpec& s, const SweepOutputs& o, const Dispatch& dispatch, std::ostream& out, bool tty,
              SweepTotals* totals) {
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
      const auto it = known.find(record_key(point_identity(s, network_name(s.networks[p.network]), p.values), keys));
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
  for (auto& r : results) {
    rs.push_back(std::move(*r));
    t.infeasible += rs.back().status == "infeasible";
    t.errors += rs.back().status == "error";
  }
  if (!o.csv.empty()) write_file_atomically(o.csv, results_csv(s, rs));
  if (!o.json.empty()) write_file_atomically(o.json, results_json(s, rs));
  if (!o.report.empty()) write_file_atomically(o.report, sweep_to_html(s, rs));
  journal.remove();

  print_summary(out, s, rs);
  out << fmt::format("sweep: {} points, {} ok, {} infeasible{}\n", total, total - t.infeasible - t.errors, t.infeasible,
                     t.errors ? fmt::format(", {} errors", t.errors) : "");
  for (const auto& [flag, path] : {std::pair{"csv", o.csv}, {"json", o.json}, {"report", o.report}})
    if (!path.empty()) out << fmt::format("{} written to {}\n", flag, path);
  if (totals) *totals = t;
  return 0;
}

}  // namespace edgesim::sweep
