// File: util/atomic_file.h
//
// AtomicFile: an output file that appears whole or not at all. The text goes to a temporary file
// in the target's folder (so the final rename never crosses a file system); Commit renames it
// over the target. Until then the previous file, if any, is untouched; an interrupted or failed
// run removes its temporary file (destructor) and leaves the previous output in place
// (issue 20 item 25: `simulate --report` used to truncate the old report at start).
//
//   AtomicFile f;
//   if (!f.Open("out/report.html", &error)) { ... }   // fails at once if the folder is unwritable
//   f.stream() << html;
//   if (!f.Commit(&error)) { ... }                     // error: "out/report.html: No space left…"
//
// Not thread-safe; one writer per object. A process killed by a signal can leave a
// `.<name>.tmp-XXXXXX` file beside the target (never a truncated target).
#pragma once

#include <fstream>
#include <string>

namespace wasched {

class AtomicFile {
 public:
  AtomicFile() = default;
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  // ~AtomicFile: removes the temporary file unless committed.
  ~AtomicFile();

  // Open: creates the temporary file `.<name>.tmp-XXXXXX` beside `path` (mode 0666 minus umask,
  // as a plain create). False with `<path>: <reason>` in *error when it cannot be created.
  [[nodiscard]] bool Open(const std::string& path, std::string* error);
  // stream: where the text goes (valid after a successful Open).
  [[nodiscard]] std::ofstream& stream() { return stream_; }
  // Commit: flushes and closes the temporary file and renames it to the target. False with
  // `<path>: <reason>` (a write or rename failure); the temporary file is then removed.
  [[nodiscard]] bool Commit(std::string* error);
  // Discard: removes the temporary file (also done by the destructor). Idempotent.
  void Discard();

  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::string temp_path_;
  std::ofstream stream_;
  bool open_ = false;
};

}  // namespace wasched
