// File: tests/support/process.cc
#include "support/process.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace wasched::test {
namespace {

std::string ShellQuote(const std::string& arg) {
  std::string out = "'";
  for (char c : arg) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

std::string TempPath(const char* suffix) {
  const char* dir = std::getenv("TMPDIR");
  std::string pattern = std::string(dir && *dir ? dir : "/tmp") + "/wasched-test-XXXXXX";
  int fd = mkstemp(pattern.data());
  if (fd >= 0) close(fd);
  return pattern + suffix;
}

}  // namespace

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

CommandResult RunCommand(const std::vector<std::string>& argv) {
  const std::string base = TempPath("");
  const std::string out_path = base + ".out";
  const std::string err_path = base + ".err";
  std::string command;
  for (const auto& arg : argv) command += ShellQuote(arg) + " ";
  command += "</dev/null >" + ShellQuote(out_path) + " 2>" + ShellQuote(err_path);

  CommandResult result;
  const int status = std::system(command.c_str());
  if (status != -1 && WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
    // sh reports a child killed by a signal as 128 + signal.
    if (result.exit_code > 128 && result.exit_code < 128 + 65) {
      result.signal = result.exit_code - 128;
      result.exit_code = -1;
    }
  } else if (status != -1 && WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
  }
  result.out = ReadFile(out_path);
  result.err = ReadFile(err_path);
  std::remove(out_path.c_str());
  std::remove(err_path.c_str());
  std::remove(base.c_str());
  return result;
}

}  // namespace wasched::test
