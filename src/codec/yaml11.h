// File: codec/yaml11.h
//
// YAML 1.1 resolution of plain (unquoted, untagged) scalars, as kubectl and the API server's
// YAML path resolve them: sigs.k8s.io/yaml reads YAML with its go-yaml v2 fork
// (go.yaml.in/yaml/v2 resolve.go, `resolve`), then turns the result into JSON
// (sigs.k8s.io/yaml yaml.go, `yamlToJSONTarget` / `convertToJSONableObject`, then
// encoding/json's float formatting) before any typed decoding. So an unquoted `yes` reaches the
// API server as the JSON boolean `true`, `0x10` as the number 16 and `1e3` as 1000, and a map
// key `on:` as the string "true" (internal to codec/).
//
//   Yaml11Scalar v = ResolveYaml11Plain("0x10");   // {kInteger, "16"}
//   Yaml11Scalar b = ResolveYaml11Plain("Yes");    // {kBool, "true"}
//   std::string k = Yaml11KeyText("on");           // "true"
//
// The texts returned are what the JSON holds, so the core-schema classification of
// codec/yaml_reader.h (ClassifyPlainScalar) reads them with the right type.
#pragma once

#include <string>
#include <string_view>

#include "codec/yaml_reader.h"

namespace wasched::codec::internal {

// Yaml11Scalar: the kind go-yaml v2 gives a plain scalar and the JSON text sigs.k8s.io/yaml
// writes for it: "true" / "false" for booleans, a decimal for integers (int64 or uint64 range),
// encoding/json's shortest form for floats ("1000", "0.5", "1e+21", "1e-7"); the input itself for
// strings and for `.inf` / `.nan` (kFloat; JSON has no such number, upstream refuses the
// document). kNull for "", "~", null / Null / NULL.
struct Yaml11Scalar {
  ValueKind kind = ValueKind::kString;
  std::string text;
};

// ResolveYaml11Plain: the table of go-yaml v2's resolve.go: booleans y Y yes Yes YES n N no No NO
// true True TRUE false False FALSE on On ON off Off OFF; integers with `_` separators removed,
// then Go's strconv.ParseInt / ParseUint with base 0 (`0x1f`, `0o17`, `0b101`, leading-zero
// octal `017`, signs); floats matching `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`
// (after removing `_`; `08` is therefore the float 8), a value too large for a float64 staying
// a string (`1e400`); timestamps stay strings (go-yaml v2 keeps them as text when decoding into
// an interface). O(length).
[[nodiscard]] Yaml11Scalar ResolveYaml11Plain(std::string_view text);

// Yaml11KeyText: the JSON object key sigs.k8s.io/yaml makes of a plain map key: booleans
// "true" / "false", integers in decimal, floats as Go's FormatFloat(f, 'g', -1, 32) (".inf",
// "-.inf", ".nan" for the special values), anything else unchanged. (A null key, and an
// integer key above int64, are errors upstream; the caller reports null keys, and the latter
// is kept as its decimal.) O(length).
[[nodiscard]] std::string Yaml11KeyText(std::string_view text);

}  // namespace wasched::codec::internal
