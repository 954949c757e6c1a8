// File: codec/yaml_documents.cc
//
// Splitting a YAML stream into documents and parsing each with yaml-cpp (see yaml_documents.h).
#include "codec/yaml_documents.h"

#include <exception>
#include <optional>
#include <vector>

#include <fmt/format.h>
#include <yaml-cpp/exceptions.h>

#include "codec/json_dom.h"

namespace wasched::codec::internal {
namespace {

// Piece: a slice of the stream holding one or more whole documents.
struct Piece {
  std::string_view text;
  int first_line = 0;  // 0-based line of text[0] in the stream
};

bool IsDocumentStart(std::string_view line) {
  return line.starts_with("---") &&
         (line.size() == 3 || line[3] == ' ' || line[3] == '\t' || line[3] == '\r');
}

// IsContent: a line that belongs to a document (not blank, not a comment, not a directive).
bool IsContent(std::string_view line) {
  const size_t first = line.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return false;
  if (line[first] == '#') return false;
  if (first == 0 && line[0] == '%') return false;
  return true;
}

// SplitPieces: cuts before every `---` line that follows content; directives and comments stay
// with the document they precede. O(size).
std::vector<Piece> SplitPieces(std::string_view text) {
  std::vector<Piece> pieces;
  size_t piece_start = 0;
  int piece_line = 0;
  bool has_content = false;
  size_t pos = 0;
  int line_number = 0;
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    const size_t next = eol == std::string_view::npos ? text.size() : eol + 1;
    const std::string_view line =
        text.substr(pos, (eol == std::string_view::npos ? text.size() : eol) - pos);
    if (IsDocumentStart(line) && has_content) {
      pieces.push_back(Piece{text.substr(piece_start, pos - piece_start), piece_line});
      piece_start = pos;
      piece_line = line_number;
      has_content = false;
    }
    has_content = has_content || IsContent(line);
    pos = next;
    ++line_number;
  }
  if (piece_start < text.size()) {
    pieces.push_back(Piece{text.substr(piece_start), piece_line});
  }
  return pieces;
}

// HasUtf16Or32ByteOrderMark: UTF-16 / UTF-32 text (yaml-cpp decodes it) holds NUL bytes by
// nature; only a byte-order mark tells it apart from binary data.
bool HasUtf16Or32ByteOrderMark(std::string_view text) {
  return text.starts_with(std::string_view("\x00\x00\xFE\xFF", 4)) ||
         text.starts_with("\xFF\xFE") || text.starts_with("\xFE\xFF");
}

}  // namespace

void ForEachDocument(std::string_view text, const std::function<void(ParsedDocument&)>& fn) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  if (text.find('\0') != std::string_view::npos && !HasUtf16Or32ByteOrderMark(text)) {
    // YAML allows no NUL character; binary files (and yaml-cpp's guess that NUL-padded text is
    // UTF-16) would otherwise read as nothing or as mojibake.
    ParsedDocument doc;
    doc.number = 0;
    doc.error = kNotTextError;
    doc.text_size = text.size();
    fn(doc);
    return;
  }
  if (LooksLikeJson(text)) {
    // Strict JSON (e.g. `kubectl get -o json`) takes nlohmann's fast parser; anything else that
    // starts with `{` or `[` is YAML flow style and goes through yaml-cpp below.
    if (std::optional<YamlDom> json = ParseJson(text)) {
      ParsedDocument doc;
      doc.number = 1;
      doc.dom = std::move(*json);
      doc.text_size = text.size();
      fn(doc);
      return;
    }
  }
  int number = 0;
  for (const Piece& piece : SplitPieces(text)) {
    std::vector<YamlDom> docs;
    std::string error;
    try {
      docs = ParseWithYamlCpp(piece.text);
    } catch (const YAML::Exception& e) {
      if (e.mark.is_null()) {
        error = fmt::format("malformed YAML: {}", e.msg);
      } else {
        error = fmt::format("malformed YAML: line {}, column {}: {}",
                            piece.first_line + e.mark.line + 1, e.mark.column + 1, e.msg);
      }
    } catch (const std::exception& e) {
      error = fmt::format("malformed YAML: {}", e.what());
    }
    if (!error.empty()) {
      ParsedDocument doc;
      doc.number = ++number;
      doc.error = std::move(error);
      doc.text_size = piece.text.size();
      fn(doc);
      continue;
    }
    for (YamlDom& dom : docs) {
      ParsedDocument doc;
      doc.number = ++number;
      doc.dom = std::move(dom);
      doc.text_size = piece.text.size();
      fn(doc);
    }
  }
}

}  // namespace wasched::codec::internal
