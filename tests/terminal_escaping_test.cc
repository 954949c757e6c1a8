// File: tests/terminal_escaping_test.cc
//
// Issue 10: names and labels read from hostile input must not reach the terminal raw. The real
// `wasched` binary gets manifests whose object names, kinds and label keys hold control
// characters (BEL, ESC sequences, C1 CSI, U+2028, a bidi override) and invalid UTF-8; every
// error and warning line it writes must be free of them (util/field_value.h EscapeForTerminal),
// and the stdout/stderr contracts stay: errors on stderr, exit 1, nothing on stdout.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/process.h"

namespace wasched {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;

namespace fs = std::filesystem;

const std::string kHostileDir = std::string(WASCHED_TESTDATA_DIR) + "/data/hostile/";

// Unsafe: descriptions of the bytes in `text` a terminal would act on or garble, checked
// byte by byte independently of the escaper: C0 controls other than the line ends, DEL, bytes
// that start no valid UTF-8 sequence, C1 controls (C2 80..9F), U+2028/2029 and the bidi
// overrides U+202A..202E (E2 80 A8..AE), U+2066..2069 (E2 81 A6..A9).
std::vector<std::string> Unsafe(const std::string& text) {
  std::vector<std::string> out;
  const auto at = [&](size_t i) { return i < text.size() ? static_cast<unsigned char>(text[i]) : 0; };
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = at(i);
    if (c == '\n') {
      ++i;
      continue;
    }
    if (c < 0x20 || c == 0x7f) out.push_back("control byte " + std::to_string(c) + " at " + std::to_string(i));
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t n = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c <= 0xDF ? 2 : 0;
    if (c > 0xF4) n = 0;
    for (size_t k = 1; k < n; ++k) {
      if ((at(i + k) & 0xC0) != 0x80) n = 0;
    }
    if (n == 0) {
      out.push_back("invalid UTF-8 byte " + std::to_string(c) + " at " + std::to_string(i));
      ++i;
      continue;
    }
    if (n == 2 && c == 0xC2 && at(i + 1) <= 0x9F) out.push_back("C1 control at " + std::to_string(i));
    if (n == 3 && c == 0xE2 && at(i + 1) == 0x80 && at(i + 2) >= 0xA8 && at(i + 2) <= 0xAE) {
      out.push_back("separator / bidi override at " + std::to_string(i));
    }
    if (n == 3 && c == 0xE2 && at(i + 1) == 0x81 && at(i + 2) >= 0xA6 && at(i + 2) <= 0xA9) {
      out.push_back("bidi isolate at " + std::to_string(i));
    }
    i += n;
  }
  return out;
}

std::string WriteTemp(const std::string& name, const std::string& content) {
  const fs::path dir = fs::temp_directory_path() / "wasched-terminal-escaping";
  fs::create_directories(dir);
  const fs::path path = dir / name;
  std::ofstream(path, std::ios::binary) << content;
  return path.string();
}

TEST(TerminalEscaping, CheckerRecognisesWhatItMustReject) {
  EXPECT_THAT(Unsafe("plain ascii\nand \u00e9 \u4e2d"), IsEmpty());
  EXPECT_EQ(Unsafe("\a").size(), 1u);
  EXPECT_EQ(Unsafe("\x7f").size(), 1u);
  EXPECT_EQ(Unsafe("\xff").size(), 1u);
  EXPECT_EQ(Unsafe("\u009b").size(), 1u);
  EXPECT_EQ(Unsafe("\u2028").size(), 1u);
  EXPECT_EQ(Unsafe("\u202e").size(), 1u);
  EXPECT_EQ(Unsafe("\u2066").size(), 1u);
}

