// File: codec/yaml_documents.cc
//
// Splitting a YAML stream into documents and parsing each with libyaml's event parser; JSON
// through simdjson (see yaml_documents.h).
#include "codec/yaml_documents.h"

#include <yaml.h>

#include <fmt/format.h>

#include <optional>
#include <vector>

#include "codec/json_events.h"
#include "codec/yaml11.h"
#include "codec/yaml_reader.h"

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

// HasUtf16Or32ByteOrderMark: UTF-16 / UTF-32 text (libyaml decodes it) holds NUL bytes by
// nature; only a byte-order mark tells it apart from binary data.
bool HasUtf16Or32ByteOrderMark(std::string_view text) {
  return text.starts_with(std::string_view("\x00\x00\xFE\xFF", 4)) ||
         text.starts_with("\xFF\xFE") || text.starts_with("\xFE\xFF");
}

// PieceResult: the documents of one piece, or the error that stopped its parse.
struct PieceResult {
  std::vector<EventTape> docs;
  std::optional<TapeError> error;
};

// ReaderErrorMark: libyaml's reader errors (bad UTF-8, control characters) give a byte offset.
TapeMark MarkOfOffset(std::string_view text, size_t offset) {
  offset = std::min(offset, text.size());
  TapeMark mark;
  size_t line_start = 0;
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++mark.line;
      line_start = i + 1;
    }
  }
  mark.column = static_cast<int>(offset - line_start);
  return mark;
}

std::string_view Text(const yaml_char_t* s) {
  return s == nullptr ? std::string_view() : std::string_view(reinterpret_cast<const char*>(s));
}

// ParseWithLibyaml: every document of `text` through libyaml's event parser into tapes. The
// error is libyaml's problem (e.g. "did not find expected key", as kubectl's go-yaml, a port of
// libyaml, says it) at libyaml's position, or the TapeBuilder's (input limits, aliases, merge
// keys). O(text size).
// `builder` is restarted for the piece on `recycled`'s buffers (TapeBuilder::Restart).
PieceResult ParseWithLibyaml(std::string_view text, TapeBuilder& builder, EventTape recycled) {
  PieceResult out;
  yaml_parser_t parser;
  if (yaml_parser_initialize(&parser) == 0) {
    out.error = TapeError{{}, "out of memory"};
    return out;
  }
  yaml_parser_set_input_string(&parser, reinterpret_cast<const unsigned char*>(text.data()),
                               text.size());
  builder.Restart(text.size(), std::move(recycled));
  bool done = false;
  while (!done && !out.error) {
    yaml_event_t event;
    if (yaml_parser_parse(&parser, &event) == 0) {
      const std::string problem = parser.problem != nullptr ? parser.problem : "unknown problem";
      if (parser.error == YAML_READER_ERROR) {
        out.error = TapeError{MarkOfOffset(text, parser.problem_offset), problem};
      } else {
        out.error = TapeError{TapeMark{static_cast<int>(parser.problem_mark.line),
                                       static_cast<int>(parser.problem_mark.column)},
                              problem};
      }
      break;
    }
    const TapeMark mark{static_cast<int>(event.start_mark.line),
                        static_cast<int>(event.start_mark.column)};
    switch (event.type) {
      case YAML_STREAM_END_EVENT:
        done = true;
        break;
      case YAML_DOCUMENT_END_EVENT:
        out.docs.push_back(builder.Finish());
        break;
      case YAML_ALIAS_EVENT:
        out.error = builder.Alias(mark, Text(event.data.alias.anchor));
        break;
      case YAML_SCALAR_EVENT: {
        const auto& s = event.data.scalar;
        const std::string_view tag = Text(s.tag);
        const std::string_view value(reinterpret_cast<const char*>(s.value), s.length);
        const std::string_view anchor = Text(s.anchor);
        // Untagged: quoted and block scalars are strings, plain ones resolve by content; `!` and
        // `!!str` force a string; other tags resolve by content, as the codec has always done.
        const ScalarStyle style =
            tag.empty() ? (s.style == YAML_PLAIN_SCALAR_STYLE ? ScalarStyle::kPlain
                                                              : ScalarStyle::kString)
                        : (tag == "!" || tag == "tag:yaml.org,2002:str" ? ScalarStyle::kString
                                                                       : ScalarStyle::kPlain);
        // Only texts starting like a number, a boolean or a null can resolve to one (go-yaml
        // v2's resolveTable hints): the others are strings, recorded without more work.
        const bool may_resolve =
            value.empty() || (value[0] >= '0' && value[0] <= '9') ||
            std::string_view("+-.yYnNtTfFoO~").find(value[0]) != std::string_view::npos;
        if (style != ScalarStyle::kPlain || !may_resolve) {
          out.error = builder.Scalar(value, style, mark, anchor);
          break;
        }
        // A plain scalar resolves as YAML 1.1 (codec/yaml11.h): the tape holds the JSON text
        // kubectl would send (`yes` → true, `0x10` → 16), or for a map key the key string
        // (`on:` → "true"). Texts that stay strings but read otherwise under the core schema
        // (`1e400`, `0o8`) are recorded as strings.
        const Yaml11Scalar resolved = ResolveYaml11Plain(value);
        if (resolved.kind == ValueKind::kNull) {
          if (tag.empty()) {
            out.error = builder.Null(mark, anchor);
          } else {
            out.error = builder.Scalar(value, style, mark, anchor);
          }
        } else if (resolved.kind == ValueKind::kString) {
          // A string, value or key alike (its key text is itself): no more resolution.
          out.error = builder.Scalar(value,
                                     ClassifyPlainScalar(value) == ValueKind::kString
                                         ? ScalarStyle::kPlain
                                         : ScalarStyle::kString,
                                     mark, anchor);
        } else if (builder.AtMapKey()) {
          out.error = builder.Scalar(Yaml11KeyText(value), ScalarStyle::kString, mark, anchor, value);
        } else {
          out.error = builder.Scalar(resolved.text, style, mark, anchor, value);
        }
        break;
      }
      case YAML_SEQUENCE_START_EVENT:
        out.error = builder.BeginSeq(mark, Text(event.data.sequence_start.anchor));
        break;
      case YAML_SEQUENCE_END_EVENT:
        out.error = builder.EndSeq();
        break;
      case YAML_MAPPING_START_EVENT:
        out.error = builder.BeginMap(mark, Text(event.data.mapping_start.anchor));
        break;
      case YAML_MAPPING_END_EVENT:
        out.error = builder.EndMap();
        break;
      default:  // stream and document starts
        break;
    }
    yaml_event_delete(&event);
  }
  yaml_parser_delete(&parser);
  if (out.error) out.docs.clear();
  return out;
}

