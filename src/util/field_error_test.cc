// Tests of util/field_error: rendering of error lines (QA1 finding 12: over-long values).
#include "util/field_error.h"
#include "util/field_value.h"

#include <gtest/gtest.h>

#include <string>

namespace wasched {
namespace {

TEST(FieldErrorTest, ShortValuesAreEchoedInFull) {
  const std::string name = "\"" + std::string(64, 'a') + "\"";
  FieldError e{FieldErrorType::kInvalid, "metadata.name", name,
               "must be no more than 63 characters", ""};
  EXPECT_EQ(e.ToString(), "metadata.name: Invalid value: " + name +
                              ": must be no more than 63 characters");
}

TEST(FieldErrorTest, LongValuesAreTruncatedToTheFirst64BytesAndAnEllipsis) {
  const std::string expr = "\"" + std::string(200 * 1024, '(') + "\"";
  FieldError e{FieldErrorType::kInvalid, "spec.x", expr, "bad", ""};
  EXPECT_EQ(e.ToString(), "spec.x: Invalid value: \"" + std::string(63, '(') + "\u2026\": bad");
  InputError in{api::SourceRef{"a.yaml", 2}, "DeviceClass gpu", e};
  EXPECT_LT(in.ToString().size(), 150U);
}

TEST(FieldErrorTest, TruncationNeverSplitsAUtf8Character) {
  // 63 ASCII bytes, then "é" (2 bytes) straddling the 64-byte cut.
  const std::string value = std::string(63, 'x') + "\u00e9" + std::string(300, 'y');
  EXPECT_EQ(RenderValue(value), std::string(63, 'x') + "\u2026");
  EXPECT_EQ(RenderValue("short"), "short");
}

// Issue 10: object names and labels come from the input; an error line must not hand their control
// characters or broken UTF-8 to the terminal.
TEST(EscapeForTerminalTest, PrintableTextIsUnchanged) {
  EXPECT_EQ(EscapeForTerminal("Pod default/p-1: \"a\\\"b\""), "Pod default/p-1: \"a\\\"b\"");
  EXPECT_EQ(EscapeForTerminal("z\u00e9\u4e2d\U0001F600\u2026"), "z\u00e9\u4e2d\U0001F600\u2026");
  EXPECT_EQ(EscapeForTerminal(""), "");
}

TEST(EscapeForTerminalTest, C0ControlsAndDelAreEscaped) {
  EXPECT_EQ(EscapeForTerminal("a\a\x1b[31m"), "a\\x07\\x1b[31m");
  EXPECT_EQ(EscapeForTerminal("l1\nl2\tx\ry"), "l1\\nl2\\tx\\ry");
  EXPECT_EQ(EscapeForTerminal(std::string("n\0x", 3)), "n\\x00x");
  EXPECT_EQ(EscapeForTerminal("del\x7f"), "del\\x7f");
}

TEST(EscapeForTerminalTest, C1ControlsAndLineSeparatorsAreEscaped) {
  EXPECT_EQ(EscapeForTerminal("a\u0085b\u009bc\u0080"), "a\\u0085b\\u009bc\\u0080");
  EXPECT_EQ(EscapeForTerminal("x\u2028y\u2029z"), "x\\u2028y\\u2029z");
  EXPECT_EQ(EscapeForTerminal("\u00a0\u2027\u2030\u2065"), "\u00a0\u2027\u2030\u2065");  // neighbours stay
}

TEST(EscapeForTerminalTest, BidiFormatCharactersAreEscaped) {
  // "Trojan Source" (CVE-2021-42574): an override would reorder the rest of the error line.
  EXPECT_EQ(EscapeForTerminal("a\u202eb\u2066c\u2069d\u200fe"), "a\\u202eb\\u2066c\\u2069d\\u200fe");
}

TEST(EscapeForTerminalTest, InvalidUtf8BytesAreEscapedOneByOne) {
  EXPECT_EQ(EscapeForTerminal("\xff\xfe\xc3("), "\\xff\\xfe\\xc3(");       // stray lead, truncated
  EXPECT_EQ(EscapeForTerminal("\xc0\xaf"), "\\xc0\\xaf");                  // overlong "/"
  EXPECT_EQ(EscapeForTerminal("\xed\xa0\x80"), "\\xed\\xa0\\x80");         // surrogate U+D800
  EXPECT_EQ(EscapeForTerminal("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // > U+10FFFF
  EXPECT_EQ(EscapeForTerminal("ok\xe4\xb8"), "ok\\xe4\\xb8");               // cut at the end
  EXPECT_EQ(EscapeForTerminal("\x80\u00e9"), "\\x80\u00e9");                 // resynchronises
}

TEST(EscapeForTerminalTest, InputErrorLinesEscapeFileObjectFieldValueAndDetail) {
  FieldError e{FieldErrorType::kInvalid, "metadata.labels[k\x1b]", "\"v\xff\"", "bad \u2028name", ""};
  InputError in{api::SourceRef{"f\a.yaml", 1}, "Node a\x07\x1b[31m\xfe", e};
  EXPECT_EQ(in.ToString(),
            "f\\x07.yaml: document 1: Node a\\x07\\x1b[31m\\xfe: metadata.labels[k\\x1b]: "
            "Invalid value: \"v\\xff\": bad \\u2028name");
  // Nothing below 0x20, no DEL, no byte ≥ 0x80 outside valid printable UTF-8 is left.
  for (const char c : in.ToString()) {
    const auto b = static_cast<unsigned char>(c);
    EXPECT_TRUE(b >= 0x20 && b != 0x7f && b < 0x80) << "byte " << int{b};
  }
}

// A name far beyond any valid length is cut in the object label: one error stays one line (the
// breaker's 100,000-character Node name made 200 KB of stderr).
TEST(InputErrorTest, OverlongObjectLabelIsCut) {
  const std::string label = "Node " + std::string(100000, 'a');
  FieldError e{FieldErrorType::kTooLong, "metadata.name", "", "", ""};
  const std::string line = InputError{api::SourceRef{"f.yaml", 1}, label, e}.ToString();
  EXPECT_LT(line.size(), 600u);
  EXPECT_NE(line.find("… (99605 more bytes): metadata.name"), std::string::npos) << line;
}

}  // namespace
}  // namespace wasched
