// File: cli/demo_command.h
//
// `wasched demo [-o table|json|yaml|html] [--feature-gates ...] [--scoring-strategy ...]`: the main job
// on the bundled example — `schedule` over examples/demo (a 32-node GPU cluster, the v1.37 release
// announcement's gang-scheduled training job, a gang too big for the cluster, and bare pods).
// With `-o table` a short header says what the demo shows; json/yaml output is exactly what
// `wasched schedule -f examples/demo -o json|yaml` prints.
#pragma once

#include <iosfwd>
#include <string>

#include "cli/schedule_command.h"

namespace wasched::cli {

// DefaultExamplesDir: $WASCHED_EXAMPLES_DIR when set and non-empty, else the source tree's
// examples/ folder compiled in (WASCHED_EXAMPLES_DIR definition).
[[nodiscard]] std::string DefaultExamplesDir();

// DemoOptions: `examples_dir` holds the `demo/` folder; `schedule.paths` is ignored.
struct DemoOptions {
  std::string examples_dir;
  ScheduleOptions schedule;
};

// RunDemo: RunSchedule on `<examples_dir>/demo`. Errors: the folder is missing → exit 1 with a
// message naming it and WASCHED_EXAMPLES_DIR. Same exit codes as RunSchedule.
[[nodiscard]] int RunDemo(const DemoOptions& options, std::istream& in, std::ostream& out,
                          std::ostream& err);

}  // namespace wasched::cli
