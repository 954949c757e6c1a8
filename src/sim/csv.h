// File: sim/csv.h
//
// A small CSV reader for the trace files (comma-separated, header row, no quoting: none of the
// supported traces quote fields). Rows are views into the caller's text.
//
//   CsvTable t = CsvTable::Parse(text);            // t.header, t.rows[i].fields, t.rows[i].line
//   int c = t.Column("duration");                  // -1 when absent
// Complexity: O(text size).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace wasched::sim {

struct CsvRow {
  int line = 0;  // 1-based line number in the file
  std::vector<std::string_view> fields;
};

struct CsvTable {
  std::vector<std::string> header;
  std::vector<CsvRow> rows;
  // Parse: splits `text` (which must outlive the table) into the header and data rows; blank
  // lines are skipped; a trailing '\r' is dropped.
  static CsvTable Parse(std::string_view text);
  // Column: index of `name` in the header, -1 when absent.
  [[nodiscard]] int Column(std::string_view name) const;
};

// ParseInt / ParseDouble: the whole field as a number; nullopt otherwise (empty, junk, overflow).
[[nodiscard]] std::optional<int64_t> ParseInt(std::string_view s);
[[nodiscard]] std::optional<double> ParseDouble(std::string_view s);

// ReadFile: the whole file, or an error naming it.
[[nodiscard]] std::optional<std::string> ReadFile(const std::string& path);

}  // namespace wasched::sim
