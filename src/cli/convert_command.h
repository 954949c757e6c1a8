// File: cli/convert_command.h
//
// `wasched convert`: rewrite v1alpha1 (1.35) and v1alpha2 (1.36) workload-aware-scheduling
// manifests into the v1.37 API (codec/convert.h says what is converted and how).
//
//   wasched convert -f PATH... --to scheduling.k8s.io/v1beta1|scheduling.k8s.io/v1alpha3
//                   [-o yaml|json]
//
// `--to` also takes the short forms `v1beta1` / `v1alpha3`. Output on stdout: YAML documents
// separated by `---` (default) or JSON (one object, or a `v1` `List` of them).
// Exit codes (design.md): 0 converted — every change convert could not make exactly is a
// `warning: <file>: document <n>: <Kind ns/name>: <field>: cannot convert: <reason>` line on
// stderr, and the output is still written; 1 malformed input (`error: …` lines on stderr, nothing
// on stdout); 2 usage error.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}  // namespace CLI

namespace wasched::cli {

// ConvertCommandOptions: the flags as given. `to` is a full apiVersion or a short form.
struct ConvertCommandOptions {
  std::vector<std::string> paths;
  std::string to;
  std::string output = "yaml";
};

// RunConvert: runs the conversion; `in` serves "-". The output is written only when the input
// was read and converted without errors. Returns 0, 1 or 2 (see above). O(input size).
[[nodiscard]] int RunConvert(const ConvertCommandOptions& options, std::istream& in,
                             std::ostream& out, std::ostream& err);

// RunConvertIfSelected: registers the `convert` subcommand on `app` (so `wasched --help` lists
// it) and, when `argv` selects it (its first non-option argument is "convert"), parses `argv`
// with `app`, runs it and returns the exit code; nullopt otherwise (the caller parses and
// dispatches the other subcommands). This keeps the registration to one line in cli/app.cc.
[[nodiscard]] std::optional<int> RunConvertIfSelected(CLI::App& app, int argc,
                                                      const char* const* argv, std::istream& in,
                                                      std::ostream& out, std::ostream& err);

}  // namespace wasched::cli
