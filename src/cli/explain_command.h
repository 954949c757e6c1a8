// File: cli/explain_command.h
//
// `wasched explain pod NS/NAME | podgroup NS/NAME (-f PATH... | --kubeconfig PATH [-f ...])`:
// why one object is where it is, from the same run `schedule` makes (cli::LoadAndSchedule): no
// second scheduler. For a pod: bound / running / pending with the PodScheduled reason upstream
// would set and its message (the per-filter node summary "0/N nodes are available: …", the
// placements tried "0/N placements are available: …" and the preemption verdict "pod group
// preemption: …" as the engine reports them), its group with the group's condition, and the
// evictions that concern it. For a PodGroup / CompositePodGroup: its condition, scheduled count
// against minCount / minGroupCount, parent, each member pod's outcome and the evictions it made.
// Text for people (stdout); exit codes as `schedule`, plus 1 when the object is not in the input
// (`error: pod ns/name not found`).
#pragma once

#include <iosfwd>
#include <string>

#include "cli/schedule_command.h"

namespace wasched::cli {

// ExplainOptions: `kind` is "pod" or "podgroup" (a CompositePodGroup is found under podgroup
// too); `name` is "ns/name" (a name without '/' is in namespace "default").
struct ExplainOptions {
  std::string kind;
  std::string name;
  ScheduleOptions schedule;
};

// RunExplain: LoadAndSchedule, then the explanation. O(input + scheduler + result size).
[[nodiscard]] int RunExplain(const ExplainOptions& options, std::istream& in, std::ostream& out,
                             std::ostream& err);

}  // namespace wasched::cli
