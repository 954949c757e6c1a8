// File: cli/schedule_html.h
//
// `wasched schedule -o html`: the result of a schedule run as one self-contained page (inline
// CSS and SVG, no scripts, no external resources; deterministic bytes), a picture instead of a
// long table:
//   - a legend: one colour per PodGroup (CompositePodGroups listed as their tree's parents),
//     with its scheduled count and condition;
//   - the node map: zones (label topology.kubernetes.io/zone) → racks (the rack label, see
//     TopologyKeys) → nodes; nodes without either label sit in one "unlabelled" block. On each
//     node a square per pod, in its group's colour: bound by this run (solid), already running
//     (pale), evicted by this run (crossed out; the tooltip names the preemptor and why);
//   - pending groups (and pending pods without a group) with their reason and message;
//   - the evictions as a table (victim, node, preemptor, reason).
// Every name, label value and message from the input is escaped (control characters made
// visible as by EscapeForTerminal, then HTML-escaped).
//
//   std::string page = FormatScheduleHtml(objects, result);  // objects: as FormatScheduleTable
#pragma once

#include <string>

#include "api/object_set.h"
#include "sched/schedule_result.h"

namespace wasched::cli {

// kZoneLabel: the well-known zone label the map groups nodes by first.
inline constexpr const char* kZoneLabel = "topology.kubernetes.io/zone";

// TopologyKeys: the node label keys the map groups by: `zone` and `rack` ("" when no node has
// such a label).
struct TopologyKeys {
  std::string zone;
  std::string rack;
};

// ChooseTopologyKeys: the zone key is kZoneLabel when some node has it, else the key containing
// "zone" on most nodes. The rack key is the schedulingConstraints.topology key of a PodGroup /
// CompositePodGroup (input or generated) other than the zone key and kubernetes.io/hostname that
// is on most nodes, else the node label key containing "rack" on most nodes (e.g.
// topology.example.com/rack, topology.kubernetes.io/rack, topology.wasched.io/rack); ties go to
// the smaller key. O(nodes × labels + groups).
[[nodiscard]] TopologyKeys ChooseTopologyKeys(const api::ObjectSet& objects,
                                              const sched::ScheduleResult& result);

// GroupColour: the colour of the `index`-th PodGroup of the result (CSS `hsl(H,70%,42%)`, hues
// a golden angle apart, so neighbours differ). Deterministic.
[[nodiscard]] std::string GroupColour(size_t index);

// FormatScheduleHtml: the page described above for `result` of scheduling `objects` (the objects
// the scheduler saw, plus result.generated). Ends with a newline. O(pods · log pods + nodes ·
// log nodes + groups).
[[nodiscard]] std::string FormatScheduleHtml(const api::ObjectSet& objects,
                                             const sched::ScheduleResult& result);

}  // namespace wasched::cli
