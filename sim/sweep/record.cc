// Encodings of a sweep point's result (record.h): JSON object and CSV row, both round-tripping.
#include "sim/sweep/record.h"

#include <cmath>
#include <sstream>

#include <fmt/format.h>

namespace edgesim::sweep {

using nlohmann::json;

double round4(double x) { return std::round(x * 1e4) / 1e4; }

std::string record_key(const PointRecord& r, const std::vector<std::string>& keys) {
  std::string k = r.network + '\x1f' + r.platform + '\x1f' + r.policy + '\x1f' + r.engines;
  for (size_t i = 0; i < keys.size() && i < r.values.size(); ++i) k += '\x1f' + keys[i] + '=' + r.values[i];
  return k;
}

json record_to_json(const PointRecord& r, const std::vector<std::string>& keys) {
  json j;
  j["network"] = r.network;
  j["platform"] = r.platform;
  j["policy"] = r.policy;
  j["engines"] = r.engines;
  json point = json::object();
  for (size_t i = 0; i < keys.size(); ++i) point[keys[i]] = r.values.at(i);
  j["point"] = point;
  j["status"] = r.status;
  j["reason"] = r.reason;
  if (r.status == "ok") {
    j["total_cycles"] = r.total_cycles;
    j["macs"] = r.macs;
    j["time_ms"] = r.time_ms;
    j["mac_per_cycle"] = r.mac_per_cycle;
    j["energy_uj"] = r.energy_uj >= 0 ? json(r.energy_uj) : json(nullptr);
  } else {
    for (const char* k : {"total_cycles", "macs", "time_ms", "mac_per_cycle", "energy_uj"}) j[k] = nullptr;
  }
  if (r.has_layers) {
    json layers = json::array();
    for (const LayerRecord& l : r.layers)
      layers.push_back({{"name", l.name}, {"op", l.op}, {"cycles", l.cycles}, {"compute", l.compute},
                        {"dma_wait", l.dma_wait}, {"overhead", l.overhead},
                        {"energy_uj", l.energy_uj >= 0 ? json(l.energy_uj) : json(nullptr)}});
    j["layers"] = layers;
  }
  if (!r.schedule_hash.empty()) j["schedule_hash"] = r.schedule_hash;
  if (!r.plan.is_null()) j["plan"] = r.plan;
  if (!r.carried_from.empty()) j["carried_from"] = r.carried_from;
  return j;
}

std::optional<PointRecord> record_from_json(const json& j, const std::vector<std::string>& keys) {
  try {
    if (!j.is_object()) return std::nullopt;
    PointRecord r;
    r.network = j.at("network").get<std::string>();
    r.platform = j.at("platform").get<std::string>();
    r.policy = j.at("policy").get<std::string>();
    r.engines = j.at("engines").get<std::string>();
    const json& point = j.at("point");
    if (!point.is_object() || point.size() != keys.size()) return std::nullopt;
    for (const std::string& k : keys) r.values.push_back(point.at(k).get<std::string>());
    r.status = j.at("status").get<std::string>();
    r.reason = j.at("reason").get<std::string>();
    if (r.status == "ok") {
      r.total_cycles = j.at("total_cycles").get<int64_t>();
      r.macs = j.at("macs").get<int64_t>();
      r.time_ms = j.at("time_ms").get<double>();
      r.mac_per_cycle = j.at("mac_per_cycle").get<double>();
      const json& e = j.at("energy_uj");
      r.energy_uj = e.is_null() ? -1 : e.get<double>();
    } else if (r.status != "infeasible" && r.status != "error") {
      return std::nullopt;
    }
    if (j.contains("layers")) {
      r.has_layers = true;
      for (const json& l : j.at("layers")) {
        const json& e = l.at("energy_uj");
        r.layers.push_back({l.at("name").get<std::string>(), l.at("op").get<std::string>(), l.at("cycles").get<int64_t>(),
                            l.at("compute").get<int64_t>(), l.at("dma_wait").get<int64_t>(),
                            l.at("overhead").get<int64_t>(), e.is_null() ? -1 : e.get<double>()});
      }
    }
    if (j.contains("plan")) {
      if (!j.at("plan").is_object()) return std::nullopt;
      r.plan = j.at("plan");
    }
    if (j.contains("carried_from")) r.carried_from = j.at("carried_from").get<std::string>();
    if (j.contains("schedule_hash")) r.schedule_hash = j.at("schedule_hash").get<std::string>();
    return r;
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

namespace {

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) {
    if (c == '"') q += '"';
    q += (c == '\n' || c == '\r') ? ' ' : c;
  }
  return q + '"';
}

const char* const kTail[] = {"status", "total_cycles", "time_ms", "macs", "mac_per_cycle", "energy_uj", "reason",
                             "carried_from"};

}  // namespace

std::optional<double> objective_value(const PointRecord& r, const std::string& objective) {
  if (r.status != "ok") return std::nullopt;
  if (objective == "cycles") return static_cast<double>(r.total_cycles);
  if (r.energy_uj < 0) return std::nullopt;
  if (objective == "energy") return r.energy_uj;
  if (objective == "edp") return r.energy_uj * r.time_ms;
  return std::nullopt;
}

namespace {

// out += "," + csv_field(f), without a temporary (GCC 12 warns about one, -Wrestrict).
void append_field(std::string& out, const std::string& f) {
  out += ',';
  out += csv_field(f);
}

}  // namespace

std::string csv_header(const std::vector<std::string>& keys) {
  std::string h = "network,platform,policy,engines";
  for (const std::string& k : keys) append_field(h, k);
  for (const char* t : kTail) append_field(h, t);
  return h;
}

std::string csv_row(const PointRecord& r) {
  std::string row = csv_field(r.network);
  for (const std::string* f : {&r.platform, &r.policy, &r.engines}) append_field(row, *f);
  for (const std::string& v : r.values) append_field(row, v);
  row += ',';
  row += r.status;
  if (r.status == "ok") {
    row += fmt::format(",{},{:.4f},{},{:.4f}", r.total_cycles, r.time_ms, r.macs, r.mac_per_cycle);
    row += r.energy_uj >= 0 ? fmt::format(",{:.4f}", r.energy_uj) : std::string(",");
  } else {
    row += ",,,,,";
  }
  append_field(row, r.reason);
  append_field(row, r.carried_from);
  return row;
}

std::vector<std::string> csv_split(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') out.back() += '"', ++i;
      else if (c == '"') quoted = false;
      else out.back() += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.emplace_back();
    } else if (c != '\r') {
      out.back() += c;
    }
  }
  return out;
}

