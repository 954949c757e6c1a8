// File: dra/cel/lexer.h
//
// Tokens of the CEL subset wasched evaluates in DRA device selectors (see dra/cel/program.h for
// the subset). The grammar is CEL's (github.com/google/cel-spec doc/langdef.md "Syntax"):
// identifiers, int / uint / double / string / bytes / bool / null literals (single, double and
// triple quotes, raw `r"…"` strings, the usual escapes), operators and punctuation. Tokens wasched
// does not evaluate (uint, double, bytes) are still recognised so the compiler can name them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace wasched::dra::cel {

enum class TokenKind {
  kEnd,
  kIdent,
  kInt,
  kUint,
  kDouble,
  kString,
  kBytes,
  kLParen, kRParen, kLBracket, kRBracket, kLBrace, kRBrace,
  kDot, kComma, kColon, kQuestion,
  kEqEq, kNotEq, kLess, kLessEq, kGreater, kGreaterEq,
  kAndAnd, kOrOr, kBang,
  kPlus, kMinus, kStar, kSlash, kPercent,
};

// Token: one token; `text` is the source text, `value` the decoded string literal (escapes
// resolved) or the identifier; `int_value` an int literal. `column` is 1-based (bytes).
struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string_view text;
  std::string value;
  int64_t int_value = 0;
  int column = 0;
};

// LexResult: the tokens (ending with kEnd) or, when `error` is non-empty, the first lexical
// error ("Syntax error: …", column in `error_column`).
struct LexResult {
  std::vector<Token> tokens;
  std::string error;
  int error_column = 0;
};

// Lex: splits `source` into tokens. Never throws; any byte sequence gives tokens or an error.
// O(length).
[[nodiscard]] LexResult Lex(std::string_view source);

// TokenKindText: how a token kind reads in messages (`"&&"`, `identifier`, …).
[[nodiscard]] const char* TokenKindText(TokenKind kind);

}  // namespace wasched::dra::cel
