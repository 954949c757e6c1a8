// File: validation/object_set_validation.h
//
// Checks an ObjectSet before scheduling: each object's own fields (names, non-negative requests,
// policy shapes needed to schedule) and the references between objects (a pod's PodGroup and
// PriorityClass exist, node and object names are unique, at most one globalDefault
// PriorityClass). Errors use upstream's field paths and types (field.Error).
// The full v1.37 API validation (create/update, gates, ratcheting) is validation/ from issue 3 on.
#pragma once

#include "api/object_set.h"
#include "util/field_error.h"

namespace wasched::validation {

// ValidateForSchedule: every error found (empty = valid), in input order. O(objects · log objects).
[[nodiscard]] InputErrors ValidateForSchedule(const api::ObjectSet& objects);

}  // namespace wasched::validation
