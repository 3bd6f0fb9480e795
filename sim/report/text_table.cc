// TextTable (text_table.h).
#include "sim/report/text_table.h"

#include <algorithm>
#include <numeric>

namespace edgesim::report {

size_t display_width(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

namespace {

// Byte offset of the code point that starts at display position `pos` (or the end).
size_t byte_at(const std::string& s, size_t pos) {
  size_t seen = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) continue;
    if (seen++ == pos) return i;
  }
  return s.size();
}

}  // namespace

std::vector<std::string> wrap_cell(const std::string& s, size_t width) {
  std::vector<std::string> out;
  std::string rest = s;
  while (width > 0 && display_width(rest) > width) {
    const size_t limit = byte_at(rest, width);   // bytes of the first `width` characters
    // Break at the last blank within the width (dropped), else after the last '_', '/', ',', ';',
    // '-' or '.', else at the width.
    size_t cut = rest.rfind(' ', limit);
    size_t next = cut + 1;
    if (cut == std::string::npos || cut == 0) {
      const size_t sep = rest.find_last_of("_/,;-.", limit - 1);
      cut = sep != std::string::npos && sep > 0 ? sep + 1 : limit;
      next = cut;
    }
    std::string head = rest.substr(0, cut);
    while (!head.empty() && head.back() == ' ') head.pop_back();
    out.push_back(head);
    rest = rest.substr(next);
    while (!rest.empty() && rest.front() == ' ') rest.erase(0, 1);
  }
  out.push_back(rest);
  return out;
}

std::string wrap_lines(const std::string& text, size_t width, size_t indent) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    const std::string line = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    const std::vector<std::string> first = wrap_cell(line, width);
    out += first[0] + "\n";
    if (first.size() > 1) {   // the rest, under the indent
      std::string rest = line.substr(first[0].size());
      while (!rest.empty() && rest.front() == ' ') rest.erase(0, 1);
      for (const std::string& l : wrap_cell(rest, width > indent ? width - indent : width))
        out += std::string(indent, ' ') + l + "\n";
    }
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

std::string abbreviate_middle(const std::string& s, size_t width) {
  const size_t w = display_width(s);
  if (w <= width) return s;
  if (width <= 3) return s.substr(0, byte_at(s, width));
  const size_t keep = width - 3, head = (keep + 1) / 2, tail = keep - head;
  return s.substr(0, byte_at(s, head)) + "..." + s.substr(byte_at(s, w - tail));
}

TextTable::TextTable(std::vector<TableColumn> columns) : cols_(std::move(columns)) {}

void TextTable::add_row(std::vector<std::string> cells) {
  cells.resize(cols_.size());
  rows_.push_back(std::move(cells));
}

void TextTable::add_rule() { rows_.emplace_back(); }

std::string TextTable::render(size_t max_width) const {
  const size_t n = cols_.size();
  std::vector<size_t> width(n, 0);
  for (size_t c = 0; c < n; ++c) width[c] = display_width(cols_[c].title);
  for (const auto& row : rows_)
    for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], display_width(row[c]));
  std::vector<bool> shown(n, true);
  auto total = [&] {
    size_t t = 0, k = 0;
    for (size_t c = 0; c < n; ++c)
      if (shown[c]) t += width[c], ++k;
    return t + (k > 0 ? 2 * (k - 1) : 0);
  };
  std::vector<std::string> hidden;
  if (max_width > 0) {
    auto floor_of = [&](size_t c) {
      return cols_[c].min_width > 0 ? std::min(width[c], std::max(cols_[c].min_width, display_width(cols_[c].title)))
                                    : width[c];
    };
    // 1. Which columns to hide: with every text column at its minimum, hide optional columns,
    //    lowest rank first (ties: the rightmost first), until the table fits.
    const std::vector<size_t> natural = width;
    for (size_t c = 0; c < n; ++c) width[c] = floor_of(c);
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return cols_[a].hide_rank != cols_[b].hide_rank ? cols_[a].hide_rank < cols_[b].hide_rank : a > b;
    });
    for (size_t c : order) {
      if (total() <= max_width) break;
      if (cols_[c].hide_rank <= 0) continue;
      shown[c] = false;
      hidden.push_back(cols_[c].title);
    }
    // 2. Give the shown text columns back what fits: from their natural widths, take a character
    //    from the widest abbreviable column until the table fits (or all are at their minimum).
    width = natural;
    while (total() > max_width) {
      size_t best = n;
      for (size_t c = 0; c < n; ++c)
        if (shown[c] && cols_[c].min_width > 0 && width[c] > floor_of(c) && (best == n || width[c] > width[best])) best = c;
      if (best == n) break;
      --width[best];
    }
  }
  // A row: a cell wider than its column wraps onto continuation lines (other cells blank there),
  // so no name or reason is ever cut.
  auto line = [&](const std::vector<std::string>& cells) {
    std::vector<std::vector<std::string>> parts(n);
    size_t height = 1;
    for (size_t c = 0; c < n; ++c)
      if (shown[c]) height = std::max(height, (parts[c] = wrap_cell(cells[c], width[c])).size());
    std::string text;
    for (size_t k = 0; k < height; ++k) {
      std::string out;
      bool first = true;
      for (size_t c = 0; c < n; ++c) {
        if (!shown[c]) continue;
        const std::string cell = k < parts[c].size() ? parts[c][k] : "";
        const std::string pad(width[c] - std::min(width[c], display_width(cell)), ' ');
        if (!first) out += "  ";
        first = false;
        out += cols_[c].left ? cell + pad : pad + cell;
      }
      while (!out.empty() && out.back() == ' ') out.pop_back();
      text += out + "\n";
    }
    return text;
  };
  std::vector<std::string> titles;
  for (const TableColumn& c : cols_) titles.push_back(c.title);
  const std::string rule = std::string(total(), '-') + "\n";
  std::string s = line(titles) + rule;
  for (const auto& row : rows_) s += row.empty() ? rule : line(row);
  if (!hidden.empty()) {
    std::string names;
    for (const std::string& h : hidden) names += (names.empty() ? "" : ", ") + h;
    s += "(hidden to fit " + std::to_string(max_width) + " columns: " + names + "; --wide shows all)\n";
  }
  return s;
}

}  // namespace edgesim::report