std::vector<PointRecord> records_from_csv(const std::string& text, const std::vector<std::string>& keys) {
  std::vector<PointRecord> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line) && !line.empty() && line[0] == '#') {
  }
  if (line != csv_header(keys)) return out;
  const size_t n = 4 + keys.size() + std::size(kTail);
  while (std::getline(in, line)) {
    const std::vector<std::string> f = csv_split(line);
    if (f.size() != n) continue;
    PointRecord r;
    r.network = f[0], r.platform = f[1], r.policy = f[2], r.engines = f[3];
    r.values.assign(f.begin() + 4, f.begin() + 4 + static_cast<long>(keys.size()));
    size_t i = 4 + keys.size();
    r.status = f[i];
    r.reason = f[i + 6];
    r.carried_from = f[i + 7];
    try {
      if (r.status == "ok") {
        r.total_cycles = std::stoll(f[i + 1]);
        r.time_ms = round4(std::stod(f[i + 2]));
        r.macs = std::stoll(f[i + 3]);
        r.mac_per_cycle = round4(std::stod(f[i + 4]));
        r.energy_uj = f[i + 5].empty() ? -1 : round4(std::stod(f[i + 5]));
      } else if (r.status != "infeasible" && r.status != "error") {
        continue;
      }
    } catch (const std::exception&) {
      continue;
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace edgesim::sweep
