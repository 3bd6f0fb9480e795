// LayerData (layer_data.h).
#include "compiler/codegen/layer_data.h"

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "compiler/codegen/stmt.h"

namespace edgesim::codegen {

namespace {

// Exact C literals: integers as c_int, floating point as C99 hexadecimal literals.
std::string lit(int64_t v) { return c_int(v); }
std::string lit(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%a", v);
  return b;
}
std::string lit(float v) { return lit(static_cast<double>(v)) + "f"; }

const char* ctype_of(int64_t) { return "int64_t"; }
const char* ctype_of(double) { return "double"; }
const char* ctype_of(float) { return "float"; }

}  // namespace

template <class T>
std::string LayerData::pooled(std::vector<std::vector<T>>& pool, const std::vector<T>& v, const char* tag) {
  if (v.empty()) return "0";
  for (size_t a = 0; a < pool.size(); ++a) {
    const auto& p = pool[a];
    const auto it = std::search(p.begin(), p.end(), v.begin(), v.end());
    if (it != p.end()) {
      const auto off = it - p.begin();
      return off == 0 ? fmt::format("{}_{}{}", prefix_, tag, a) : fmt::format("{}_{}{} + {}", prefix_, tag, a, off);
    }
  }
  pool.push_back(v);
  return fmt::format("{}_{}{}", prefix_, tag, pool.size() - 1);
}

std::string LayerData::ints(const std::vector<int64_t>& v) { return pooled(ints_, v, "i"); }
std::string LayerData::doubles(const std::vector<double>& v) { return pooled(doubles_, v, "d"); }
std::string LayerData::floats(const std::vector<float>& v) { return pooled(floats_, v, "f"); }

LayerData::Entry LayerData::entry(const std::string& ctype, const std::string& tag, const std::string& init) {
  auto t = std::find_if(tables_.begin(), tables_.end(), [&](const Table& x) { return x.ctype == ctype && x.name == prefix_ + "_" + tag; });
  if (t == tables_.end()) {
    tables_.push_back({ctype, prefix_ + "_" + tag, {}, {}});
    t = tables_.end() - 1;
  }
  auto [it, fresh] = t->index.emplace(init, t->inits.size());
  if (fresh) t->inits.push_back(init);
  return {t->name, static_cast<int64_t>(it->second)};
}

std::string LayerData::named(const std::string& ctype, const std::string& tag, const std::string& init) {
  auto [it, fresh] = named_index_.emplace(ctype + " = " + init, "");
  if (fresh) {
    it->second = fmt::format("{}_{}{}", prefix_, tag, named_.size());
    named_.push_back("static const " + ctype + " " + it->second + " = " + init + ";\n");
  }
  return it->second;
}

std::string LayerData::declarations() const {
  std::string r;
  auto arrays = [&](const auto& pool, const char* tag) {
    for (size_t a = 0; a < pool.size(); ++a) {
      r += fmt::format("static const {} {}_{}{}[{}] = {{", ctype_of(pool[a][0]), prefix_, tag, a, pool[a].size());
      for (size_t i = 0; i < pool[a].size(); ++i)
        r += (i % 12 == 0 ? "\n    " : " ") + lit(pool[a][i]) + (i + 1 < pool[a].size() ? "," : "");
      r += "\n};\n";
    }
  };
  arrays(ints_, "i");
  arrays(doubles_, "d");
  arrays(floats_, "f");
  for (const std::string& n : named_) r += n;
  for (const Table& t : tables_) {
    r += fmt::format("static const {} {}[{}] = {{\n", t.ctype, t.name, t.inits.size());
    for (const std::string& i : t.inits) r += "    " + i + ",\n";
    r += "};\n";
  }
  return r;
}

}  // namespace edgesim::codegen
