// File: fuzz/fuzz_schedule.cc
//
// libFuzzer target: a whole `wasched schedule -f - -o json` run in-process (cli::RunSchedule:
// decode → feature gates → validate → sched::Schedule → encode), input capped at kMaxInput
// bytes so one run stays fast. Exit 1 must come with "error:" lines and nothing on stdout; exit 3
// (an exception escaped, or output could not be written to a string) is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "cli/schedule_command.h"
#include "fuzz_input.h"

namespace {
constexpr size_t kMaxInput = 16 * 1024;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace wasched;
  if (size > kMaxInput) return -1;  // not added to the corpus
  std::istringstream in(fuzz::Text(data, size));
  std::ostringstream out;
  std::ostringstream err;
  cli::ScheduleOptions options;
  options.paths = {"-"};
  options.output = (size % 2 == 0) ? cli::OutputFormat::kJson : cli::OutputFormat::kTable;
  options.scheduler.verify = true;
  const int code = cli::RunSchedule(options, in, out, err);
  const bool ok = code == cli::kExitOk ||
                  (code == cli::kExitInvalidInput && out.str().empty() &&
                   err.str().find("error: ") != std::string::npos);
  if (!ok) {
    std::fprintf(stderr, "fuzz: exit %d, stdout %zu bytes, stderr:\n%s\n", code,
                 out.str().size(), err.str().c_str());
    std::abort();
  }
  return 0;
}
