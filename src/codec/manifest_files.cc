// File: codec/manifest_files.cc
//
// Path expansion and file reading for tools that take `-f PATH...` (see manifest_files.h).
#include "codec/manifest_files.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <set>
#include <system_error>
#include <utility>

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

InputError TooLong(const std::string& path, size_t limit) {
  return PathError(path, FieldErrorType::kTooLong,
                   fmt::format("input is longer than {} bytes (the limit of one file, see README "
                               "\"Input limits\")",
                               limit));
}

// The file mapping whose text is being handed out (ReleaseConsumedText may drop its pages).
thread_local std::string_view current_mapping;
void RegisterMapping(std::string_view mapping) { current_mapping = mapping; }

// FileText: the text of one file: a read-only private mapping of a regular file (no copy: a
// 426 MB dump costed 1.4 s of copying and page faults through an ifstream), else the bytes read
// (pipes, character devices, files whose size says nothing such as /proc's).
class FileText {
 public:
  explicit FileText(std::string text) : text_(std::move(text)) {}
  FileText(const char* map, size_t size) : map_(map), size_(size) {}
  FileText(FileText&& o) noexcept
      : text_(std::move(o.text_)), map_(std::exchange(o.map_, nullptr)), size_(o.size_) {}
  FileText& operator=(FileText&&) = delete;
  FileText(const FileText&) = delete;
  FileText& operator=(const FileText&) = delete;
  ~FileText() {
    if (map_ == nullptr) return;
    RegisterMapping({});
    munmap(const_cast<char*>(map_), size_);
  }
  [[nodiscard]] std::string_view view() const {
    if (map_ == nullptr) return text_;
    RegisterMapping(std::string_view(map_, size_));
    return std::string_view(map_, size_);
  }

 private:
  std::string text_;
  const char* map_ = nullptr;
  size_t size_ = 0;
};

std::optional<FileText> ReadWholeFile(const std::string& path, InputErrors* errors) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const std::error_code ec(errno, std::generic_category());
    errors->push_back(
        PathError(path, FieldErrorType::kInvalid, "cannot read file: " + ec.message()));
    return std::nullopt;
  }
  struct stat st {};
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    const auto size = static_cast<size_t>(st.st_size);
    if (size > kMaxFileBytes) {
      close(fd);
      errors->push_back(TooLong(path, kMaxFileBytes));
      return std::nullopt;
    }
    void* map = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map != MAP_FAILED) {
      close(fd);
      return FileText(static_cast<const char*>(map), size);
    }
  }
  close(fd);
  // Not mappable: read through a stream. A regular file's size is known: the text is read into
  // one buffer of that size (growing it by doubling would hold two copies of a large dump).
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const std::error_code ec(errno, std::generic_category());
    errors->push_back(
        PathError(path, FieldErrorType::kInvalid, "cannot read file: " + ec.message()));
    return std::nullopt;
  }
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  auto text = ReadLimited(in, path, kMaxFileBytes, errors, ec ? 0 : static_cast<size_t>(size));
  if (!text) return std::nullopt;
  return FileText(std::move(*text));
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
      errors->push_back(TooLong(path, limit));
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
      if (auto text = ReadWholeFile(path, errors)) fn(path, text->view());
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
      if (auto text = ReadWholeFile(file, errors)) fn(file, text->view());
    }
  }
}

void ReleaseConsumedText(std::string_view text, size_t consumed) {
  const std::string_view map = current_mapping;
  if (map.empty() || text.data() < map.data() ||
      text.data() + text.size() > map.data() + map.size()) {
    return;  // not (inside) the mapped file: heap memory must not be dropped
  }
  const auto page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto base = reinterpret_cast<uintptr_t>(map.data());  // page-aligned (mmap)
  const uintptr_t end = reinterpret_cast<uintptr_t>(text.data()) + std::min(consumed, text.size());
  const uintptr_t release_end = base + (end - base) / page * page;
  if (release_end > base) madvise(reinterpret_cast<void*>(base), release_end - base, MADV_DONTNEED);
}

void AdviseHugePages(const void* data, size_t bytes) {
  constexpr uintptr_t kHugePage = uintptr_t{2} << 20;
  const auto begin = reinterpret_cast<uintptr_t>(data);
  const uintptr_t first = (begin + kHugePage - 1) / kHugePage * kHugePage;
  const uintptr_t last = (begin + bytes) / kHugePage * kHugePage;
  if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
}

}  // namespace wasched::codec::internal
