// File: codec/yaml_fast_parser.cc
//
// The fast manifest-subset YAML parser (see yaml_fast_parser.h). A line-oriented recursive
// descent: block collections are driven by indentation, flow collections by their brackets.
// Anything outside the subset throws the private Unsupported, which ParseFastYaml turns into
// nullopt so that yaml-cpp parses the text instead.
//
// Cursor invariant of the block parsers: each returns with `pos_` at the first character of the
// next content line (blank and comment lines skipped) and `indent_` its indentation, or -1 at
// the end of the text; the caller decides from `indent_` whether the line is still its own.
#include "codec/yaml_fast_parser.h"

#include <algorithm>

namespace wasched::codec::internal {
namespace {

struct Unsupported {};

[[noreturn]] void Bail() { throw Unsupported{}; }

bool IsBlank(char c) { return c == ' ' || c == '\t'; }

bool IsFlowIndicator(char c) {
  return c == ',' || c == '[' || c == ']' || c == '{' || c == '}';
}

// CannotStartPlain: c-indicators that cannot begin a plain scalar (`-` is checked separately).
bool CannotStartPlain(char c) {
  switch (c) {
    case '?': case ':': case ',': case '[': case ']': case '{': case '}': case '#':
    case '&': case '*': case '!': case '|': case '>': case '\'': case '"': case '%':
    case '@': case '`': case '\t': case ' ':
      return true;
    default:
      return false;
  }
}

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

class FastParser {
 public:
  explicit FastParser(std::string_view text) : t_(text) {}

  std::vector<YamlDom> Parse() {
    std::vector<YamlDom> docs;
    bool saw_marker = false;
    NextContentLine(/*allow_marker=*/true);
    if (indent_ == 0 && IsMarker(pos_, '-')) {
      saw_marker = true;
      pos_ += 3;
      FinishLine();
      NextContentLine(/*allow_marker=*/false);
    }
    if (indent_ < 0) {
      if (saw_marker) docs.push_back(builder_.Finish(builder_.AddNull()));
      return docs;
    }
    const YamlNodeId root = ParseBlockNodeAt(/*parent_indent=*/-1);
    if (indent_ >= 0) Bail();  // content after the root node
    docs.push_back(builder_.Finish(root));
    return docs;
  }

 private:
  // DepthGuard: bounds recursion (flow nesting like `[[[[…` must not exhaust the stack).
  class DepthGuard {
   public:
    explicit DepthGuard(int* depth) : depth_(depth) {
      if (++*depth_ > kMaxFastNesting) Bail();
    }
    ~DepthGuard() { --*depth_; }

   private:
    int* depth_;
  };

  char At(size_t p) const { return p < t_.size() ? t_[p] : '\0'; }

  // IsLineEnd: `\n`, `\r\n` or the end of the text at p (a lone `\r` is not handled here).
  bool IsLineEnd(size_t p) const {
    if (p >= t_.size()) return true;
    if (t_[p] == '\n') return true;
    if (t_[p] == '\r') {
      if (At(p + 1) == '\n') return true;
      Bail();
    }
    return false;
  }

  bool IsBlankOrLineEnd(size_t p) const { return IsLineEnd(p) || IsBlank(t_[p]); }

  // IsMarker: `---` / `...` at p followed by a blank or the line end.
  bool IsMarker(size_t p, char c) const {
    return At(p) == c && At(p + 1) == c && At(p + 2) == c && IsBlankOrLineEnd(p + 3);
  }

  bool IsSeqEntryAt(size_t p) const {
    if (At(p) != '-') return false;
    if (IsLineEnd(p + 1)) return true;
    if (At(p + 1) == ' ') return true;
    if (At(p + 1) == '\t') Bail();
    return false;
  }

  size_t Column(size_t p) const { return p - line_start_; }

  // SkipLine: moves past the end of the line containing p.
  void SkipLine(size_t p) {
    while (p < t_.size() && t_[p] != '\n') ++p;
    pos_ = p < t_.size() ? p + 1 : t_.size();
    line_start_ = pos_;
  }

