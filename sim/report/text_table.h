// TextTable: the one terminal table printer of edgesim (run, compile, tune, validate, sweep).
// Columns are left-aligned text or right-aligned figures, two spaces apart; widths follow the
// content. Rendering to a width (the default, kTerminalWidth) keeps a table on a 100-column
// terminal: first the shrinkable text columns are narrowed down to their minimum, a cell wider
// than its column wrapping onto continuation lines (never cut), then optional columns are
// hidden, lowest priority first, and a last line names what was hidden ("--wide shows all"). Rendering with width 0 prints everything. The output depends only on the
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
  size_t min_width = 0;   // > 0: may be narrowed down to this many characters (its cells wrap)
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
// Text in lines of at most `width` characters: broken at the last blank (dropped), else after a
// '_', '/', ',', ';', '-' or '.', else at the width. Nothing is lost: the lines joined give the text
// (with the blanks at the breaks).
std::vector<std::string> wrap_cell(const std::string& s, size_t width);
// Each line of `text` wrapped (wrap_cell) to `width` columns, continuation lines indented by
// `indent` blanks; every line ends in '\n'.
std::string wrap_lines(const std::string& text, size_t width = kTerminalWidth, size_t indent = 2);

}  // namespace edgesim::report
