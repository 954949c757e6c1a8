// File: cli/table_output.h
//
// The `-o table` rendering of a schedule run, for people: one section per PodGroup /
// CompositePodGroup (header with scheduled/minCount and the InitiallyScheduled condition, then
// its member pods with their node or PENDING and the reason), then the pods without a group, then
// a summary line. Columns are aligned; the text is deterministic (same input, same bytes).
//
//   PodGroup training/llm-workers  scheduled 8/8 (minCount 8)  PodGroupInitiallyScheduled=True
//   Scheduled
//     training/worker-0  gpu-z1-r1-n1
//     ...
//   CompositePodGroup training/root  scheduled 2/2 (minGroupCount 2)  outcome=True Scheduled
//     PodGroup training/driver       scheduled 1/1 (minCount 1)       PodGroup…=True Scheduled
//       training/driver-0  gpu-z1-r1-n3
//   Pods without a PodGroup
//     default/notebook   PENDING  Unschedulable: 0/32 nodes are available: ...
//
//   12 bound, 1 pending
#pragma once

#include <string>

#include "api/object_set.h"
#include "sched/schedule_result.h"

namespace wasched::cli {

// ScheduleResult::notes come as `note: …` lines before the summary line.
//
// A group placed in a topology domain (GroupResult::placement) ends its header line with
// `placement <key>=<value>`, e.g. `placement topology.kubernetes.io/zone=zone-a`.
//
// Groups of a CompositePodGroup tree (GroupResult::parent) follow their parent, indented two
// spaces per level; roots and siblings keep the result's order (kind, then name).
//
// FormatScheduleTable: renders `result` of scheduling `objects` (the objects the scheduler saw:
// used to find each group's member pods and the pods that arrived running). A pending member's
// message is printed only where it differs from its group's condition message, so a 40-pod gang
// that failed for one reason shows that reason once. Ends with a newline.
// O(pods · log pods + groups).
[[nodiscard]] std::string FormatScheduleTable(const api::ObjectSet& objects,
                                              const sched::ScheduleResult& result);

// FormatScheduleSummary: `schedule --summary` (issue 20 item 12), for long outputs: one line
// per group in the table's tree order, no per-pod lines — the group, its scheduled count, how
// its member pods fared ("38 bound, 2 pending[, R running][, E evicted]"; "-" for a
// CompositePodGroup, whose children have their own lines), its topology domain ("placement
// key=value" or "-") and its condition with the message (the reason); then one line for the pods
// without a group, the notes and the summary line. Columns aligned, deterministic, ends with a
// newline:
//
//   PodGroup ml/a  scheduled 8/8 (minCount 8)  8 bound, 0 pending  placement zone=z1  PodGroupInitiallyScheduled=True Scheduled
//   PodGroup ml/b  scheduled 0/8 (minCount 8)  0 bound, 8 pending  -                  PodGroupInitiallyScheduled=False Unschedulable: Pod group ml/b: 3 of 8 pods fit, …
//
//   8 bound, 8 pending
// O(pods · log pods + groups).
[[nodiscard]] std::string FormatScheduleSummary(const api::ObjectSet& objects,
                                                const sched::ScheduleResult& result);

}  // namespace wasched::cli
