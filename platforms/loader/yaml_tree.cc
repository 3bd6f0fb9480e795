// YAML -> dotted leaf keys (see yaml_tree.h). Mappings nest, sequences of scalars are list
// leaves, everything else (nested sequences, null values, non-scalar keys, several documents)
// is rejected with the line it was found on. Aliases are followed, but a mapping that contains
// itself (`foo: &x {a: *x}`), nesting deeper than kMaxDepth or aliases expanding past
// kMaxEntries keys are errors, not an endless walk.
#include "platforms/loader/yaml_tree.h"

#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>
#include <yaml-cpp/yaml.h>

#include "platforms/loader/loader.h"
#include "platforms/util/regular_file.h"

namespace edgesim::detail {

std::string located(const Origin& at, const std::string& msg) {
  if (at.from_set) return fmt::format("{}: {}: {} (from --set)", at.file, at.set_text, msg);
  if (at.line > 0) return fmt::format("{}:{}: {}", at.file, at.line, msg);
  return fmt::format("{}: {}", at.file, msg);
}

void fail_at(const Origin& at, const std::string& msg) { throw PlatformError(located(at, msg)); }

namespace {

// Far beyond any platform file (a few levels, a few hundred keys), far below what exhausts the
// stack or memory: a walk deeper or longer is an alias bomb or a generated file gone wrong.
constexpr size_t kMaxDepth = 64;
constexpr size_t kMaxEntries = 100000;

struct Walker {
  FlatDoc& doc;
  std::map<std::string, int> leaf_lines;
  std::vector<YAML::Node> path;   // the mappings being walked, outermost first
  size_t entries = 0;             // mapping entries and list items walked so far, aliases expanded

  void count(size_t n, const Origin& here) {
    entries += n;
    if (entries > kMaxEntries)
      fail_at(here, fmt::format("more than {} keys and list items (aliases expanding without bound?)", kMaxEntries));
  }

  Origin at(const YAML::Node& n) const { return Origin{doc.file, n.Mark().line + 1, false, {}}; }

  void leaf(const std::string& key, RawValue v) {
    auto [it, fresh] = leaf_lines.emplace(key, v.at.line);
    if (!fresh)
      fail_at(v.at, fmt::format("duplicate key '{}' (first given at line {})", key, it->second));
    doc.entries.emplace_back(key, std::move(v));
  }

  // A mapping value is walked unless it is one of the mappings it is inside (an alias to an
  // enclosing anchor: the walk would never end) or nested too deep.
  void enter(const YAML::Node& v, const Origin& here, const std::string& full) {
    for (const YAML::Node& outer : path)
      if (v.is(outer))
        fail_at(here, fmt::format("'{}' is an alias of a mapping that contains it (a cycle)", full));
    if (path.size() >= kMaxDepth) fail_at(here, fmt::format("'{}' nests deeper than {} mappings", full, kMaxDepth));
  }

