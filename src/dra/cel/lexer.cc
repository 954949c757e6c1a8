// File: dra/cel/lexer.cc
//
// CEL tokenizer (see lexer.h).
#include "dra/cel/lexer.h"

#include <charconv>

namespace wasched::dra::cel {
namespace {

bool IsIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsHex(char c) { return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}

  LexResult Run() {
    LexResult out;
    while (true) {
      SkipSpace();
      Token t;
      t.column = static_cast<int>(pos_) + 1;
      if (pos_ >= s_.size()) {
        out.tokens.push_back(std::move(t));
        return out;
      }
      const size_t start = pos_;
      if (!Next(&t)) {
        out.error = std::move(error_);
        out.error_column = static_cast<int>(start) + 1;
        out.tokens.clear();
        return out;
      }
      t.text = s_.substr(start, pos_ - start);
      out.tokens.push_back(std::move(t));
    }
  }

 private:
  void SkipSpace() {
    while (pos_ < s_.size()) {
      const char c = s_[pos_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
        ++pos_;
      } else if (c == '/' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '/') {
        while (pos_ < s_.size() && s_[pos_] != '\n') ++pos_;
      } else {
        return;
      }
    }
  }

  bool Fail(std::string message) {
    error_ = "Syntax error: " + std::move(message);
    return false;
  }

  char Peek(size_t ahead = 0) const {
    return pos_ + ahead < s_.size() ? s_[pos_ + ahead] : '\0';
  }

  bool Next(Token* t) {
    const char c = s_[pos_];
    // string / bytes literals, with optional r / b prefixes
    {
      size_t p = pos_;
      bool raw = false;
      bool bytes = false;
      for (int i = 0; i < 2 && p < s_.size(); ++i) {
        const char x = s_[p];
        if ((x == 'r' || x == 'R') && !raw) {
          raw = true;
          ++p;
        } else if ((x == 'b' || x == 'B') && !bytes) {
          bytes = true;
          ++p;
        } else {
          break;
        }
      }
      if (p < s_.size() && (s_[p] == '"' || s_[p] == '\'') && (p > pos_ || true)) {
        if (p > pos_ || c == '"' || c == '\'') {
          pos_ = p;
          t->kind = bytes ? TokenKind::kBytes : TokenKind::kString;
          return LexString(raw, &t->value);
        }
      }
    }
    if (IsIdentStart(c)) {
      const size_t start = pos_;
      while (pos_ < s_.size() && (IsIdentStart(s_[pos_]) || IsDigit(s_[pos_]))) ++pos_;
      t->kind = TokenKind::kIdent;
      t->value = std::string(s_.substr(start, pos_ - start));
      return true;
    }
    if (IsDigit(c) || (c == '.' && IsDigit(Peek(1)))) return LexNumber(t);
    ++pos_;
    switch (c) {
      case '(': t->kind = TokenKind::kLParen; return true;
      case ')': t->kind = TokenKind::kRParen; return true;
      case '[': t->kind = TokenKind::kLBracket; return true;
      case ']': t->kind = TokenKind::kRBracket; return true;
      case '{': t->kind = TokenKind::kLBrace; return true;
      case '}': t->kind = TokenKind::kRBrace; return true;
      case '.': t->kind = TokenKind::kDot; return true;
      case ',': t->kind = TokenKind::kComma; return true;
      case ':': t->kind = TokenKind::kColon; return true;
      case '?': t->kind = TokenKind::kQuestion; return true;
      case '+': t->kind = TokenKind::kPlus; return true;
      case '-': t->kind = TokenKind::kMinus; return true;
      case '*': t->kind = TokenKind::kStar; return true;
      case '/': t->kind = TokenKind::kSlash; return true;
      case '%': t->kind = TokenKind::kPercent; return true;
      case '=':
        if (Peek() == '=') { ++pos_; t->kind = TokenKind::kEqEq; return true; }
        return Fail("token recognition error at: '='");
      case '!':
        if (Peek() == '=') { ++pos_; t->kind = TokenKind::kNotEq; return true; }
        t->kind = TokenKind::kBang;
        return true;
      case '<':
        if (Peek() == '=') { ++pos_; t->kind = TokenKind::kLessEq; return true; }
        t->kind = TokenKind::kLess;
        return true;
      case '>':
        if (Peek() == '=') { ++pos_; t->kind = TokenKind::kGreaterEq; return true; }
        t->kind = TokenKind::kGreater;
        return true;
      case '&':
        if (Peek() == '&') { ++pos_; t->kind = TokenKind::kAndAnd; return true; }
        return Fail("token recognition error at: '&'");
      case '|':
        if (Peek() == '|') { ++pos_; t->kind = TokenKind::kOrOr; return true; }
        return Fail("token recognition error at: '|'");
      default: {
        std::string shown(1, c);
        if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) {
          static const char* kHex = "0123456789abcdef";
          shown = std::string("\\x") + kHex[(static_cast<unsigned char>(c) >> 4) & 0xf] +
                  kHex[static_cast<unsigned char>(c) & 0xf];
        }
        return Fail("token recognition error at: '" + shown + "'");
      }
    }
  }