  // FinishLine: after a value, only blanks and a comment may follow on the line; consumes the
  // line break.
  void FinishLine() {
    size_t p = pos_;
    while (p < t_.size() && IsBlank(t_[p])) ++p;
    if (p < t_.size() && t_[p] == '#') {
      if (p == pos_ && p > line_start_ && !IsBlank(t_[p - 1])) Bail();
      SkipLine(p);
      return;
    }
    if (!IsLineEnd(p)) Bail();
    SkipLine(p);
  }

  // NextContentLine: from a line start, skips blank and comment lines; sets pos_ to the first
  // character of the next content line and indent_ to its indentation (-1 at the end).
  void NextContentLine(bool allow_marker = false) {
    while (pos_ < t_.size()) {
      line_start_ = pos_;
      size_t p = pos_;
      while (p < t_.size() && t_[p] == ' ') ++p;
      size_t q = p;
      while (q < t_.size() && IsBlank(t_[q])) ++q;
      if (q != p) Bail();  // a tab in the indentation (yaml-cpp rejects it even on comment lines)
      if (IsLineEnd(q) || t_[q] == '#') {
        SkipLine(q);
        continue;
      }
      if (p == line_start_) {
        if (t_[p] == '%') Bail();
        if (IsMarker(p, '.')) Bail();
        if (IsMarker(p, '-') && !allow_marker) Bail();
      }
      pos_ = p;
      indent_ = static_cast<int>(p - line_start_);
      return;
    }
    line_start_ = pos_;
    indent_ = -1;
  }

  // LineHasKey: the content at p starts with a mapping key (`key:` followed by a blank or the
  // line end), plain or quoted.
  bool LineHasKey(size_t p) const {
    const char c = At(p);
    if (c == '"' || c == '\'') {
      size_t q = p + 1;
      while (!IsLineEnd(q)) {
        if (c == '"' && t_[q] == '\\') {
          if (IsLineEnd(q + 1)) return false;
          q += 2;
          continue;
        }
        if (t_[q] == c) {
          if (c == '\'' && At(q + 1) == '\'') {
            q += 2;
            continue;
          }
          return At(q + 1) == ':' && IsBlankOrLineEnd(q + 2);
        }
        ++q;
      }
      return false;
    }
    for (size_t q = p; !IsLineEnd(q); ++q) {
      if (t_[q] == ':' && IsBlankOrLineEnd(q + 1)) return true;
      if (t_[q] == '#' && q > p && IsBlank(t_[q - 1])) return false;
    }
    return false;
  }

  // ---- scalars ---------------------------------------------------------------------------

  YamlNodeId ParseDoubleQuoted() {
    ++pos_;
    const size_t start = pos_;
    std::string out;
    bool owned = false;
    size_t segment = start;
    while (true) {
      if (IsLineEnd(pos_)) Bail();  // multi-line quoted scalars: yaml-cpp
      const char c = t_[pos_];
      if (c == '"') break;
      if (static_cast<unsigned char>(c) < 0x20 && c != '\t') Bail();
      if (c != '\\') {
        ++pos_;
        continue;
      }
      owned = true;
      out.append(t_.substr(segment, pos_ - segment));
      const char e = At(pos_ + 1);
      pos_ += 2;
      switch (e) {
        case '\\': out.push_back('\\'); break;
        case '"': out.push_back('"'); break;
        case '/': out.push_back('/'); break;
        case 'n': out.push_back('\n'); break;
        case 't': out.push_back('\t'); break;
        case 'r': out.push_back('\r'); break;
        case 'b': out.push_back('\b'); break;
        case 'f': out.push_back('\f'); break;
        case '0': out.push_back('\0'); break;
        case 'u': {
          uint32_t cp = 0;
          for (int i = 0; i < 4; ++i) {
            const char h = At(pos_ + i);
            uint32_t v = 0;
            if (h >= '0' && h <= '9') v = h - '0';
            else if (h >= 'a' && h <= 'f') v = h - 'a' + 10;
            else if (h >= 'A' && h <= 'F') v = h - 'A' + 10;
            else Bail();
            cp = cp * 16 + v;
          }
          if (cp >= 0xD800 && cp <= 0xDFFF) Bail();  // surrogates: leave to yaml-cpp
          AppendUtf8(cp, &out);
          pos_ += 4;
          break;
        }
        default:
          Bail();
      }
      segment = pos_;
    }
    YamlNodeId id;
    if (owned) {
      out.append(t_.substr(segment, pos_ - segment));
      id = builder_.AddOwnedScalar(std::move(out), ScalarStyle::kString);
    } else {
      id = builder_.AddScalar(t_.substr(start, pos_ - start), ScalarStyle::kString);
    }
    ++pos_;  // closing quote
    return id;
  }

