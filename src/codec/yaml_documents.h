// File: codec/yaml_documents.h
//
// YAML stream → documents (internal to codec/). The text is cut at document-start markers
// (`---` at the start of a line, which YAML forbids inside any scalar) and each piece is parsed on
// its own by yaml-cpp (strict JSON input takes nlohmann's parser, json_dom.h) so that one
// malformed document does not hide the others, every error carries its document number and file
// line, and memory holds one document at a time. yaml-cpp exceptions are caught here and never
// escape.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "codec/event_tape.h"

namespace wasched::codec::internal {

// ParsedDocument: one document of a stream. `number` is 1-based and counts every document yaml-cpp
// sees (empty ones included, so numbers match what a reader counts in the file). When `error` is
// non-empty the piece could not be parsed and `tape` is empty; the error reads
// `malformed YAML: line 7, column 3: end of map not found` with the line counted in the whole
// file. `text_size` is the size of the piece's text (decoders' visit budget).
struct ParsedDocument {
  int number = 0;
  EventTape tape;
  std::string error;
  size_t text_size = 0;
};

// kNotTextError: the error of a text that holds NUL bytes (a binary file, not YAML or JSON).
inline constexpr const char* kNotTextError = "file is not a text manifest (contains NUL bytes)";

// ForEachDocument: parses `text` (a leading UTF-8 byte-order mark is skipped) and calls `fn` for
// each document in order, null documents included (callers skip them). A text holding a NUL
// byte (YAML allows none; UTF-16 / UTF-32 text with a byte-order mark excepted) is not parsed:
// `fn` gets one document numbered 0 with error kNotTextError. `text` must stay alive while `fn`
// runs. O(text size).
void ForEachDocument(std::string_view text, const std::function<void(ParsedDocument&)>& fn);

}  // namespace wasched::codec::internal
