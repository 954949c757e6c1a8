// File: cli/subcommand.h
//
// The two steps every self-registering subcommand (`convert`, `compile`, `bench`, `simulate`:
// `Run<Name>IfSelected`) shares: is it the one argv selects, and parse argv with the app.
#pragma once

#include <iosfwd>
#include <optional>
#include <string_view>

namespace CLI {
class App;
class ParseError;
}

namespace wasched::cli {

// IsSelected: true when the first non-option argument of argv is `name`. O(argc).
[[nodiscard]] bool IsSelected(int argc, const char* const* argv, std::string_view name);

// ParseOrExitCode: parses argv with `app`. On a CLI11 parse error or --help it prints what CLI11
// prints and returns the exit code (kExitOk for --help, kExitUsage otherwise; see
// ExitOnParseError); nullopt when the parse succeeded and the command should run.
[[nodiscard]] std::optional<int> ParseOrExitCode(CLI::App& app, int argc, const char* const* argv,
                                                 std::ostream& out, std::ostream& err);

// ExitOnParseError: what CLI11 prints for `e` and the exit code. --help and --version text goes
// to `out` through WriteOutput, so a failed write (a full disk) is kExitInternal as for every
// other command's output (issue 20 item 28); a usage error goes to `err`, kExitUsage.
[[nodiscard]] int ExitOnParseError(CLI::App& app, const CLI::ParseError& e, std::ostream& out,
                                   std::ostream& err);

}  // namespace wasched::cli
