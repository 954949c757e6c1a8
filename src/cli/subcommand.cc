// File: cli/subcommand.cc
#include "cli/subcommand.h"

#include <CLI/CLI.hpp>
#include <sstream>

#include "cli/schedule_command.h"

namespace wasched::cli {

bool IsSelected(int argc, const char* const* argv, std::string_view name) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.starts_with("-")) continue;
    return arg == name;
  }
  return false;
}

std::optional<int> ParseOrExitCode(CLI::App& app, int argc, const char* const* argv, std::ostream& out,
                                   std::ostream& err) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return ExitOnParseError(app, e, out, err);
  }
  return std::nullopt;
}

int ExitOnParseError(CLI::App& app, const CLI::ParseError& e, std::ostream& out,
                     std::ostream& err) {
  std::ostringstream text;
  const int code = app.exit(e, text, err);
  if (code != 0) return kExitUsage;
  return WriteOutput(out, err, text.str(), kExitOk);
}

}  // namespace wasched::cli
