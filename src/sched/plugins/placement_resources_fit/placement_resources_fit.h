// File: sched/plugins/placement_resources_fit/placement_resources_fit.h
//
// NodeResourcesFit as a PlacementScore plugin (KEP-5732: "NodeResourcesFit (existing) implements
// PlacementScorePlugin. Scores Placements to maximize utilization (tightest fit)"; the
// kubernetes.io TAS page: it "scores placements based on the allocation ratio across all nodes
// within the placement ... uses the MostAllocated strategy", default weight 1, resource weights
// as the pod-by-pod plugin: cpu 1, memory 1).
//
// Score = Σ_r w_r · (100 · requested_r / allocatable_r) / Σ_r w_r over r ∈ {cpu, memory}, where
// requested (upstream's non-zero requests) and allocatable are summed over the placement's nodes
// with the trial assignment assumed. Higher = fuller placement = tighter bin-packing. A resource
// no node of the placement offers is left out. The caller sums the nodes (TreeAlgorithm does it
// in the same pass as its capacity pruning). O(1).
#pragma once

#include <cstdint>

namespace wasched::sched::plugins {

inline constexpr int64_t kPlacementResourcesFitWeight = 1;

// MostAllocatedScore: the score in [0, 100] from a placement's summed allocatable and requested
// cpu (milli-CPU) and memory (bytes).
[[nodiscard]] int64_t MostAllocatedScore(__int128 alloc_cpu, __int128 req_cpu, __int128 alloc_mem,
                                         __int128 req_mem);

}  // namespace wasched::sched::plugins
