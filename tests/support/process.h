// File: tests/support/process.h
//
// RunCommand: runs a program through /bin/sh with stdout and stderr captured to temporary files,
// for tests of the real `wasched` binary.
//
//   auto r = test::RunCommand({WASCHED_BINARY, "schedule", "-f", path, "-o", "json"});
//   EXPECT_EQ(r.exit_code, 1);
//   EXPECT_EQ(r.out, "");
#pragma once

#include <string>
#include <vector>

namespace wasched::test {

// CommandResult: `exit_code` is the program's exit status, or -1 when it did not exit normally
// (killed by a signal: a crash), with `signal` set.
struct CommandResult {
  int exit_code = -1;
  int signal = 0;
  std::string out;
  std::string err;
};

// RunCommand: runs `argv` (each argument shell-quoted), stdin from /dev/null.
[[nodiscard]] CommandResult RunCommand(const std::vector<std::string>& argv);

// ReadFile: the whole file, or "" when it cannot be read.
[[nodiscard]] std::string ReadFile(const std::string& path);

}  // namespace wasched::test
