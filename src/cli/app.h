// File: cli/app.h
//
// The `wasched` command line (CLI11): subcommands `schedule`, `validate`, `convert` and `demo`
// (`compile` and `simulate` of design.md arrive with their issues). Streams are parameters so
// tests run the whole CLI in-process with string streams:
//
//   std::istringstream in; std::ostringstream out, err;
//   const char* argv[] = {"wasched", "schedule", "-f", "cluster.yaml", "-o", "json"};
//   int code = cli::Run(6, argv, in, out, err);
//
// Exit codes (design.md, fixed): 0 done (pods may still be pending); 1 invalid input (errors on
// stderr, nothing on stdout); 2 usage error (unknown flag or subcommand, bad flag value, unknown
// feature gate). 3 is wasched's own: an internal error (a bug), reported on stderr.
// `--help` prints to `out` and exits 0.
#pragma once

#include <iosfwd>

namespace wasched::cli {

// Run: parses `argv` (argv[0] is the program name) and runs the chosen subcommand. Never throws.
[[nodiscard]] int Run(int argc, const char* const* argv, std::istream& in, std::ostream& out,
                      std::ostream& err);

}  // namespace wasched::cli
