// File: validation/error_collector.h
//
// ErrorCollector (internal to validation/): gathers the FieldErrors of many objects of one
// ObjectSet and returns them as located InputErrors in input order — file (in the order the
// files were read), document, then kind and position for the objects of one List document, then
// the order found. Shared by the API validation and the pre-scheduling checks so that one report
// interleaves both in input order.
//
//   ErrorCollector c;
//   c.AddAll(w.meta, ObjectLabel("Workload", w.meta), kRankWorkload, i, std::move(errs));
//   InputErrors report = std::move(c).Finish(objects);
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "api/object_set.h"
#include "util/field_error.h"
#include "validation/field_errors.h"

namespace wasched::validation::internal {

// KindRank: the order of kinds for errors of objects in the same document (a List).
enum KindRank : int {
  kRankPriorityClass,
  kRankNode,
  kRankWorkload,
  kRankCompositePodGroup,
  kRankPodGroup,
  kRankPod,
  kRankJob,
  kRankPodDisruptionBudget,
  kRankDeviceClass,
  kRankResourceSlice,
  kRankResourceClaim,
  kRankResourceClaimTemplate,
  kRankDeployment,
  kRankReplicaSet,
  kRankStatefulSet,
  kRankJobSet,
  kRankLeaderWorkerSet,
};

// ObjectLabel: "Kind ns/name" ("Node name" for cluster-scoped kinds; "Kind" when unnamed).
[[nodiscard]] std::string ObjectLabel(std::string_view kind, const api::ObjectMeta& meta);

class ErrorCollector {
 public:
  // Add: one error of the object `meta` (the `index`-th object of kind `rank`), labelled `object`.
  void Add(const api::ObjectMeta& meta, const std::string& object, KindRank rank,
           std::size_t index, FieldError error);
  // AddAll: every error of `errors`, in order, for one object.
  void AddAll(const api::ObjectMeta& meta, const std::string& object, KindRank rank,
              std::size_t index, ErrorList errors);

  // Finish: the errors sorted into the input order of `objects` (the set they came from).
  // O(E log E + objects).
  [[nodiscard]] InputErrors Finish(const api::ObjectSet& objects) &&;

 private:
  struct Entry {
    int document = 0;
    int kind_rank = 0;
    std::size_t index = 0;
    std::size_t seq = 0;
    InputError error;
  };
  std::vector<Entry> entries_;
};

}  // namespace wasched::validation::internal