  YamlNodeId ParseSingleQuoted() {
    ++pos_;
    const size_t start = pos_;
    std::string out;
    bool owned = false;
    size_t segment = start;
    while (true) {
      if (IsLineEnd(pos_)) Bail();
      const char c = t_[pos_];
      if (static_cast<unsigned char>(c) < 0x20 && c != '\t') Bail();
      if (c == '\'') {
        if (At(pos_ + 1) != '\'') break;
        owned = true;
        out.append(t_.substr(segment, pos_ + 1 - segment));
        pos_ += 2;
        segment = pos_;
        continue;
      }
      ++pos_;
    }
    YamlNodeId id;
    if (owned) {
      out.append(t_.substr(segment, pos_ - segment));
      id = builder_.AddOwnedScalar(std::move(out), ScalarStyle::kString);
    } else {
      id = builder_.AddScalar(t_.substr(start, pos_ - start), ScalarStyle::kString);
    }
    ++pos_;
    return id;
  }

  void CheckPlainStart(size_t p) const {
    const char c = At(p);
    if (CannotStartPlain(c)) Bail();
    if (c == '-' && (IsBlankOrLineEnd(p + 1) || IsFlowIndicator(At(p + 1)))) Bail();
  }

  // ParsePlainBlock: a one-line plain scalar in block context, as a value.
  YamlNodeId ParsePlainBlock() {
    CheckPlainStart(pos_);
    const size_t start = pos_;
    size_t end = pos_;
    while (!IsLineEnd(pos_)) {
      const char c = t_[pos_];
      if (c == '\t') Bail();
      if (c == ':' && IsBlankOrLineEnd(pos_ + 1)) Bail();  // `a: b: c`
      if (c == '#' && t_[pos_ - 1] == ' ') break;
      if (c != ' ') end = pos_ + 1;
      ++pos_;
    }
    pos_ = end;
    return builder_.AddScalar(t_.substr(start, end - start), ScalarStyle::kPlain);
  }

  // ParseKey: a mapping key and its `:`; pos_ ends after the colon.
  YamlNodeId ParseKey() {
    const char c = t_[pos_];
    if (c == '"' || c == '\'') {
      const YamlNodeId id = c == '"' ? ParseDoubleQuoted() : ParseSingleQuoted();
      if (At(pos_) != ':') Bail();
      ++pos_;
      return id;
    }
    CheckPlainStart(pos_);
    const size_t start = pos_;
    size_t end = pos_;
    while (true) {
      const char k = t_[pos_];  // LineHasKey guaranteed a colon on this line
      if (k == '\t') Bail();
      if (k == ':' && IsBlankOrLineEnd(pos_ + 1)) break;
      if (k != ' ') end = pos_ + 1;
      ++pos_;
    }
    ++pos_;
    return builder_.AddScalar(t_.substr(start, end - start), ScalarStyle::kPlain);
  }