  bool LexNumber(Token* t) {
    const size_t start = pos_;
    if (Peek() == '0' && (Peek(1) == 'x' || Peek(1) == 'X')) {
      pos_ += 2;
      const size_t digits = pos_;
      while (pos_ < s_.size() && IsHex(s_[pos_])) ++pos_;
      if (pos_ == digits) return Fail("malformed hexadecimal literal");
      uint64_t v = 0;
      const auto [ptr, ec] = std::from_chars(s_.data() + digits, s_.data() + pos_, v, 16);
      if (ec != std::errc()) return Fail("integer literal out of range");
      if (Peek() == 'u' || Peek() == 'U') {
        ++pos_;
        t->kind = TokenKind::kUint;
        return true;
      }
      if (v > static_cast<uint64_t>(INT64_MAX)) return Fail("integer literal out of range");
      t->kind = TokenKind::kInt;
      t->int_value = static_cast<int64_t>(v);
      return true;
    }
    bool is_double = false;
    while (pos_ < s_.size() && IsDigit(s_[pos_])) ++pos_;
    if (Peek() == '.' && IsDigit(Peek(1))) {
      is_double = true;
      ++pos_;
      while (pos_ < s_.size() && IsDigit(s_[pos_])) ++pos_;
    }
    if (Peek() == 'e' || Peek() == 'E') {
      size_t p = pos_ + 1;
      if (p < s_.size() && (s_[p] == '+' || s_[p] == '-')) ++p;
      if (p < s_.size() && IsDigit(s_[p])) {
        is_double = true;
        pos_ = p;
        while (pos_ < s_.size() && IsDigit(s_[pos_])) ++pos_;
      }
    }
    if (is_double) {
      t->kind = TokenKind::kDouble;
      return true;
    }
    if (Peek() == 'u' || Peek() == 'U') {
      ++pos_;
      t->kind = TokenKind::kUint;
      return true;
    }
    int64_t v = 0;
    const auto [ptr, ec] = std::from_chars(s_.data() + start, s_.data() + pos_, v);
    if (ec != std::errc()) return Fail("integer literal out of range");
    t->kind = TokenKind::kInt;
    t->int_value = v;
    return true;
  }

  // LexString: at the opening quote; appends the decoded text to *out.
  bool LexString(bool raw, std::string* out) {
    const char q = s_[pos_];
    const bool triple = Peek(1) == q && Peek(2) == q;
    pos_ += triple ? 3 : 1;
    while (true) {
      if (pos_ >= s_.size()) return Fail("unterminated string literal");
      const char c = s_[pos_];
      if (triple) {
        if (c == q && Peek(1) == q && Peek(2) == q) {
          pos_ += 3;
          return true;
        }
      } else {
        if (c == q) {
          ++pos_;
          return true;
        }
        if (c == '\n' || c == '\r') return Fail("unterminated string literal");
      }
      if (c == '\\' && !raw) {
        if (!LexEscape(out)) return false;
        continue;
      }
      out->push_back(c);
      ++pos_;
    }
  }

