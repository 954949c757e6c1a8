// File: codec/loader.h
//
// Reading manifests: files, folders (every *.yaml, *.yml, *.json inside, recursively, sorted by
// path) and "-" (stdin); YAML with many documents, JSON, and `List` objects (kind List or any
// *List with `items`). Decodes the kinds wasched knows into api objects. Kinds of Kubernetes APIs
// that do not affect scheduling (v1 ConfigMap, Service, …) are skipped with one note per kind;
// any other kind or version wasched does not read is an error naming the versions served and what
// to do (LoadOptions::skip_unknown_kinds: a warning instead; codec/api_kinds.h). Unknown and
// repeated fields are errors, warnings or nothing as LoadOptions::field_validation says (kubectl's
// --validate). The only place (with codec/*.cc) that includes the parsers (simdjson, libyaml).
//
//   auto loaded = codec::LoadPaths({"cluster/", "jobs.yaml"}, std::cin, {});
//   if (!loaded) {
//     for (auto& w : loaded.error().warnings) std::cerr << "warning: " << w << "\n";  // first
//     for (auto& e : loaded.error()) std::cerr << e.ToString() << "\n";
//     return 1;
//   }
//   for (auto& w : loaded->warnings) std::cerr << "warning: " << w << "\n";
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <utility>
#include <vector>

#include <tl/expected.hpp>

#include "api/object_set.h"
#include "codec/load_options.h"
#include "util/field_error.h"

namespace wasched::codec {

// LoadResult: decoded objects plus warnings (already formatted, deterministic order) and the
// number of objects skipped (kinds not read; each kind also has a warning).
struct LoadResult {
  api::ObjectSet objects;
  std::vector<std::string> warnings;
  int64_t skipped = 0;
  // object_errors: with LoadOptions::keep_valid_objects, the errors of the objects left out (and
  // of documents that could not be read); empty otherwise (errors fail the load).
  InputErrors object_errors;
};

// LoadErrors: a failed load's errors (it *is* the InputErrors, so every reader of the errors
// keeps working) plus the warnings found on the way, which callers print first: an unknown-field
// warning often explains an error (issue 20 item 6).
struct LoadErrors : InputErrors {
  LoadErrors() = default;
  explicit LoadErrors(InputErrors errors) : InputErrors(std::move(errors)) {}
  std::vector<std::string> warnings;
};

// LoadPaths: reads every path in order. Errors: unreadable path, malformed YAML/JSON, wrong field
// types, bad quantities, missing names — each an InputError naming file, document, object and
// field path. On error nothing is returned (no partial state). O(total input size).
[[nodiscard]] tl::expected<LoadResult, LoadErrors> LoadPaths(
    const std::vector<std::string>& paths, std::istream& stdin_stream,
    const LoadOptions& options = {});

// NamedText: an in-memory document stream (YAML or JSON) and the name errors give as its file,
// e.g. an API server's list response named "cluster GET /api/v1/pods".
struct NamedText {
  std::string name;
  std::string text;
};

// LoadTextsAndPaths: decodes `texts` in order, then `paths` as LoadPaths, into one result (the
// live cluster's objects first, files on top: `wasched schedule --kubeconfig K -f F`). Same
// errors and all-or-nothing contract as LoadPaths. O(total input size).
[[nodiscard]] tl::expected<LoadResult, LoadErrors> LoadTextsAndPaths(
    const std::vector<NamedText>& texts, const std::vector<std::string>& paths,
    std::istream& stdin_stream, const LoadOptions& options = {});

// LoadString: decodes one in-memory document stream; `file` names it in errors.
[[nodiscard]] tl::expected<LoadResult, LoadErrors> LoadString(const std::string& text,
                                                              const std::string& file,
                                                              const LoadOptions& options = {});

}  // namespace wasched::codec