  // ParseBlockScalar: `|` / `>` with optional `-` (strip); content indented more than n.
  YamlNodeId ParseBlockScalar(int n) {
    const bool literal = t_[pos_] == '|';
    ++pos_;
    bool strip = false;
    if (At(pos_) == '-') {
      strip = true;
      ++pos_;
    } else if (At(pos_) == '+' || (At(pos_) >= '0' && At(pos_) <= '9')) {
      Bail();
    }
    if (!IsBlankOrLineEnd(pos_)) Bail();
    FinishLine();
    std::vector<std::string_view> lines;  // content lines without indentation; {} = empty line
    int content_indent = -1;
    size_t leading_empty_spaces = 0;
    bool last_content_has_break = true;  // false when the text ends on the last content line
    while (pos_ < t_.size()) {
      const size_t ls = pos_;
      size_t p = ls;
      while (p < t_.size() && t_[p] == ' ') ++p;
      size_t eol = p;
      while (eol < t_.size() && t_[eol] != '\n') ++eol;
      size_t content_end = eol;
      if (eol < t_.size() && content_end > ls && t_[content_end - 1] == '\r') --content_end;
      for (size_t i = ls; i < content_end; ++i) {
        if (t_[i] == '\r') Bail();
      }
      const size_t spaces = p - ls;
      if (p == content_end) {  // whitespace-only line
        if (eol >= t_.size() && p > ls) Bail();  // yaml-cpp keeps such a last line's spaces
        if (content_indent >= 0 && spaces > static_cast<size_t>(content_indent)) Bail();
        if (content_indent < 0) leading_empty_spaces = std::max(leading_empty_spaces, spaces);
        lines.emplace_back();
        pos_ = eol < t_.size() ? eol + 1 : t_.size();
        continue;
      }
      if (t_[p] == '\t' && (content_indent < 0 || spaces < static_cast<size_t>(content_indent))) {
        Bail();
      }
      if (content_indent < 0) {
        if (static_cast<int>(spaces) <= n) break;
        content_indent = static_cast<int>(spaces);
        if (leading_empty_spaces > spaces) Bail();
      } else if (static_cast<int>(spaces) < content_indent) {
        if (static_cast<int>(spaces) > n) Bail();
        break;
      }
      lines.push_back(t_.substr(ls + content_indent, content_end - (ls + content_indent)));
      last_content_has_break = eol < t_.size();
      pos_ = eol < t_.size() ? eol + 1 : t_.size();
    }
    line_start_ = pos_;
    size_t last = lines.size();
    while (last > 0 && lines[last - 1].empty()) --last;
    std::string text;
    if (literal) {
      for (size_t i = 0; i < last; ++i) {
        if (i > 0) text.push_back('\n');
        text.append(lines[i]);
      }
    } else {
      size_t empty_run = 0;
      bool seen = false;
      for (size_t i = 0; i < last; ++i) {
        if (lines[i].empty()) {
          ++empty_run;
          continue;
        }
        if (lines[i][0] == ' ' || lines[i][0] == '\t') Bail();  // more-indented folding
        if (seen && empty_run == 0) text.push_back(' ');
        text.append(empty_run, '\n');
        text.append(lines[i]);
        empty_run = 0;
        seen = true;
      }
    }
    if (last > 0 && !strip && last_content_has_break) text.push_back('\n');
    const YamlNodeId id = builder_.AddOwnedScalar(std::move(text), ScalarStyle::kString);
    NextContentLine();
    return id;
  }

  // ---- flow --------------------------------------------------------------------------------

  // SkipFlowSpace: blanks, comments and line breaks inside a flow collection. Continuation
  // lines must be indented more than the enclosing block (`parent_indent`).
  void SkipFlowSpace(int parent_indent) {
    while (true) {
      while (pos_ < t_.size() && IsBlank(t_[pos_])) ++pos_;
      if (pos_ >= t_.size()) return;
      const char c = t_[pos_];
      if (c == '#') {
        if (pos_ > line_start_ && !IsBlank(t_[pos_ - 1])) Bail();
        SkipLine(pos_);
      } else if (IsLineEnd(pos_)) {
        SkipLine(pos_);
      } else {
        return;
      }
      // At a new line: check its indentation unless it is blank or a comment.
      size_t p = pos_;
      while (p < t_.size() && t_[p] == ' ') ++p;
      size_t q = p;
      while (q < t_.size() && IsBlank(t_[q])) ++q;
      if (q >= t_.size() || IsLineEnd(q) || t_[q] == '#') continue;
      if (parent_indent >= 0) {
        if (q != p || static_cast<int>(p - line_start_) <= parent_indent) Bail();
      } else if (p == line_start_ && (IsMarker(p, '-') || IsMarker(p, '.') || t_[p] == '%')) {
        Bail();
      }
    }
  }

