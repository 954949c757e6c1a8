// File: cli/validate_command.cc
#include "cli/validate_command.h"

#include <fmt/format.h>

#include <cstdio>
#include <istream>
#include <ostream>
#include <string_view>
#include <utility>

#include "cli/schedule_command.h"
#include "codec/loader.h"
#include "validation/object_set_validation.h"

namespace wasched::cli {
namespace {

// JsonString: `s` as a JSON string literal (UTF-8 passed through, controls escaped).
std::string JsonString(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::size_t CountObjects(const api::ObjectSet& o) {
  return o.nodes.size() + o.pods.size() + o.priority_classes.size() + o.workloads.size() +
         o.pod_groups.size() + o.composite_pod_groups.size();
}

}  // namespace

std::string EncodeValidationReportJson(const InputErrors& errors) {
  if (errors.empty()) return "{\n  \"errors\": []\n}\n";
  std::string out = "{\n  \"errors\": [\n";
  for (std::size_t i = 0; i < errors.size(); ++i) {
    const FieldError& e = errors[i].error;
    out += "    {\n";
    out += "      \"object\": " + JsonString(errors[i].object) + ",\n";
    out += "      \"type\": " + JsonString(FieldErrorTypeName(e.type)) + ",\n";
    out += "      \"field\": " + JsonString(e.field) + ",\n";
    out += "      \"origin\": " + JsonString(e.origin) + ",\n";
    out += "      \"detail\": " + JsonString(e.detail) + "\n";
    out += i + 1 < errors.size() ? "    },\n" : "    }\n";
  }
  return out + "  ]\n}\n";
}

int RunValidate(const ValidateOptions& options, std::istream& in, std::ostream& out,
                std::ostream& err) {
  InputErrors errors;
  std::size_t objects_read = 0;
  auto loaded = codec::LoadPaths(options.paths, in);
  if (!loaded) {
    errors = std::move(loaded.error());
  } else {
    for (const std::string& w : loaded->warnings) err << "warning: " << w << '\n';
    for (const std::string& w : ApplyFeatureGates(options.gates, &loaded->objects)) {
      err << "warning: " << w << '\n';
    }
    objects_read = CountObjects(loaded->objects);
    errors = validation::ValidateForSchedule(loaded->objects);
  }

  std::string report;
  if (options.json) {
    report = EncodeValidationReportJson(errors);
  } else if (errors.empty()) {
    report = fmt::format("valid: {} object(s), 0 errors\n", objects_read);
  } else {
    for (const InputError& e : errors) report += e.ToString() + '\n';
    report += fmt::format("\n{} error(s)\n", errors.size());
  }
  out << report;
  out.flush();
  return errors.empty() ? kExitOk : kExitInvalidInput;
}

}  // namespace wasched::cli