  bool LexEscape(std::string* out) {
    const char e = Peek(1);
    pos_ += 2;
    switch (e) {
      case 'n': out->push_back('\n'); return true;
      case 't': out->push_back('\t'); return true;
      case 'r': out->push_back('\r'); return true;
      case 'a': out->push_back('\a'); return true;
      case 'b': out->push_back('\b'); return true;
      case 'f': out->push_back('\f'); return true;
      case 'v': out->push_back('\v'); return true;
      case '\\': case '\'': case '"': case '`': case '?': out->push_back(e); return true;
      default: break;
    }
    if (e == 'x' || e == 'X' || e == 'u' || e == 'U') {
      const int digits = (e == 'x' || e == 'X') ? 2 : (e == 'u' ? 4 : 8);
      uint32_t cp = 0;
      for (int i = 0; i < digits; ++i) {
        const char h = Peek();
        if (!IsHex(h)) return Fail("invalid escape sequence");
        cp = cp * 16 + static_cast<uint32_t>(IsDigit(h) ? h - '0' : (h | 0x20) - 'a' + 10);
        ++pos_;
      }
      AppendUtf8(cp, out);
      return cp <= 0x10FFFF ? true : Fail("invalid escape sequence");
    }
    if (e >= '0' && e <= '3') {
      uint32_t cp = static_cast<uint32_t>(e - '0');
      for (int i = 0; i < 2; ++i) {
        const char o = Peek();
        if (o < '0' || o > '7') return Fail("invalid escape sequence");
        cp = cp * 8 + static_cast<uint32_t>(o - '0');
        ++pos_;
      }
      AppendUtf8(cp, out);
      return true;
    }
    return Fail("invalid escape sequence");
  }

  static void AppendUtf8(uint32_t cp, std::string* out) {
    if (cp < 0x80) {
      out->push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp <= 0x10FFFF) {
      out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }

  std::string_view s_;
  size_t pos_ = 0;
  std::string error_;
};

}  // namespace

LexResult Lex(std::string_view source) { return Lexer(source).Run(); }

const char* TokenKindText(TokenKind kind) {
  switch (kind) {
    case TokenKind::kEnd: return "end of input";
    case TokenKind::kIdent: return "identifier";
    case TokenKind::kInt: return "int literal";
    case TokenKind::kUint: return "uint literal";
    case TokenKind::kDouble: return "double literal";
    case TokenKind::kString: return "string literal";
    case TokenKind::kBytes: return "bytes literal";
    case TokenKind::kLParen: return "'('";
    case TokenKind::kRParen: return "')'";
    case TokenKind::kLBracket: return "'['";
    case TokenKind::kRBracket: return "']'";
    case TokenKind::kLBrace: return "'{'";
    case TokenKind::kRBrace: return "'}'";
    case TokenKind::kDot: return "'.'";
    case TokenKind::kComma: return "','";
    case TokenKind::kColon: return "':'";
    case TokenKind::kQuestion: return "'?'";
    case TokenKind::kEqEq: return "'=='";
    case TokenKind::kNotEq: return "'!='";
    case TokenKind::kLess: return "'<'";
    case TokenKind::kLessEq: return "'<='";
    case TokenKind::kGreater: return "'>'";
    case TokenKind::kGreaterEq: return "'>='";
    case TokenKind::kAndAnd: return "'&&'";
    case TokenKind::kOrOr: return "'||'";
    case TokenKind::kBang: return "'!'";
    case TokenKind::kPlus: return "'+'";
    case TokenKind::kMinus: return "'-'";
    case TokenKind::kStar: return "'*'";
    case TokenKind::kSlash: return "'/'";
    case TokenKind::kPercent: return "'%'";
  }
  return "token";
}

}  // namespace wasched::dra::cel
