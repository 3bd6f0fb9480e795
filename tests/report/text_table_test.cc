// [report] the one terminal table printer (sim/report/text_table.h): alignment, rules, the
// wrapping of text columns and the hiding of optional ones to fit a width (and the line that
// says so), unlimited width, UTF-8 widths.
#include <sstream>

#include <catch2/catch.hpp>

#include "sim/report/text_table.h"

using namespace edgesim::report;

namespace {

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> v;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) v.push_back(l);
  return v;
}

}  // namespace

TEST_CASE("text table: aligned columns, rules, no trailing blanks", "[report]") {
  TextTable t({{"name", true}, {"cycles"}});
  t.add_row({"a", "1,000"});
  t.add_row({"longer", "5"});
  t.add_rule();
  t.add_row({"TOTAL", "1,005"});
  const std::vector<std::string> l = lines(t.render());
  REQUIRE(l.size() == 6);
  CHECK(l[0] == "name    cycles");
  CHECK(l[1] == "--------------");
  CHECK(l[2] == "a        1,000");
  CHECK(l[3] == "longer       5");
  CHECK(l[4] == l[1]);
  CHECK(l[5] == "TOTAL    1,005");
}

TEST_CASE("text table: fits a width by wrapping, then hiding by rank, and says so", "[report]") {
  TextTable t({{"name", true, 8}, {"a", false, 0, 2}, {"b", false, 0, 1}, {"keep"}});
  t.add_row({"a_very_long_layer_name", "1111111111", "2222222222", "3"});
  // Natural width: 22 + 10 + 10 + 4 + 3 gaps of 2 = 52.
  CHECK(lines(t.render(0))[2] == "a_very_long_layer_name  1111111111  2222222222     3");
  // 40: only the name narrows, to 10 characters; it wraps after its underscores, whole.
  const std::vector<std::string> l40 = lines(t.render(40));
  REQUIRE(l40.size() == 5);
  CHECK(l40[2] == "a_very_     1111111111  2222222222     3");
  CHECK(l40[3] == "long_");
  CHECK(l40[4] == "layer_name");
  // 30: even an 8-character name is too wide with every column, so "b" (rank 1) is hidden and the
  // name gets back what then fits (12 characters).
  const std::vector<std::string> l30 = lines(t.render(30));
  REQUIRE(l30.size() == 5);
  CHECK(l30[2] == "a_very_long_  1111111111     3");
  CHECK(l30[3] == "layer_name");
  CHECK(l30[0].find(" b ") == std::string::npos);
  CHECK(l30.back() == "(hidden to fit 30 columns: b; --wide shows all)");
  for (size_t i = 0; i + 1 < l30.size(); ++i) CHECK(l30[i].size() <= 30);
  // 18: "a" (rank 2) goes too; a column without a rank never does.
  const std::vector<std::string> l18 = lines(t.render(18));
  CHECK(l18[2] == "a_very_long_     3");
  CHECK(l18.back() == "(hidden to fit 18 columns: b, a; --wide shows all)");
  // Narrower than the columns that cannot go: printed at their minimum rather than dropped.
  CHECK(lines(t.render(5))[2] == "a_very_      3");
  for (size_t w : {5, 18, 30, 40})
    for (const std::string& l : lines(t.render(w))) CHECK(l.find("...") == std::string::npos);
}

TEST_CASE("text table: a wrapped cell loses nothing: blanks break first, then separators, then the width", "[report]") {
  CHECK(wrap_cell("not npu: GEMM lowering to the NPU exists for N-EUREKA only", 20) ==
        std::vector<std::string>{"not npu: GEMM", "lowering to the NPU", "exists for N-EUREKA", "only"});
  CHECK(wrap_cell("__QL_REPLACED__INTEGERIZE_PACT_LIN_PASS_5_MatMul", 16) ==
        std::vector<std::string>{"__QL_REPLACED__", "INTEGERIZE_PACT_", "LIN_PASS_5_", "MatMul"});
  CHECK(wrap_cell("abcdefghij", 4) == std::vector<std::string>{"abcd", "efgh", "ij"});
  CHECK(wrap_cell("short", 10) == std::vector<std::string>{"short"});
  CHECK(wrap_cell("", 10) == std::vector<std::string>{""});
  // Lines of text: each wrapped, continuations under the indent; width 0 leaves them whole.
  CHECK(wrap_lines("label: one two three four\nshort", 18, 7) == "label: one two\n       three four\nshort\n");
  CHECK(wrap_lines("label: one two three four", 0, 7) == "label: one two three four\n");
}

TEST_CASE("text table: widths count characters, abbreviation keeps head and tail", "[report]") {
  CHECK(display_width("L2→L1") == 5);
  CHECK(abbreviate_middle("abcdefghij", 7) == "ab...ij");
  CHECK(abbreviate_middle("abc", 7) == "abc");
  CHECK(abbreviate_middle("αβγδεζηθ", 7) == "αβ...ηθ");
  TextTable t({{"x", true}, {"y"}});
  t.add_row({"→", "1"});
  CHECK(lines(t.render())[2] == "→  1");
}
