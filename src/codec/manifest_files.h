// File: codec/manifest_files.h
//
// Reading the texts behind `-f PATH...` (internal to codec/): files, folders (every *.yaml,
// *.yml and *.json inside, recursively, sorted by path) and "-" (stdin), with the same rules and
// error texts as the loader (codec/loader.cc), for tools that work on texts rather than decoded
// objects (`wasched convert`).
//
//   InputErrors errors; std::vector<std::string> warnings;
//   ForEachManifestText({"a.yaml", "dir/"}, std::cin, &errors, &warnings,
//                       [&](const std::string& file, std::string_view text) { ... });
#pragma once

#include <functional>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/field_error.h"

namespace wasched::codec::internal {

// ReadLimited: all of `in`, or nullopt after adding a TooLong error naming `path` once it passes
// `limit` bytes (files and stdin use kMaxFileBytes, codec/input_limits.h: an endless stream such
// as /dev/zero stops there instead of exhausting memory); a read error is an Invalid error.
// `size_hint`: the expected size (a regular file's), reserved up front. O(min(size, limit)).
[[nodiscard]] std::optional<std::string> ReadLimited(std::istream& in, const std::string& path,
                                                     size_t limit, InputErrors* errors,
                                                     size_t size_hint = 0);

// ReleaseConsumedText: `text` (a text ForEachManifestText handed to `fn`, still inside `fn`)
// will not be read before byte `consumed` any more, or only rarely: when it is a file mapping, its
// whole pages before that byte are dropped from memory (read again from the file if touched: the
// mapping is private and never written, so the content stays the same); otherwise nothing. A
// large JSON List then holds the decoded objects and the rest of the text, not the whole text
// as well. O(1) (one madvise).
void ReleaseConsumedText(std::string_view text, size_t consumed);

// AdviseHugePages: the whole 2 MiB pages inside [data, data + bytes), memory that is about to be
// filled (e.g. a vector reserved for a large List's Pods), are asked for as transparent huge
// pages (madvise MADV_HUGEPAGE; where the kernel allows them only on request): one page fault
// per 2 MiB instead of per 4 KiB. No effect on content; nothing when the range holds no whole
// huge page or the kernel refuses. O(1).
void AdviseHugePages(const void* data, size_t bytes);

// ForEachManifestText: calls `fn(file, text)` for every text in path order (a folder's files
// sorted); `file` is the path as found ("-" for stdin). A missing path is a NotFound error
// (document 0), an unreadable file or folder an Invalid one; a folder without manifests adds a
// warning. A file reached twice (same canonical path: named twice, or named and inside a named
// folder) is read the first time only, with the warning `file X given more than once; read
// once`. Reads one file at a time; a regular file is mapped, not copied (the text is valid
// during `fn` only, and a file truncated while it is read ends the process with SIGBUS, as any
// mapping does). O(total size + files × log files).
void ForEachManifestText(const std::vector<std::string>& paths, std::istream& stdin_stream,
                         InputErrors* errors, std::vector<std::string>* warnings,
                         const std::function<void(const std::string&, std::string_view)>& fn);

}  // namespace wasched::codec::internal
