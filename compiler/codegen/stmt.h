// Stmt: one C statement of a generated layer file, split into fixed text and integer holes
// (offsets, counts, shapes, table indices), so that a run of tiles whose statements differ only
// in those integers can be re-rolled into a loop (reroll.h) without changing what runs.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace edgesim::codegen {

struct Stmt {
  std::vector<std::string> text;   // text[0] hole[0] text[1] ... hole[n-1] text[n]
  std::vector<int64_t> holes;
  std::string comment;             // printed above the statement when it is not inside a loop
  std::string what;                // the same without per-tile numbers, printed inside a loop

  std::string shape() const;       // the text with every hole as '@': statements re-roll when equal
  std::string render() const;      // the holes as decimal literals
};

// Builds a Stmt: `b << "es_dma_wait(&h[" << hole(3) << "]);"`.
class StmtBuilder {
 public:
  StmtBuilder() { s_.text.emplace_back(); }
  StmtBuilder& operator<<(const std::string& t) {
    s_.text.back() += t;
    return *this;
  }
  StmtBuilder& hole(int64_t v) {
    s_.holes.push_back(v);
    s_.text.emplace_back();
    return *this;
  }
  StmtBuilder& comment(const std::string& c, const std::string& what) {
    s_.comment = c;
    s_.what = what;
    return *this;
  }
  Stmt done() { return s_; }

 private:
  Stmt s_;
};

// A C integer literal of any int64 value (INT64_MIN included).
std::string c_int(int64_t v);
// Text safe inside a C comment ("*/" broken up) and a C string literal (quotes, backslashes and
// control characters escaped).
std::string c_comment(const std::string& s);
std::string c_string(const std::string& s);

}  // namespace edgesim::codegen
