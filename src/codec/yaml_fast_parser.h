// File: codec/yaml_fast_parser.h
//
// A fast parser for the YAML subset Kubernetes manifests are written in (internal to codec/):
// block mappings and sequences (including `key:\n- item` and `- key: value` forms), flow
// collections (JSON included, across lines), plain, single- and double-quoted scalars on one
// line, literal/folded block scalars (`|`, `|-`, `>`, `>-`), comments and one leading `---`.
// About 20× faster than yaml-cpp, which the codec uses for everything else.
//
// Contract: ParseFastYaml either returns exactly the YamlDom that ParseWithYamlCpp would build
// for the same text, or nullopt ("not handled here") — for anchors, aliases, tags, directives,
// multi-line plain or quoted scalars, `?` keys, `...`, tabs in indentation, keep-chomping and
// indentation indicators, nesting deeper than kMaxFastNesting, and for every malformed input (so
// error messages always come from yaml-cpp). yaml_fast_parser_test.cc checks the contract
// differentially on real and mutated manifests.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "codec/yaml_dom.h"

namespace wasched::codec::internal {

inline constexpr int kMaxFastNesting = 200;

// ParseFastYaml: the documents of `text` (one piece of a stream as cut by yaml_documents.cc: at
// most one document, which may open with `---`): zero documents for a text of only comments and
// blank lines, else one. Scalar texts point into `text`, which must outlive the result.
// O(text size).
[[nodiscard]] std::optional<std::vector<YamlDom>> ParseFastYaml(std::string_view text);

}  // namespace wasched::codec::internal
