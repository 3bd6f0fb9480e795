// Provenance writers (provenance.h).
#include "sim/report/provenance.h"

#include <fmt/format.h>

#include "sim/report/svg.h"

namespace edgesim::report {

nlohmann::json provenance_json(const Provenance& p) {
  nlohmann::json options = nlohmann::json::object();
  for (const auto& [k, v] : p.options) options[k] = v;
  nlohmann::json files = nlohmann::json::array();
  for (const FileRecord& f : p.files) files.push_back({{"role", f.role}, {"path", f.path}, {"hash", f.hash}});
  return {{"command_line", p.command_line},
          {"version", p.version},
          {"commit", p.commit},
          {"platform", p.platform},
          {"platform_spec_hash", p.platform_spec_hash},
          {"overrides", p.overrides},
          {"options", options},
          {"files", files}};
}

namespace {

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : " ") + x;
  return s.empty() ? "none" : s;
}

std::string options_text(const Provenance& p) {
  std::string s;
  for (const auto& [k, v] : p.options) s += fmt::format("{}{}={}", s.empty() ? "" : " ", k, v);
  return s.empty() ? "none" : s;
}

}  // namespace

std::string provenance_html(const Provenance& p) {
  if (p.empty()) return "";
  std::string rows;
  auto row = [&rows](const std::string& k, const std::string& v) {
    rows += "<tr><th>" + escape(k) + "</th><td><code>" + escape(v) + "</code></td></tr>\n";
  };
  row("command", p.command_line);
  row("edgesim", p.version + " (commit " + p.commit + ")");
  row("platform", p.platform + ", spec hash " + p.platform_spec_hash);
  row("overrides", joined(p.overrides));
  row("options", options_text(p));
  for (const FileRecord& f : p.files) row(f.role + " file", f.path + (f.hash.empty() ? "" : "  " + f.hash));
  return "<footer class=\"provenance\"><h2>How this report was made</h2>\n<table>\n" + rows + "</table></footer>\n";
}

std::string provenance_comment_lines(const Provenance& p) {
  if (p.empty()) return "";
  std::string s = "# command: " + p.command_line + "\n";
  s += "# edgesim: " + p.version + " (commit " + p.commit + ")\n";
  s += "# platform: " + p.platform + " (spec hash " + p.platform_spec_hash + ")\n";
  s += "# overrides: " + joined(p.overrides) + "\n";
  s += "# options: " + options_text(p) + "\n";
  for (const FileRecord& f : p.files) s += "# " + f.role + " file: " + f.path + (f.hash.empty() ? "" : " " + f.hash) + "\n";
  return s;
}

}  // namespace edgesim::report
