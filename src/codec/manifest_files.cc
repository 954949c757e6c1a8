// File: codec/manifest_files.cc
//
// Path expansion and file reading for tools that take `-f PATH...` (see manifest_files.h).
#include "codec/manifest_files.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <set>
#include <system_error>

#include "codec/input_limits.h"

namespace wasched::codec::internal {
namespace {

namespace fs = std::filesystem;

InputError PathError(const std::string& path, FieldErrorType type, std::string detail) {
  return InputError{api::SourceRef{path, 0}, "", FieldError{type, "", "", std::move(detail), ""}};
}

bool IsManifestFile(const fs::path& p) {
  const std::string ext = p.extension().string();
  return ext == ".yaml" || ext == ".yml" || ext == ".json";
}

std::optional<std::string> ReadWholeFile(const std::string& path, InputErrors* errors) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const std::error_code ec(errno, std::generic_category());
    errors->push_back(
        PathError(path, FieldErrorType::kInvalid, "cannot read file: " + ec.message()));
    return std::nullopt;
  }
  // A regular file's size is known: the text is read into one buffer of that size (growing it
  // by doubling would hold two copies of a large dump at once).
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  return ReadLimited(in, path, kMaxFileBytes, errors, ec ? 0 : static_cast<size_t>(size));
}

}  // namespace

std::optional<std::string> ReadLimited(std::istream& in, const std::string& path, size_t limit,
                                       InputErrors* errors, size_t size_hint) {
  std::string text;
  text.reserve(std::min(size_hint, limit) + 1);
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    const auto got = static_cast<size_t>(in.gcount());
    if (got > limit - text.size()) {
      errors->push_back(PathError(
          path, FieldErrorType::kTooLong,
          fmt::format("input is longer than {} bytes (the limit of one file, see README \"Input "
                      "limits\")",
                      limit)));
      return std::nullopt;
    }
    text.append(buffer, got);
  }
  if (in.bad()) {
    errors->push_back(PathError(path, FieldErrorType::kInvalid, "cannot read file: I/O error"));
    return std::nullopt;
  }
  return text;
}

void ForEachManifestText(const std::vector<std::string>& paths, std::istream& stdin_stream,
                         InputErrors* errors, std::vector<std::string>* warnings,
                         const std::function<void(const std::string&, std::string_view)>& fn) {
  // Files already read, by canonical path: a file named twice (`-f a.yaml -f ./a.yaml`, or a
  // folder and a file inside it) is read once; otherwise every object in it would be reported
  // as a duplicate of itself.
  std::set<std::string> seen;
  auto first_time = [&](const std::string& file) {
    std::error_code canonical_ec;
    const fs::path canonical = fs::weakly_canonical(file, canonical_ec);
    if (seen.insert(canonical_ec ? file : canonical.string()).second) return true;
    warnings->push_back(fmt::format("file {} given more than once; read once", file));
    return false;
  };
  for (const std::string& path : paths) {
    if (path == "-") {
      if (auto text = ReadLimited(stdin_stream, path, kMaxFileBytes, errors)) fn(path, *text);
      continue;
    }
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (ec || !fs::exists(status)) {
      errors->push_back(PathError(path, FieldErrorType::kNotFound,
                                  ec ? ec.message() : std::string("no such file or directory")));
      continue;
    }
    if (!fs::is_directory(status)) {
      if (!first_time(path)) continue;
      if (auto text = ReadWholeFile(path, errors)) fn(path, *text);
      continue;
    }
    std::vector<std::string> files;
    fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec);
    for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      std::error_code type_ec;
      if (it->is_regular_file(type_ec) && IsManifestFile(it->path())) {
        files.push_back(it->path().generic_string());
      }
    }
    if (ec) {
      errors->push_back(
          PathError(path, FieldErrorType::kInvalid, "cannot list folder: " + ec.message()));
      continue;
    }
    std::sort(files.begin(), files.end());
    if (files.empty()) {
      warnings->push_back(fmt::format("{}: folder holds no *.yaml, *.yml or *.json files", path));
    }
    for (const std::string& file : files) {
      if (!first_time(file)) continue;
      if (auto text = ReadWholeFile(file, errors)) fn(file, *text);
    }
  }
}

}  // namespace wasched::codec::internal
