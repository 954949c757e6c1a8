#include "util/field_error.h"

#include <algorithm>
#include <cstdint>

#include <fmt/format.h>

#include "util/field_value.h"

namespace wasched {

const char* FieldErrorTypeName(FieldErrorType t) {
  switch (t) {
    case FieldErrorType::kNotFound: return "NotFound";
    case FieldErrorType::kRequired: return "Required";
    case FieldErrorType::kDuplicate: return "Duplicate";
    case FieldErrorType::kInvalid: return "Invalid";
    case FieldErrorType::kNotSupported: return "NotSupported";
    case FieldErrorType::kForbidden: return "Forbidden";
    case FieldErrorType::kTooLong: return "TooLong";
    case FieldErrorType::kTooMany: return "TooMany";
    case FieldErrorType::kInternal: return "InternalError";
    case FieldErrorType::kTypeInvalid: return "TypeInvalid";
    case FieldErrorType::kUnknownField: return "UnknownField";
  }
  return "Invalid";
}

const char* FieldErrorTypeText(FieldErrorType t) {
  switch (t) {
    case FieldErrorType::kNotFound: return "Not found";
    case FieldErrorType::kRequired: return "Required value";
    case FieldErrorType::kDuplicate: return "Duplicate value";
    case FieldErrorType::kInvalid: return "Invalid value";
    case FieldErrorType::kNotSupported: return "Unsupported value";
    case FieldErrorType::kForbidden: return "Forbidden";
    case FieldErrorType::kTooLong: return "Too long";
    case FieldErrorType::kTooMany: return "Too many";
    case FieldErrorType::kInternal: return "Internal error";
    case FieldErrorType::kTypeInvalid: return "Invalid value";
    case FieldErrorType::kUnknownField: return "Unknown field";
  }
  return "Invalid value";
}

std::string RenderValue(std::string_view value) {
  if (value.size() <= kMaxRenderedValueBytes) return std::string(value);
  size_t cut = kTruncatedValueBytes;
  // Never split a UTF-8 sequence: back up over continuation bytes (10xxxxxx).
  while (cut > 0 && (static_cast<unsigned char>(value[cut]) & 0xC0) == 0x80) --cut;
  std::string out(value.substr(0, cut));
  out += "\u2026";
  if (value.front() == '"' && value.back() == '"') out += '"';
  return out;
}

namespace {

// Utf8SequenceLength: the length of the valid UTF-8 sequence starting at text[i], or 0 when the
// byte there starts none (stray continuation, overlong form, surrogate, > U+10FFFF, truncated).
size_t Utf8SequenceLength(std::string_view text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char b0 = byte(i);
  size_t n = 0;
  unsigned char lo = 0x80;  // bounds of the second byte (RFC 3629 table 3-7)
  unsigned char hi = 0xBF;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    n = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    n = 3;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED) hi = 0x9F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    n = 4;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (i + n > text.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (size_t k = 2; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  }
  return n;
}

// IsInvisibleControl: code points above U+007F an error line must not print raw: the C1 controls,
// the line and paragraph separators, and the bidirectional format characters that reorder what a
// terminal shows ("Trojan Source", CVE-2021-42574: U+200E/F, U+202A–U+202E, U+2066–U+2069).
bool IsInvisibleControl(uint32_t cp) {
  return (cp >= 0x80 && cp <= 0x9F) || cp == 0x200E || cp == 0x200F || cp == 0x2028 || cp == 0x2029 ||
         (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

// AppendAsciiEscape: the escape of an ASCII control byte (\n \t \r, else \xNN for C0 and DEL)
// appended to `out`; false (nothing appended) for a printable byte or one ≥ 0x80.
bool AppendAsciiEscape(std::string& out, unsigned char c) {
  switch (c) {
    case '\n': out += "\\n"; return true;
    case '\t': out += "\\t"; return true;
    case '\r': out += "\\r"; return true;
    default:
      if (c < 0x20 || c == 0x7f) {
        out += fmt::format("\\x{:02x}", c);
        return true;
      }
      return false;
  }
}

}  // namespace

std::string QuoteString(std::string_view value) {
  std::string out;
  out.reserve(value.size() + 2);
  out.push_back('"');
  for (const char ch : value) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(ch);
    } else if (!AppendAsciiEscape(out, c)) {
      out.push_back(ch);
    }
  }
  out.push_back('"');
  return out;
}

std::string EscapeForTerminal(std::string_view text) {
  const bool plain = std::all_of(text.begin(), text.end(), [](char c) {
    return static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7f;
  });
  if (plain) return std::string(text);
  std::string out;
  out.reserve(text.size() + 16);
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if (!AppendAsciiEscape(out, c)) out += static_cast<char>(c);
      ++i;
      continue;
    }
    const size_t n = Utf8SequenceLength(text, i);
    if (n == 0) {
      out += fmt::format("\\x{:02x}", c);
      ++i;
      continue;
    }
    uint32_t cp = c & (0xFF >> (n + 1));
    for (size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
    if (IsInvisibleControl(cp)) {
      out += fmt::format("\\u{:04x}", cp);
    } else {
      out.append(text.substr(i, n));
    }
    i += n;
  }
  return out;
}

std::string FieldError::ToString() const {
  if (type == FieldErrorType::kUnknownField) {
    std::string out = "unknown field " + EscapeForTerminal(QuoteString(field));
    if (!detail.empty()) out += ": " + EscapeForTerminal(detail);
    return out;
  }
  std::string out = field.empty() ? std::string() : EscapeForTerminal(field) + ": ";
  out += FieldErrorTypeText(type);
  if (!bad_value.empty()) out += ": " + EscapeForTerminal(RenderValue(bad_value));
  if (!detail.empty()) out += ": " + EscapeForTerminal(detail);
  return out;
}

std::string InputError::ToString() const {
  std::string out;
  if (!source.file.empty()) out += EscapeForTerminal(source.file) + ": ";
  if (source.document > 0) out += fmt::format("document {}: ", source.document);
  if (!object.empty()) {
    // An object label is "Kind namespace/name"; a name far beyond any valid length (the longest
    // valid one, a 253-character subdomain in a 63-character namespace) is cut so that one error
    // stays one readable line (a 100,000-character name made 200 KB of stderr).
    constexpr std::size_t kMaxLabel = 400;
    if (object.size() > kMaxLabel) {
      std::size_t cut = kMaxLabel;
      while (cut > 0 && (static_cast<unsigned char>(object[cut]) & 0xC0) == 0x80) --cut;  // UTF-8
      out += EscapeForTerminal(object.substr(0, cut)) +
             fmt::format("… ({} more bytes): ", object.size() - cut);
    } else {
      out += EscapeForTerminal(object) + ": ";
    }
  }
  return out + error.ToString();
}

}  // namespace wasched
