// File: validation/object_set_validation.h
//
// What an input must pass before wasched schedules it: the API validation of every object
// (validation/api_validation.h: create, or update with `--old`) plus the pre-scheduling checks —
// Node, Pod and PriorityClass fields (names, non-negative amounts, node affinity shapes, reserved
// PriorityClass names, one global default), references between objects (a pod's node, PodGroup
// and PriorityClass, a group's PriorityClass exist) and duplicate names. One report, in input
// order, with upstream's field paths, types and messages (field.Error).
//
//   InputErrors errors = validation::ValidateForSchedule(objects, gates);
//   for (const InputError& e : errors) err << "error: " << e.ToString() << '\n';
#pragma once

#include "api/object_set.h"
#include "util/feature_gates.h"
#include "util/field_error.h"

namespace wasched::validation {

// ValidateForSchedule: ValidateCreate(objects, gates) and the pre-scheduling checks; every error
// found (empty = valid), in input order. O(objects · (fields + log objects)).
[[nodiscard]] InputErrors ValidateForSchedule(const api::ObjectSet& objects,
                                              const FeatureGates& gates);

// ValidateForSchedule: the same with every gate on (the defaults).
[[nodiscard]] InputErrors ValidateForSchedule(const api::ObjectSet& objects);

// ValidateUpdateForSchedule: ValidateUpdate(old, updated, gates) and the pre-scheduling checks
// of `updated` (`validate --old`).
[[nodiscard]] InputErrors ValidateUpdateForSchedule(const api::ObjectSet& old,
                                                    const api::ObjectSet& updated,
                                                    const FeatureGates& gates);

// CheckScheduleInput: only the pre-scheduling checks (no API validation). O(objects · log).
[[nodiscard]] InputErrors CheckScheduleInput(const api::ObjectSet& objects);

}  // namespace wasched::validation
