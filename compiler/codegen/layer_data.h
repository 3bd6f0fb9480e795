// LayerData: the file-scope constants of one generated layer file — the params tables of its
// kernel calls (one entry per distinct tile params, so interior tiles share one) and the
// int64 / double / float arrays their vectors point into. A tile's sliced vector (bias, requant
// k / lambda of its output channels) is found inside an array already emitted and becomes a
// pointer into it, so a layer's vectors are written once however many tiles slice them.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace edgesim::codegen {

class LayerData {
 public:
  explicit LayerData(std::string prefix) : prefix_(std::move(prefix)) {}
  const std::string& prefix() const { return prefix_; }

  // C expressions pointing at the values ("0" for an empty vector).
  std::string ints(const std::vector<int64_t>& v);
  std::string doubles(const std::vector<double>& v);
  std::string floats(const std::vector<float>& v);
  // Entry k of the table <prefix>_<tag> of C type `ctype` holding `init` (deduplicated): the
  // table's name and k (a hole of the statement, so that tiles with different params re-roll).
  struct Entry {
    std::string table;
    int64_t index = 0;
  };
  Entry entry(const std::string& ctype, const std::string& tag, const std::string& init);
  // Extra file-scope declarations (e.g. an NPU geometry), emitted once per distinct text.
  std::string named(const std::string& ctype, const std::string& tag, const std::string& init);

  std::string declarations() const;

 private:
  struct Table {
    std::string ctype, name;
    std::vector<std::string> inits;
    std::map<std::string, size_t> index;
  };
  template <class T>
  std::string pooled(std::vector<std::vector<T>>& pool, const std::vector<T>& v, const char* tag);

  std::string prefix_;
  std::vector<std::vector<int64_t>> ints_;
  std::vector<std::vector<double>> doubles_;
  std::vector<std::vector<float>> floats_;
  std::vector<Table> tables_;
  std::vector<std::string> named_;
  std::map<std::string, std::string> named_index_;
};

}  // namespace edgesim::codegen