  // ParsePlainFlow: a plain scalar inside a flow collection (ends at , [ ] { } `: ` ` #`).
  YamlNodeId ParsePlainFlow() {
    CheckPlainStart(pos_);
    const size_t start = pos_;
    size_t end = pos_;
    while (!IsLineEnd(pos_)) {
      const char c = t_[pos_];
      if (IsFlowIndicator(c)) break;
      if (c == ':' && (IsBlankOrLineEnd(pos_ + 1) || IsFlowIndicator(At(pos_ + 1)))) break;
      if (c == '#' && IsBlank(t_[pos_ - 1])) break;
      // yaml-cpp's flow scanner rejects several indicators inside plain scalars: decline them.
      if (c == '\t' || c == '?' || c == '&' || c == '*' || c == '!' || c == '|' || c == '>' ||
          c == '\'' || c == '"' || c == '%' || c == '@' || c == '`') {
        Bail();
      }
      if (c != ' ') end = pos_ + 1;
      ++pos_;
    }
    pos_ = end;
    return builder_.AddScalar(t_.substr(start, end - start), ScalarStyle::kPlain);
  }

  YamlNodeId ParseFlowNode(int parent_indent) {
    SkipFlowSpace(parent_indent);
    switch (At(pos_)) {
      case '{': return ParseFlowMap(parent_indent);
      case '[': return ParseFlowSeq(parent_indent);
      case '"': return ParseDoubleQuoted();
      case '\'': return ParseSingleQuoted();
      default: return ParsePlainFlow();
    }
  }

  YamlNodeId ParseFlowMap(int parent_indent) {
    DepthGuard guard(&depth_);
    ++pos_;
    const size_t start = stack_.size();
    SkipFlowSpace(parent_indent);
    if (At(pos_) == '}') {
      ++pos_;
      return builder_.AddCollection(YamlType::kMap, {});
    }
    while (true) {
      SkipFlowSpace(parent_indent);
      const char c = At(pos_);
      YamlNodeId key;
      if (c == '"' || c == '\'') {
        key = c == '"' ? ParseDoubleQuoted() : ParseSingleQuoted();
        while (At(pos_) == ' ') ++pos_;
        if (At(pos_) != ':') Bail();
      } else {
        key = ParsePlainFlow();
        if (At(pos_) != ':') Bail();  // a key without value
      }
      ++pos_;
      stack_.push_back(key);
      SkipFlowSpace(parent_indent);
      if (IsFlowIndicator(At(pos_)) && At(pos_) != '[' && At(pos_) != '{') Bail();  // null value
      const YamlNodeId value = ParseFlowNode(parent_indent);
      stack_.push_back(value);
      SkipFlowSpace(parent_indent);
      if (At(pos_) == ',') {
        ++pos_;
        SkipFlowSpace(parent_indent);
        if (At(pos_) == '}') Bail();  // trailing comma
        continue;
      }
      if (At(pos_) == '}') {
        ++pos_;
        break;
      }
      Bail();
    }
    const YamlNodeId id = builder_.AddCollection(
        YamlType::kMap, std::span<const YamlNodeId>(stack_).subspan(start));
    stack_.resize(start);
    return id;
  }

  YamlNodeId ParseFlowSeq(int parent_indent) {
    DepthGuard guard(&depth_);
    ++pos_;
    const size_t start = stack_.size();
    SkipFlowSpace(parent_indent);
    if (At(pos_) == ']') {
      ++pos_;
      return builder_.AddCollection(YamlType::kSeq, {});
    }
    while (true) {
      SkipFlowSpace(parent_indent);
      if (IsFlowIndicator(At(pos_)) && At(pos_) != '[' && At(pos_) != '{') Bail();
      const YamlNodeId item = ParseFlowNode(parent_indent);
      stack_.push_back(item);
      SkipFlowSpace(parent_indent);
      if (At(pos_) == ',') {
        ++pos_;
        SkipFlowSpace(parent_indent);
        if (At(pos_) == ']') Bail();  // trailing comma
        continue;
      }
      if (At(pos_) == ']') {
        ++pos_;
        break;
      }
      Bail();  // includes `[a: b]` single-pair mappings
    }
    const YamlNodeId id = builder_.AddCollection(
        YamlType::kSeq, std::span<const YamlNodeId>(stack_).subspan(start));
    stack_.resize(start);
    return id;
  }

  // ---- block -------------------------------------------------------------------------------

