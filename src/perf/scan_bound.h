// File: perf/scan_bound.h
//
// The same-run yardsticks every benchmark shape is compared with (design.md "Performance
// targets": "each benchmark also times a plain scan over the node arrays in the same run"):
//   - the scan bound: one tight pass over flat int64 arrays of free cpu / memory / pod slots
//     (fit check + a LeastAllocated-style integer score, best node kept) — what filtering and
//     scoring every node once per pod costs with no framework at all;
//   - the naive baseline: pod-at-a-time scheduling with that scan, assuming each pod into the
//     arrays (kube-scheduler's shape of work, without its Go overheads): no equivalence
//     classes, no indexes, no group semantics, no topology, no preemption.
#pragma once

#include <cstdint>
#include <vector>

#include "api/object_set.h"

namespace wasched::perf {

// NodeArrays: free cpu (milli-CPU), memory (bytes) and pod slots of every node, plus capacities.
struct NodeArrays {
  std::vector<int64_t> cpu_free, memory_free, pods_free, cpu_cap, memory_cap;
};

// ToArrays: the arrays for `nodes` (missing resources count as 0), minus the requests of pods
// already bound (spec.nodeName) in `pods` when given. O(nodes + pods) with a name index.
[[nodiscard]] NodeArrays ToArrays(const std::vector<api::Node>& nodes, const std::vector<api::Pod>* pods = nullptr);

// ScanOnce: one pass for a pod requesting `cpu` milli-CPU and `memory` bytes; the index of the
// best-scoring node that fits, or -1. O(nodes), no allocation.
[[nodiscard]] int ScanOnce(const NodeArrays& a, int64_t cpu, int64_t memory);

// MeasureScanSeconds: seconds for one ScanOnce over `a`, the best of 5 batches of 200 scans
// (best-of: the bound should be the fastest the hardware does).
[[nodiscard]] double MeasureScanSeconds(const NodeArrays& a, int64_t cpu, int64_t memory);

// NaiveSchedule: the naive baseline over `objects`: every pending pod in input order, one
// ScanOnce with its container requests (cpu, memory), assumed into the arrays on success.
// Returns the number of pods placed. O(pending pods × nodes).
[[nodiscard]] int64_t NaiveSchedule(const api::ObjectSet& objects);

}  // namespace wasched::perf
