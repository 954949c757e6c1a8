// File: codec/yaml_documents.h
//
// YAML stream → documents (internal to codec/). The text is cut at document-start markers
// (`---` at the start of a line, which YAML forbids inside any scalar) and each piece is parsed on
// its own by libyaml's event parser (strict JSON input takes simdjson, json_events.h) so that one
// malformed document does not hide the others, every error carries its document number and file
// line, and memory holds one document at a time. Parse errors are libyaml's own problem texts
// (as kubectl prints them: go-yaml is a port of libyaml) at libyaml's position, or the limits'
// texts of codec/event_tape.h.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "codec/event_tape.h"

namespace wasched::codec::internal {

// ParsedDocument: one document of a stream. `number` is 1-based and counts every document the
// parser sees (empty ones included, so numbers match what a reader counts in the file). When
// `error` is non-empty the piece could not be parsed and `tape` is empty; the error reads
// `malformed YAML: line 7, column 3: did not find expected key` with the line counted in the
// whole file. `text_size` is the size of the piece's text (decoders' visit budget).
// `piece` is the document's text in the stream (a view into it; with the other documents of
// its piece when several share one), `stream_pieces` how many pieces the YAML stream was cut
// into (about its documents: for reserving room; 0 for JSON and for unparsed text).
struct ParsedDocument {
  int number = 0;
  EventTape tape;
  std::string error;
  size_t text_size = 0;
  std::string_view piece;
  size_t stream_pieces = 0;
};

// kNotTextError: the error of a text that holds NUL bytes (a binary file, not YAML or JSON).
inline constexpr const char* kNotTextError = "file is not a text manifest (contains NUL bytes)";

// DocumentOptions: defer_json_list_items: a JSON `List` comes with its items deferred
// (ParseJsonList of codec/json_events.h; for the loader, which parses them one at a time);
// yaml_only: JSON text is read by the YAML parser too.
struct DocumentOptions {
  bool defer_json_list_items = false;
  bool yaml_only = false;
};

// ForEachDocument: parses `text` (a leading UTF-8 byte-order mark is skipped) and calls `fn` for
// each document in order, null documents included (callers skip them). A text holding a NUL
// byte (YAML allows none; UTF-16 text with a byte-order mark excepted) is not parsed:
// `fn` gets one document numbered 0 with error kNotTextError. `text` must stay alive while `fn`
// runs. O(text size).
void ForEachDocument(std::string_view text, const std::function<void(ParsedDocument&)>& fn,
                     const DocumentOptions& options = {});

}  // namespace wasched::codec::internal
