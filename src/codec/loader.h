// File: codec/loader.h
//
// Reading manifests: files, folders (every *.yaml, *.yml, *.json inside, recursively, sorted by
// path) and "-" (stdin); YAML with many documents, JSON, and `List` objects (kind List or any
// *List with `items`). Decodes the kinds wasched knows into api objects; unknown kinds are skipped
// with one warning naming them; unknown fields give a warning naming the field path. The only
// place (with codec/*.cc) that includes the parsers (simdjson, libyaml).
//
//   auto loaded = codec::LoadPaths({"cluster/", "jobs.yaml"});
//   if (!loaded) { for (auto& e : loaded.error()) std::cerr << e.ToString() << "\n"; return 1; }
//   for (auto& w : loaded->warnings) std::cerr << "warning: " << w << "\n";
#pragma once

#include <istream>
#include <string>
#include <vector>

#include <tl/expected.hpp>

#include "api/object_set.h"
#include "util/field_error.h"

namespace wasched::codec {

// LoadResult: decoded objects plus warnings (already formatted, deterministic order).
struct LoadResult {
  api::ObjectSet objects;
  std::vector<std::string> warnings;
};

// LoadPaths: reads every path in order. Errors: unreadable path, malformed YAML/JSON, wrong field
// types, bad quantities, missing names — each an InputError naming file, document, object and
// field path. On error nothing is returned (no partial state). O(total input size).
[[nodiscard]] tl::expected<LoadResult, InputErrors> LoadPaths(const std::vector<std::string>& paths,
                                                              std::istream& stdin_stream);

// NamedText: an in-memory document stream (YAML or JSON) and the name errors give as its file,
// e.g. an API server's list response named "cluster GET /api/v1/pods".
struct NamedText {
  std::string name;
  std::string text;
};

// LoadTextsAndPaths: decodes `texts` in order, then `paths` as LoadPaths, into one result (the
// live cluster's objects first, files on top: `wasched schedule --kubeconfig K -f F`). Same
// errors and all-or-nothing contract as LoadPaths. O(total input size).
[[nodiscard]] tl::expected<LoadResult, InputErrors> LoadTextsAndPaths(
    const std::vector<NamedText>& texts, const std::vector<std::string>& paths,
    std::istream& stdin_stream);

// LoadString: decodes one in-memory document stream; `file` names it in errors.
[[nodiscard]] tl::expected<LoadResult, InputErrors> LoadString(const std::string& text,
                                                               const std::string& file);

}  // namespace wasched::codec
