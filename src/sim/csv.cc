// File: sim/csv.cc
#include "sim/csv.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

namespace wasched::sim {
namespace {

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

std::vector<std::string_view> Split(std::string_view line) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (true) {
    const size_t comma = line.find(',', start);
    if (comma == std::string_view::npos) {
      out.push_back(line.substr(start));
      return out;
    }
    out.push_back(line.substr(start, comma - start));
    start = comma + 1;
  }
}

bool IsBlank(std::string_view line) { return line.empty() || line == "\r"; }

}  // namespace

tl::expected<CsvTable, std::string> CsvTable::Parse(std::string_view text, const std::string& file,
                                                    size_t max_rows) {
  CsvTable t;
  if (text.starts_with(kUtf8Bom)) text.remove_prefix(kUtf8Bom.size());
  size_t pos = 0;
  int line_no = 0;
  bool have_header = false;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = text.substr(pos, nl - pos);
    pos = nl + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    if (line.size() > kMaxCsvLineBytes) {
      return tl::unexpected(fmt::format("{}:{}: line longer than {} bytes", file, line_no, kMaxCsvLineBytes));
    }
    if (static_cast<size_t>(std::count(line.begin(), line.end(), ',')) >= kMaxCsvColumns) {
      return tl::unexpected(fmt::format("{}:{}: more than {} columns", file, line_no, kMaxCsvColumns));
    }
    if (const size_t quote = line.find('"'); quote != std::string_view::npos) {
      return tl::unexpected(fmt::format("{}:{}: column {}: a double quote: the trace must be plain CSV without quoting "
                                        "(no field may contain a comma or a quote)",
                                        file, line_no, std::count(line.begin(), line.begin() + quote, ',') + 1));
    }
    if (const size_t nul = line.find('\0'); nul != std::string_view::npos) {
      return tl::unexpected(fmt::format("{}:{}: column {}: a NUL byte: the trace must be text", file, line_no,
                                        std::count(line.begin(), line.begin() + nul, ',') + 1));
    }
    if (!have_header) {
      for (std::string_view f : Split(line)) t.header.emplace_back(f);
      have_header = true;
      continue;
    }
    t.rows.push_back(CsvRow{line_no, Split(line)});
    if (max_rows > 0 && t.rows.size() >= max_rows) break;
  }
  return t;
}

int CsvTable::Column(std::string_view name) const {
  for (size_t i = 0; i < header.size(); ++i) {
    if (header[i] == name) return static_cast<int>(i);
  }
  return -1;
}

std::optional<int64_t> ParseInt(std::string_view s) {
  int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

std::optional<double> ParseDouble(std::string_view s) {
  double v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size() || s.empty() || !std::isfinite(v)) return std::nullopt;
  return v;
}

tl::expected<std::string, std::string> ReadCsvFile(const std::string& path, std::string_view what, size_t max_rows) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return tl::unexpected(fmt::format("{}: cannot read the {}: {}", path, what, std::strerror(EISDIR)));
  }
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return tl::unexpected(fmt::format("{}: cannot read the {}: {}", path, what,
                                      errno != 0 ? std::strerror(errno) : "cannot open"));
  }
  // Chunks, so that a huge line fails after 1 MiB and --max-jobs stops reading early.
  std::string text;
  std::vector<char> chunk(size_t{1} << 16);
  size_t line_start = 0;  // offset in `text` of the current line
  int line_no = 1;
  size_t lines = 0;       // non-blank lines seen, header included
  while (in) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    const auto got = static_cast<size_t>(in.gcount());
    if (got == 0) break;
    size_t scan = text.size();
    text.append(chunk.data(), got);
    if (static_cast<int64_t>(text.size()) > kMaxCsvFileBytes) {
      return tl::unexpected(fmt::format("{}: the {} is larger than 1 GiB (the limit)", path, what));
    }
    for (size_t nl = text.find('\n', scan); nl != std::string::npos; nl = text.find('\n', nl + 1)) {
      const std::string_view line(text.data() + line_start, nl - line_start);
      if (line.size() > kMaxCsvLineBytes + 1) {
        return tl::unexpected(fmt::format("{}:{}: line longer than {} bytes", path, line_no, kMaxCsvLineBytes));
      }
      if (!IsBlank(line) && ++lines > max_rows && max_rows > 0) {
        text.resize(nl + 1);
        return text;
      }
      line_start = nl + 1;
      ++line_no;
    }
    if (text.size() - line_start > kMaxCsvLineBytes + 1) {
      return tl::unexpected(fmt::format("{}:{}: line longer than {} bytes", path, line_no, kMaxCsvLineBytes));
    }
  }
  if (in.bad()) {
    return tl::unexpected(fmt::format("{}: cannot read the {}: {}", path, what,
                                      errno != 0 ? std::strerror(errno) : "read error"));
  }
  return text;
}

}  // namespace wasched::sim
