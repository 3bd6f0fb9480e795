// TextTable: the one terminal table printer of edgesim (run, compile, tune, validate, sweep).
// Columns are left-aligned text or right-aligned figures, two spaces apart; widths follow the
// content. Rendering to a width (the default, kTerminalWidth) keeps a table on a 100-column
// terminal: first the shrinkable text columns are abbreviated (head...tail) down to their minimum,
// then optional columns are hidden, lowest priority first, and a last line names what was hidden
// ("--wide shows all"). Rendering with width 0 prints everything. The output depends only on the
// cells (no locale, no terminal query), so it is deterministic.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace edgesim::report {

constexpr size_t kTerminalWidth = 100;

struct TableColumn {
  std::string title;
  bool left = false;      // left-aligned text (else right-aligned figures)
  size_t min_width = 0;   // > 0: may be abbreviated down to this many characters
  int hide_rank = 0;      // > 0: may be hidden to fit, rank 1 first
};

class TextTable {
 public:
  explicit TextTable(std::vector<TableColumn> columns);
  // A row of cells, one per column (missing cells are empty).
  void add_row(std::vector<std::string> cells);
  // A line of '-' across the table at this point.
  void add_rule();
  // The table as lines, each ending in '\n', without trailing blanks; max_width 0: no limit.
  std::string render(size_t max_width = kTerminalWidth) const;

 private:
  std::vector<TableColumn> cols_;
  std::vector<std::vector<std::string>> rows_;   // an empty row is a rule
};

// Display width of UTF-8 text (code points; edgesim's cells hold no wide characters).
size_t display_width(const std::string& s);
// Text cut to `width` characters, keeping its head and tail around "..." (whole when it fits).
std::string abbreviate_middle(const std::string& s, size_t width);

}  // namespace edgesim::report
