// File: util/atomic_file.cc
#include "util/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace wasched {
namespace {

std::string Reason(int error) { return error != 0 ? std::strerror(error) : "I/O error"; }

}  // namespace

AtomicFile::~AtomicFile() { Discard(); }

bool AtomicFile::Open(const std::string& path, std::string* error) {
  Discard();
  path_ = path;
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  struct stat st {};
  if (stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    *error = path + ": " + Reason(EISDIR);
    return false;
  }
  std::string pattern = dir + "." + name + ".tmp-XXXXXX";
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  errno = 0;
  const int fd = mkstemp(buffer.data());
  if (fd < 0) {
    *error = path + ": " + Reason(errno);
    return false;
  }
  // mkstemp creates 0600; a plain output file is 0666 minus the umask.
  const mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, 0666 & ~mask);
  close(fd);
  temp_path_.assign(buffer.data());
  stream_.open(temp_path_, std::ios::binary | std::ios::trunc);
  if (!stream_) {
    *error = path + ": " + Reason(errno);
    std::remove(temp_path_.c_str());
    temp_path_.clear();
    return false;
  }
  open_ = true;
  return true;
}

bool AtomicFile::Commit(std::string* error) {
  if (!open_) {
    *error = path_ + ": not open";
    return false;
  }
  errno = 0;
  stream_.flush();
  stream_.close();
  if (!stream_) {
    *error = path_ + ": " + Reason(errno);
    Discard();
    return false;
  }
  errno = 0;
  if (std::rename(temp_path_.c_str(), path_.c_str()) != 0) {
    *error = path_ + ": " + Reason(errno);
    Discard();
    return false;
  }
  open_ = false;
  temp_path_.clear();
  return true;
}

void AtomicFile::Discard() {
  if (stream_.is_open()) stream_.close();
  stream_.clear();
  if (!temp_path_.empty()) std::remove(temp_path_.c_str());
  temp_path_.clear();
  open_ = false;
}

}  // namespace wasched