  void map(const YAML::Node& node, const std::string& prefix) {
    std::map<std::string, int> seen;   // keys of this mapping -> line
    path.push_back(node);
    for (auto it = node.begin(); it != node.end(); ++it) {
      // Copies (a Node is a handle): `it->` returns a temporary proxy, and a reference into it
      // dangled past this line (AddressSanitizer: stack-use-after-scope, found by fuzzing; it
      // was what GCC 12's -Wdangling-pointer reported in yaml-cpp's node/impl.h, once silenced
      // here as a false positive).
      const YAML::Node k = it->first;
      const YAML::Node v = it->second;
      if (!k.IsScalar() || k.Scalar().empty())
        fail_at(at(k), "mapping keys must be plain names");
      const std::string name = k.Scalar();
      const std::string full = prefix.empty() ? name : prefix + "." + name;
      const Origin here = at(k);
      count(1, here);
      auto [prev, fresh] = seen.emplace(name, here.line);
      if (!fresh)
        fail_at(here, fmt::format("duplicate key '{}' (first given at line {})", full, prev->second));
      if (v.IsMap()) {
        if (v.size() == 0) fail_at(here, fmt::format("'{}' is an empty mapping", full));
        enter(v, here, full);
        map(v, full);
      } else if (v.IsSequence()) {
        RawValue rv;
        rv.is_list = true;
        rv.at = here;
        count(v.size(), here);
        for (const auto& e : v) {
          if (!e.IsScalar())
            fail_at(at(e), fmt::format("'{}': list elements must be single values", full));
          rv.items.push_back(e.Scalar());
        }
        leaf(full, std::move(rv));
      } else if (v.IsScalar()) {
        leaf(full, RawValue{{v.Scalar()}, false, here});
      } else {
        fail_at(here, fmt::format("'{}' has no value", full));
      }
    }
    path.pop_back();
  }
};

// Counts documents, nothing else. yaml-cpp 0.7's LoadAll never returns on a stream whose
// document holds a token the parser does not consume (a ',' in block context): each further
// HandleNextDocument reports another null document, and LoadAll allocates until memory runs
// out (jbeder/yaml-cpp#1040, fixed after 0.7 by PR #1319; found by fuzz_platform_yaml). So
// documents are counted up to two only, and the first is loaded on its own.
struct DocCounter : YAML::EventHandler {
  int docs = 0;
  YAML::Mark second;   // where the second document's first node is (or the document, if none)
  bool second_node = false;
  void node(const YAML::Mark& m) {
    if (docs == 2 && !second_node) second = m, second_node = true;
  }
  void OnDocumentStart(const YAML::Mark& m) override {
    if (++docs == 2) second = m;
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t) override { node(m); }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { node(m); }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t, const std::string&) override { node(m); }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    node(m);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    node(m);
  }
  void OnMapEnd() override {}
};

}  // namespace

FlatDoc read_flat_yaml(const std::string& path, const std::string& kind) {
  if (const std::string why = not_regular_file(path); !why.empty())
    throw PlatformError(fmt::format("{}: {}, expected a {}", path, why, kind));
  std::ifstream in(path);
  if (!in) throw PlatformError(fmt::format("{}: cannot open {}", path, kind));
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  DocCounter count;
  YAML::Node root;
  try {
    std::istringstream stream(text);
    YAML::Parser parser(stream);
    int handled = 0;
    while (handled < 2 && parser.HandleNextDocument(count)) ++handled;
    if (handled == 1) root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    fail_at(Origin{path, e.mark.line + 1, false, {}}, "YAML syntax error: " + e.msg);
  }
  FlatDoc doc{path, {}};
  if (count.docs > 1)
    fail_at(Origin{path, count.second.line + 1, false, {}}, "more than one YAML document in a " + kind);
  if (!root || root.IsNull()) fail_at(Origin{path, 1, false, {}}, "empty " + kind);
  if (!root.IsMap())
    fail_at(Origin{path, root.Mark().line + 1, false, {}}, "a " + kind + " must be a mapping of keys to values");
  Walker w{doc, {}, {}, 0};
  w.map(root, "");
  return doc;
}

std::pair<std::string, RawValue> parse_override(const std::string& text,
                                                const std::string& platform_file) {
  Origin at{platform_file, 0, true, text};
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0) fail_at(at, "expected key=value");
  std::string key = text.substr(0, eq);
  while (!key.empty() && key.back() == ' ') key.pop_back();
  const std::string value = text.substr(eq + 1);
  YAML::Node n;
  try {
    n = YAML::Load(value);
  } catch (const YAML::Exception& e) {
    fail_at(at, "cannot parse the value: " + e.msg);
  }
  RawValue rv;
  rv.at = at;
  if (n.IsScalar()) {
    rv.items.push_back(n.Scalar());
  } else if (n.IsSequence()) {
    rv.is_list = true;
    for (const auto& e : n) {
      if (!e.IsScalar()) fail_at(at, "list elements must be single values");
      rv.items.push_back(e.Scalar());
    }
  } else if (n.IsMap()) {
    fail_at(at, fmt::format("'{}' takes a value, not a mapping (give dotted leaf keys)", key));
  } else {
    fail_at(at, fmt::format("no value given for '{}'", key));
  }
  return {key, std::move(rv)};
}

}  // namespace edgesim::detail