void ForEachYamlDocument(std::string_view text, const std::function<void(ParsedDocument&)>& fn) {
  int number = 0;
  // One builder for every piece, and the last document's tape buffers for the next one: a
  // stream of one small document per object allocates nothing per document once they grew.
  TapeBuilder builder(0);
  EventTape spare;
  const std::vector<Piece> pieces = SplitPieces(text);
  for (const Piece& piece : pieces) {
    PieceResult parsed = ParseWithLibyaml(piece.text, builder, std::move(spare));
    if (parsed.error) {
      ParsedDocument doc;
      doc.number = ++number;
      // A piece that opens like JSON is named JSON (a truncated `.json` file is not "malformed
      // YAML" to its author); libyaml, which parsed it, gives the position and the problem.
      doc.error = fmt::format("malformed {}: line {}, column {}: {}",
                              LooksLikeJson(piece.text) ? "JSON" : "YAML",
                              piece.first_line + parsed.error->mark.line + 1,
                              parsed.error->mark.column + 1, parsed.error->message);
      doc.text_size = piece.text.size();
      doc.piece = piece.text;
      doc.stream_pieces = pieces.size();
      fn(doc);
      continue;
    }
    for (EventTape& tape : parsed.docs) {
      ParsedDocument doc;
      doc.number = ++number;
      doc.tape = std::move(tape);
      doc.text_size = piece.text.size();
      doc.piece = piece.text;
      doc.stream_pieces = pieces.size();
      fn(doc);
      spare = std::move(doc.tape);
    }
  }
}

}  // namespace

void ForEachDocument(std::string_view text, const std::function<void(ParsedDocument&)>& fn,
                     const DocumentOptions& options) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  if (text.find('\0') != std::string_view::npos && !HasUtf16Or32ByteOrderMark(text)) {
    // YAML allows no NUL character; binary files would otherwise read as nothing or as
    // mojibake.
    ParsedDocument doc;
    doc.number = 0;
    doc.error = kNotTextError;
    doc.text_size = text.size();
    fn(doc);
    return;
  }
  if (!options.yaml_only && LooksLikeJson(text)) {
    // Strict JSON (e.g. `kubectl get -o json`) takes simdjson; anything else that starts with
    // `{` or `[` is YAML flow style and goes through libyaml below.
    std::optional<EventTape> json;
    if (options.defer_json_list_items) json = ParseJsonList(text);
    if (!json) json = ParseJson(text);
    if (json) {
      ParsedDocument doc;
      doc.number = 1;
      doc.tape = std::move(*json);
      doc.text_size = text.size();
      fn(doc);
      return;
    }
  }
  ForEachYamlDocument(text, fn);
}

}  // namespace wasched::codec::internal
