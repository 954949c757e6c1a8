// File: sim/csv.h
//
// A small CSV reader for the trace files: plain CSV (comma-separated, header row, no quoting:
// none of the supported traces quote fields; a line with a double quote is an error, since a
// quoted comma would shift the columns).
// A leading UTF-8 byte-order mark is skipped (Excel and PowerShell write one); CRLF line ends
// are accepted. Rows are views into the caller's text.
//
//   auto t = CsvTable::Parse(text, "x.csv");      // t->header, t->rows[i].fields, t->rows[i].line
//   int c = t->Column("duration");                // -1 when absent
// Limits (exit 1 with "<file>:<line>: ..." in the CLI): a line of at most kMaxCsvLineBytes, at
// most kMaxCsvColumns fields; ReadCsvFile reads at most kMaxCsvFileBytes.
// Complexity: O(text size).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <tl/expected.hpp>

namespace wasched::sim {

inline constexpr size_t kMaxCsvLineBytes = size_t{1} << 20;   // 1 MiB per line
inline constexpr size_t kMaxCsvColumns = 1024;                // fields per line
inline constexpr int64_t kMaxCsvFileBytes = int64_t{1} << 30; // 1 GiB per file (as manifests)

struct CsvRow {
  int line = 0;  // 1-based line number in the file
  std::vector<std::string_view> fields;
};

struct CsvTable {
  std::vector<std::string> header;
  std::vector<CsvRow> rows;
  // Parse: splits `text` (which must outlive the table) into the header and data rows; blank
  // lines are skipped; a trailing '\r' is dropped; a leading UTF-8 BOM is skipped. `max_rows` >
  // 0 stops after that many data rows. Errors: "<file>:<line>: line longer than 1048576 bytes" /
  // "<file>:<line>: more than 1024 columns" / "<file>:<line>: column <n>: a double quote: ..." / "<file>:<line>: column <n>: a NUL byte: ...".
  static tl::expected<CsvTable, std::string> Parse(std::string_view text, const std::string& file,
                                                   size_t max_rows = 0);
  // Column: index of `name` in the header, -1 when absent.
  [[nodiscard]] int Column(std::string_view name) const;
};

// ParseInt / ParseDouble: the whole field as a number; nullopt otherwise (empty, junk, overflow).
[[nodiscard]] std::optional<int64_t> ParseInt(std::string_view s);
[[nodiscard]] std::optional<double> ParseDouble(std::string_view s);

// ReadCsvFile: the file's text up to the header and `max_rows` non-blank data lines (0 = all:
// the file is read only that far, so --max-jobs on a huge trace stays cheap). Errors name the
// file and the OS reason ("x.csv: cannot read the trace file: No such file or directory") or the
// size limit.
[[nodiscard]] tl::expected<std::string, std::string> ReadCsvFile(const std::string& path, std::string_view what,
                                                                 size_t max_rows = 0);

}  // namespace wasched::sim
