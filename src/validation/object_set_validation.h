// File: validation/object_set_validation.h
//
// What an input must pass before wasched schedules it: the API validation of every object
// (validation/api_validation.h: create, or update with `--old`) plus the pre-scheduling checks —
// Node and Pod core/v1 fields (metadata and labels, taints, containers and their resources,
// tolerations, nodeSelector, schedulerName, node affinity shapes: validation/core_validation.h),
// non-negative amounts, PriorityClass rules (reserved names, one global default), Priority
// admission (an explicit priority must match the class: validation/priority_admission.h),
// references between objects (a pod's PodGroup and PriorityClass, a group's PriorityClass exist)
// and duplicate names, and the int64 accounting limit (validation/accounting_validation.h). One
// report, in input order, with upstream's field paths, types and messages (field.Error).
//
// Warnings are what the input may hold but a user should know: today a running pod whose
// spec.nodeName names a Node that is not in the input (a snapshot taken after the node was
// deleted) — the scheduler counts its requests on no node.
//
//   InputErrors warnings;
//   InputErrors errors = validation::ValidateForSchedule(objects, gates, &warnings);
//   for (const InputError& w : warnings) err << "warning: " << w.ToString() << '\n';
//   for (const InputError& e : errors) err << "error: " << e.ToString() << '\n';
#pragma once

#include "api/object_set.h"
#include "util/feature_gates.h"
#include "util/field_error.h"

namespace wasched::validation {

// ValidateForSchedule: ValidateCreate(objects, gates) and the pre-scheduling checks; every error
// found (empty = valid), in input order. The warnings go to `warnings` (input order) when it is
// given. O(objects · (fields + log objects)).
[[nodiscard]] InputErrors ValidateForSchedule(const api::ObjectSet& objects,
                                              const FeatureGates& gates,
                                              InputErrors* warnings = nullptr);

// ValidateForSchedule: the same with every gate on (the defaults), warnings dropped.
[[nodiscard]] InputErrors ValidateForSchedule(const api::ObjectSet& objects);

// ValidateUpdateForSchedule: ValidateUpdate(old, updated, gates) and the pre-scheduling checks
// of `updated` (`validate --old`); warnings as ValidateForSchedule.
[[nodiscard]] InputErrors ValidateUpdateForSchedule(const api::ObjectSet& old,
                                                    const api::ObjectSet& updated,
                                                    const FeatureGates& gates,
                                                    InputErrors* warnings = nullptr);

// CheckScheduleInput: only the pre-scheduling checks (no API validation). O(objects · log).
[[nodiscard]] InputErrors CheckScheduleInput(const api::ObjectSet& objects,
                                             InputErrors* warnings = nullptr);

}  // namespace wasched::validation
