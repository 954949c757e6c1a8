// File: cli/subcommand.cc
#include "cli/subcommand.h"

#include <CLI/CLI.hpp>

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
    const int code = app.exit(e, out, err);
    return code == 0 ? kExitOk : kExitUsage;
  }
  return std::nullopt;
}

}  // namespace wasched::cli
