// File: perf/memory.cc
#include "perf/memory.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "sched/scheduler.h"

namespace wasched::perf {
namespace {

// StatusKiB: the value of `field` ("VmRSS:", "VmHWM:") in /proc/self/status, in bytes; -1 if
// it cannot be read.
int64_t StatusBytes(const char* field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  const size_t len = std::strlen(field);
  while (std::getline(status, line)) {
    if (line.compare(0, len, field) == 0) return std::stoll(line.substr(len)) * 1024;
  }
  return -1;
}

void ResetPeak() {
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";
}

}  // namespace

tl::expected<int64_t, std::string> MeasurePeakGrowth(const std::function<void()>& work) {
  int fds[2];
  if (pipe(fds) != 0) return tl::unexpected(std::string("pipe: ") + std::strerror(errno));
  std::fflush(nullptr);
  const pid_t child = fork();
  if (child < 0) return tl::unexpected(std::string("fork: ") + std::strerror(errno));
  if (child == 0) {
    close(fds[0]);
    ResetPeak();
    const int64_t before = StatusBytes("VmRSS:");
    work();
    const int64_t growth = StatusBytes("VmHWM:") - before;
    const ssize_t n = write(fds[1], &growth, sizeof growth);
    _exit(n == static_cast<ssize_t>(sizeof growth) ? 0 : 1);
  }
  close(fds[1]);
  int64_t growth = 0;
  const ssize_t n = read(fds[0], &growth, sizeof growth);
  close(fds[0]);
  int status = 0;
  waitpid(child, &status, 0);
  if (n != static_cast<ssize_t>(sizeof growth) || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return tl::unexpected(std::string("the measuring child process failed"));
  }
  return growth;
}

tl::expected<MemoryReading, std::string> MeasureScheduleMemory(const std::function<api::ObjectSet()>& build) {
  int fds[2];
  if (pipe(fds) != 0) return tl::unexpected(std::string("pipe: ") + std::strerror(errno));
  std::fflush(nullptr);
  const pid_t child = fork();
  if (child < 0) return tl::unexpected(std::string("fork: ") + std::strerror(errno));
  if (child == 0) {
    close(fds[0]);
    const int64_t before = StatusBytes("VmRSS:");
    MemoryReading r;
    {
      const api::ObjectSet objects = build();
      ResetPeak();
      const int64_t after_input = StatusBytes("VmRSS:");
      {
        const sched::ScheduleResult result = sched::Schedule(objects, sched::SchedulerOptions{});
        (void)result;
      }
      const int64_t peak = StatusBytes("VmHWM:");
      r.input = after_input - before;
      r.engine = peak - after_input;
      r.total = peak;
    }
    const ssize_t n = write(fds[1], &r, sizeof r);
    _exit(n == static_cast<ssize_t>(sizeof r) ? 0 : 1);
  }
  close(fds[1]);
  MemoryReading r;
  const ssize_t n = read(fds[0], &r, sizeof r);
  close(fds[0]);
  int status = 0;
  waitpid(child, &status, 0);
  if (n != static_cast<ssize_t>(sizeof r) || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return tl::unexpected(std::string("the measuring child process failed"));
  }
  return r;
}

}  // namespace wasched::perf