  // ParseBlockNodeAt: a node that starts at pos_ on its own line, indented more than
  // parent_indent (a sequence, a mapping or a flow collection).
  YamlNodeId ParseBlockNodeAt(int parent_indent) {
    const char c = t_[pos_];
    if (IsSeqEntryAt(pos_)) return ParseBlockSeq(indent_);
    if (c == '{' || c == '[') {
      const YamlNodeId id = ParseFlowNode(parent_indent);
      FinishLine();
      NextContentLine();
      return id;
    }
    if (LineHasKey(pos_)) return ParseBlockMap(indent_);
    Bail();  // a scalar on its own line (possibly multi-line): yaml-cpp
  }

  // ParseBlockValue: the value after `key:` (mapping_value) or `-`, at pos_ just past the
  // indicator; n is the indentation of the mapping / sequence.
  YamlNodeId ParseBlockValue(int n, bool mapping_value) {
    if (At(pos_) == '\t') Bail();
    while (At(pos_) == ' ') ++pos_;
    if (At(pos_) == '\t') Bail();
    if (IsLineEnd(pos_) || At(pos_) == '#') {
      FinishLine();
      NextContentLine();
      if (indent_ > n) return ParseBlockNodeAt(n);
      if (indent_ == n && mapping_value && IsSeqEntryAt(pos_)) return ParseBlockSeq(n);
      return builder_.AddNull();
    }
    const char c = t_[pos_];
    if (c == '{' || c == '[') {
      const YamlNodeId id = ParseFlowNode(n);
      FinishLine();
      NextContentLine();
      return id;
    }
    if (c == '|' || c == '>') return ParseBlockScalar(n);
    if (IsSeqEntryAt(pos_)) Bail();  // `- - x`, `key: - x`
    if (!mapping_value && LineHasKey(pos_)) {
      return ParseBlockMap(static_cast<int>(Column(pos_)));  // `- key: value`
    }
    YamlNodeId id;
    if (c == '"') {
      id = ParseDoubleQuoted();
    } else if (c == '\'') {
      id = ParseSingleQuoted();
    } else {
      id = ParsePlainBlock();
    }
    FinishLine();
    NextContentLine();
    return id;
  }

  // ParseBlockMap: keys at column n; the first key is at pos_ (possibly after `- `).
  YamlNodeId ParseBlockMap(int n) {
    DepthGuard guard(&depth_);
    const size_t start = stack_.size();
    while (true) {
      if (!LineHasKey(pos_)) Bail();
      stack_.push_back(ParseKey());
      const YamlNodeId value = ParseBlockValue(n, /*mapping_value=*/true);
      stack_.push_back(value);
      if (indent_ == n) {
        if (IsSeqEntryAt(pos_)) Bail();
        continue;
      }
      if (indent_ < n) break;
      Bail();
    }
    const YamlNodeId id = builder_.AddCollection(
        YamlType::kMap, std::span<const YamlNodeId>(stack_).subspan(start));
    stack_.resize(start);
    return id;
  }

  // ParseBlockSeq: `-` entries at column n; pos_ is at the first `-`.
  YamlNodeId ParseBlockSeq(int n) {
    DepthGuard guard(&depth_);
    const size_t start = stack_.size();
    while (true) {
      ++pos_;  // '-'
      const YamlNodeId item = ParseBlockValue(n, /*mapping_value=*/false);
      stack_.push_back(item);
      if (indent_ == n && IsSeqEntryAt(pos_)) continue;
      if (indent_ <= n) break;
      Bail();
    }
    const YamlNodeId id = builder_.AddCollection(
        YamlType::kSeq, std::span<const YamlNodeId>(stack_).subspan(start));
    stack_.resize(start);
    return id;
  }

  std::string_view t_;
  size_t pos_ = 0;
  size_t line_start_ = 0;
  int indent_ = -1;
  int depth_ = 0;
  std::vector<YamlNodeId> stack_;
  YamlDomBuilder builder_;
};

}  // namespace

std::optional<std::vector<YamlDom>> ParseFastYaml(std::string_view text) {
  try {
    FastParser parser(text);
    return parser.Parse();
  } catch (const Unsupported&) {
    return std::nullopt;
  }
}

}  // namespace wasched::codec::internal