TEST(TerminalEscaping, HostileBinaryInputsGiveSafeErrorLines) {
  for (const char* file : {"binary-control-characters.yaml", "binary-invalid-utf8-name.yaml", "binary-garbage.yaml"}) {
    SCOPED_TRACE(file);
    for (const char* command : {"schedule", "validate"}) {
      const auto r = test::RunCommand({WASCHED_BINARY, command, "-f", kHostileDir + file});
      EXPECT_EQ(r.exit_code, 1) << command << "\n" << r.err;
      EXPECT_THAT(Unsafe(r.err), IsEmpty()) << command;
      EXPECT_THAT(Unsafe(r.out), IsEmpty()) << command;  // validate's text report
      if (std::string(command) == "schedule") {
        EXPECT_EQ(r.out, "");
      }
    }
  }
  const auto bel = test::RunCommand({WASCHED_BINARY, "schedule", "-f", kHostileDir + "binary-control-characters.yaml"});
  EXPECT_THAT(bel.err, HasSubstr("Node a\\x07\\x1b[31m: metadata.name: Invalid value: \"a\\x07\\x1b[31m\""));
  // Invalid UTF-8 is malformed YAML for libyaml (as for kubectl): the bytes never reach a message.
  const auto utf8 = test::RunCommand({WASCHED_BINARY, "schedule", "-f", kHostileDir + "binary-invalid-utf8-name.yaml"});
  EXPECT_THAT(utf8.err, HasSubstr("malformed YAML: line 3, column 19: invalid leading UTF-8 octet"));
}

TEST(TerminalEscaping, NamesLabelsAndKindsInErrorsAndWarningsAreEscaped) {
  // A C1 CSI (U+009B), a line separator and a right-to-left override in names and a label key;
  // an unknown kind with an ESC sequence is skipped with a warning naming it; an unknown field
  // with a BEL in its key is a warning naming the object and the field.
  const std::string manifest =
      "apiVersion: v1\n"
      "kind: Node\n"
      "metadata:\n"
      "  name: \"n\\u009b2J\\u2028x\\u202ey\"\n"
      "  labels: {\"k\\u0007ey\": v}\n"
      "status: {allocatable: {cpu: \"1\", pods: \"10\"}}\n"
      "---\n"
      "apiVersion: example.com/v1\n"
      "kind: \"Widget\\e[2J\"\n"
      "metadata: {name: \"w\\u0007\"}\n"
      "---\n"
      "apiVersion: v1\n"
      "kind: Node\n"
      "metadata: {name: \"v\\u0007\"}\n"
      "spec: {\"b\\u0007ad\": 1}\n";
  const std::string path = WriteTemp("names.yaml", manifest);
  for (const char* command : {"schedule", "validate"}) {
    SCOPED_TRACE(command);
    // (--validate=warn --skip-unknown-kinds: the unknown field and kind are warnings; `validate`
    // prints its warnings in its report on stdout.)
    const auto r = test::RunCommand(
        {WASCHED_BINARY, command, "-f", path, "--validate=warn", "--skip-unknown-kinds"});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_THAT(Unsafe(r.err), IsEmpty()) << r.err;
    EXPECT_THAT(Unsafe(r.out), IsEmpty()) << r.out;
    const std::string all = r.err + r.out;
    EXPECT_THAT(all, HasSubstr("Node n\\u009b2J\\u2028x\\u202ey: "));
    EXPECT_THAT(all, HasSubstr("k\\x07ey"));
    EXPECT_THAT(all, HasSubstr("warning: skipped 1 object(s) of example.com/v1 Widget\\x1b[2J: "
                               "unknown API"));
    EXPECT_THAT(all, HasSubstr("names.yaml document 2)"));
    EXPECT_THAT(all, HasSubstr("warning: " + path +
                               ": document 3: Node v\\x07: unknown field \"spec.b\\x07ad\""));
  }
  // Strict (the default): the same unknown kind and field are errors, escaped alike.
  for (const char* command : {"schedule", "validate"}) {
    SCOPED_TRACE(command);
    const auto r = test::RunCommand({WASCHED_BINARY, command, "-f", path});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_THAT(Unsafe(r.err + r.out), IsEmpty()) << r.err << r.out;
    EXPECT_THAT(r.err + r.out, HasSubstr("document 2: Widget\\x1b[2J w\\x07: apiVersion: "
                                         "Unsupported value: \"example.com/v1\""));
    EXPECT_THAT(r.err + r.out,
                HasSubstr("document 3: Node v\\x07: unknown field \"spec.b\\x07ad\""));
  }
}

}  // namespace
}  // namespace wasched
