// File: cli/demo_command.cc
#include "cli/demo_command.h"

#include <cstdlib>
#include <filesystem>
#include <ostream>
#include <sstream>

#ifndef WASCHED_EXAMPLES_DIR
#define WASCHED_EXAMPLES_DIR "examples"
#endif

namespace wasched::cli {
namespace {

constexpr const char* kDemoHeader =
    "wasched demo: Kubernetes v1.37 workload-aware (gang) scheduling on the bundled example\n"
    "  cluster   32 GPU nodes: 2 zones x 4 racks x 4 nodes, 8 GPUs each (256 GPUs)\n"
    "  training  PodGroup of 8 workers x 8 GPUs, gang minCount 8: binds all 8 at once\n"
    "  pretrain  PodGroup of 40 workers x 8 GPUs, gang minCount 40: needs 320 GPUs, so none of\n"
    "            its pods binds (pod-by-pod it would hold every free node, half-started)\n"
    "  bare pods CPU-only and 1-GPU pods without a PodGroup, scheduled one by one\n"
    "  input     examples/demo (see examples/demo/README.md); same as\n"
    "            wasched schedule -f examples/demo\n"
    "\n";

}  // namespace

std::string DefaultExamplesDir() {
  const char* env = std::getenv("WASCHED_EXAMPLES_DIR");
  if (env != nullptr && *env != '\0') return env;
  return WASCHED_EXAMPLES_DIR;
}

int RunDemo(const DemoOptions& options, std::istream& in, std::ostream& out, std::ostream& err) {
  const std::filesystem::path dir = std::filesystem::path(options.examples_dir) / "demo";
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    err << "error: demo manifests not found: " << dir.string()
        << " is not a folder (set WASCHED_EXAMPLES_DIR to the examples/ folder)\n";
    return kExitInvalidInput;
  }
  ScheduleOptions schedule = options.schedule;
  schedule.paths = {dir.string()};
  std::ostringstream body;
  const int code = RunSchedule(schedule, in, body, err);
  if (code != kExitOk) return code;
  std::string text = schedule.output == OutputFormat::kTable ? kDemoHeader : "";
  text += body.str();
  return WriteOutput(out, err, text, kExitOk);
}

}  // namespace wasched::cli
