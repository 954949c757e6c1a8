// File: codec/yaml_documents.cc
//
// Splitting a YAML stream into documents and parsing each with yaml-cpp (see yaml_documents.h).
#include "codec/yaml_documents.h"

#include <exception>
#include <optional>
#include <vector>

#include <fmt/format.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <sstream>

#include "codec/json_dom.h"
#include "codec/yaml_reader.h"

namespace wasched::codec::internal {
namespace {

// TapeEventHandler: yaml-cpp events → TapeBuilder, one document per HandleNextDocument call.
class TapeEventHandler : public YAML::EventHandler {
 public:
  explicit TapeEventHandler(std::string_view text) : text_(text), builder_(text.size()) {}

  // OnDocumentStart: `mark` is where the document's first token starts. yaml-cpp 0.7 starts a
  // document without consuming anything when the next token cannot begin a node (a stray `,` as
  // in `,` or `{"a": 1},`): it reports a null document and HandleNextDocument returns true again
  // at the same token, forever. Every real document consumes at least one token, so a document
  // that starts where the previous one started is that loop: stop it with a parse error.
  void OnDocumentStart(const YAML::Mark& mark) override {
    if (previous_start_ && mark.pos == previous_start_->pos && mark.line == previous_start_->line &&
        mark.column == previous_start_->column) {
      std::string what = "unexpected character";
      if (mark.pos >= 0 && static_cast<size_t>(mark.pos) < text_.size()) {
        what += " " + QuoteValue(text_.substr(static_cast<size_t>(mark.pos), 1));
      }
      throw YAML::ParserException(mark, what + " (no YAML node can start here)");
    }
    previous_start_ = mark;
  }
  void OnDocumentEnd() override {}

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    Check(mark, builder_.Null(Mark(mark), Anchor(anchor)));
  }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    Check(mark, builder_.Alias(Mark(mark), Anchor(anchor)));
  }
  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    // "?" = plain, "!" = quoted or block; an explicit !!str forces a string; other explicit
    // tags resolve by content, as the codec has always done.
    const ScalarStyle style = (tag == "!" || tag == "tag:yaml.org,2002:str")
                                  ? ScalarStyle::kString
                                  : ScalarStyle::kPlain;
    Check(mark, builder_.Scalar(value, style, Mark(mark), Anchor(anchor)));
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    Check(mark, builder_.BeginSeq(Mark(mark), Anchor(anchor)));
    marks_.push_back(mark);
  }
  void OnSequenceEnd() override {
    const YAML::Mark mark = marks_.back();
    marks_.pop_back();
    Check(mark, builder_.EndSeq());
  }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    Check(mark, builder_.BeginMap(Mark(mark), Anchor(anchor)));
    marks_.push_back(mark);
  }
  void OnMapEnd() override {
    const YAML::Mark mark = marks_.back();
    marks_.pop_back();
    Check(mark, builder_.EndMap());
  }

  EventTape TakeDocument() { return builder_.Finish(); }

 private:
  static TapeMark Mark(const YAML::Mark& m) { return TapeMark{m.line, m.column}; }
  static std::string Anchor(YAML::anchor_t a) {
    return a == YAML::NullAnchor ? std::string() : std::to_string(a);
  }
  static void Check(const YAML::Mark& mark, const std::optional<TapeError>& error) {
    if (!error) return;
    YAML::Mark at = mark;
    at.line = error->mark.line;
    at.column = error->mark.column;
    throw YAML::ParserException(at, error->message);
  }

  std::string_view text_;
  TapeBuilder builder_;
  std::vector<YAML::Mark> marks_;
  std::optional<YAML::Mark> previous_start_;
};

std::vector<EventTape> ParseWithYamlCpp(std::string_view text) {
  std::istringstream in{std::string(text)};
  YAML::Parser parser(in);
  TapeEventHandler handler(text);
  std::vector<EventTape> docs;
  // A document takes at least one byte (`---` or a node), so more documents than bytes means the
  // parser is not advancing (a backstop for the check in OnDocumentStart).
  const size_t max_documents = text.size() + 1;
  while (parser.HandleNextDocument(handler)) {
    docs.push_back(handler.TakeDocument());
    if (docs.size() > max_documents) {
      throw YAML::ParserException(YAML::Mark::null_mark(), "the YAML parser stopped advancing");
    }
  }
  return docs;
}

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
    if (std::optional<EventTape> json = ParseJson(text)) {
      ParsedDocument doc;
      doc.number = 1;
      doc.tape = std::move(*json);
      doc.text_size = text.size();
      fn(doc);
      return;
    }
  }
  int number = 0;
  for (const Piece& piece : SplitPieces(text)) {
    std::vector<EventTape> docs;
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
    for (EventTape& tape : docs) {
      ParsedDocument doc;
      doc.number = ++number;
      doc.tape = std::move(tape);
      doc.text_size = piece.text.size();
      fn(doc);
    }
  }
}

}  // namespace wasched::codec::internal
