// File: cli/schedule_rounds.h
//
// `schedule` in rounds (issue 19): some pods exist upstream only once another pod runs — JobSet's
// and LeaderWorkerSet's exclusive placement (the followers get the leader's topology domain as a
// nodeSelector), StatefulSet OrderedReady, LeaderWorkerSet startupPolicy LeaderReady, JobSet
// startup ordering. After a scheduling round the bindings are applied to the input (the pods run
// now), the victims of preemption are deleted, the groups keep the conditions the round set;
// the controllers create the pods that were waiting (controller::ControllerManager::
// ReleaseDeferred), and the next round schedules them. The rounds' results merge into one.
//
//   ApplyRound(result, &objects);
//   ... release, schedule again ...
//   result = MergeRounds(std::move(result), std::move(next));
//
// Not modelled between rounds: replacements for evicted pods (their controllers would create
// new ones) and DRA claims the earlier round allocated (a later round does not see them as
// allocated).
#pragma once

#include "api/object_set.h"
#include "sched/schedule_result.h"

namespace wasched::cli {

// ApplyRound: the round's bindings as spec.nodeName, its evicted pods removed, its group
// conditions stored on the PodGroups / CompositePodGroups of `objects`. O(objects + result).
void ApplyRound(const sched::ScheduleResult& result, api::ObjectSet* objects);

// MergeRounds: one result for both rounds: every binding, eviction and allocation of either
// (sorted as ScheduleResult's lists are); `pending` and `groups` of the later round (a group's
// conditions from the earlier round kept where the later one has none of that type); the
// earlier round's `generated`. O(result size · log).
[[nodiscard]] sched::ScheduleResult MergeRounds(sched::ScheduleResult earlier,
                                                sched::ScheduleResult later);

}  // namespace wasched::cli
