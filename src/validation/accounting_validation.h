// File: validation/accounting_validation.h
//
// A wasched-only input limit (no upstream counterpart: kube-scheduler's resource.Quantity
// arithmetic does not overflow the way int64 does): the scheduler keeps every amount as an int64
// in canonical units (milli-CPU, bytes, counts) and adds requests up — per node (running and
// placed pods), per gang (PodGroupAlgorithm's aggregate need) and against allocatable. No such
// sum can overflow when, for every resource, the total of all pods' effective requests
// (api::EffectiveRequests, running and pending; Succeeded / Failed pods hold nothing) plus the
// largest allocatable of any node is at most INT64_MAX. Beyond that the API server still
// accepts the input, and the scheduler's sums saturate at the bound (NodeTable, the fit checks
// and scores use saturating adds): the caller reports these as warnings, one per resource, on
// the first pod (input order) whose request crosses the limit:
//
//   pods.yaml: document 2: Pod default/r2: spec.containers[0].resources.requests[memory]:
//     Invalid value: "7Ei": the input's total requests of memory exceed what wasched can account
//     (9.2e18); its sums saturate at that bound
//
// The `pods` resource (each pod counts 1) can only cross through a node's allocatable pods; that
// error names the node (`status.allocatable[pods]`).
#pragma once

#include "api/object_set.h"
#include "validation/error_collector.h"

namespace wasched::validation::internal {

// AppendAccountingErrors: the errors above into `out`. Sums in __int128. O(objects · resources).
void AppendAccountingErrors(const api::ObjectSet& objects, ErrorCollector* out);

}  // namespace wasched::validation::internal
