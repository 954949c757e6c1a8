// File: codec/load_options.h
//
// How strictly manifests are read: the options every command that loads manifests passes to
// the loader (codec/loader.h), from its `--validate` and `--skip-unknown-kinds` flags. kubectl's
// `--validate` is the model: `strict` (the default) makes unknown and duplicate fields errors,
// `warn` reports them as warnings, `ignore` drops them silently (the first of repeated keys is
// read).
//
//   auto mode = codec::ParseFieldValidation("warn");  // or strict / true, ignore / false
//   if (!mode) { err << "error: " << mode.error(); return 2; }
//   codec::LoadOptions options{.field_validation = *mode};
//   auto loaded = codec::LoadPaths(paths, std::cin, options);
#pragma once

#include <string>
#include <string_view>

#include <tl/expected.hpp>

namespace wasched::codec {

// FieldValidation: what an unknown field or a mapping key given twice is.
enum class FieldValidation {
  kStrict,  // an error: `unknown field "spec.paralellism"`, `Duplicate value: mapping key …`
  kWarn,    // a warning: `unknown field "spec.paralellism"`, `duplicate field "spec.x"`
  kIgnore,  // nothing (the first of repeated keys is read)
};

// ParseFieldValidation: kubectl's values: "strict" or "true", "warn", "ignore" or "false";
// anything else is an error naming the choices. O(length).
[[nodiscard]] tl::expected<FieldValidation, std::string> ParseFieldValidation(
    std::string_view text);

// LoadOptions: the loader's options. `skip_unknown_kinds`: objects of kinds and versions wasched
// does not read are skipped with a warning instead of being errors (`--skip-unknown-kinds`);
// kinds of the Kubernetes APIs that do not affect scheduling (v1 ConfigMap, Service, …) are
// always skipped with a note. `keep_valid_objects`: the load does not fail on errors; an object
// with an error is left out and its errors go to LoadResult::object_errors, so that every other
// object can still be checked — as the API server takes each object of `kubectl create -f` on
// its own (`validate` uses it; every other command refuses the whole input).
struct LoadOptions {
  FieldValidation field_validation = FieldValidation::kStrict;
  bool skip_unknown_kinds = false;
  bool keep_valid_objects = false;
};

}  // namespace wasched::codec
