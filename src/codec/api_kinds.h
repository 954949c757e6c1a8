// File: codec/api_kinds.h
//
// What the loader says about an object whose apiVersion + kind it does not decode (internal to
// codec/): a kind of a Kubernetes API that does not affect scheduling (v1 ConfigMap, Service,
// Namespace, …) is skipped with a note; everything else — a kind wasched reads written with a
// version v1.37 does not serve or wasched does not read (`scheduling.k8s.io/v1 PodGroup`,
// `batch/v2 Job`, the removed `scheduling.k8s.io/v1alpha2`), a kind's typo (`kind: pod`), an
// unknown API group or version — is an error naming what is served and what to do, unless
// `--skip-unknown-kinds` turns it into a warning.
//
//   SkippedKind s = ClassifySkippedKind("scheduling.k8s.io/v1alpha2", "PodGroup");
//   // s.verdict == kUnknown, s.field == "apiVersion",
//   // s.detail == "scheduling.k8s.io/v1alpha2 was removed in v1.37; run `wasched convert ...`"
#pragma once

#include <string>
#include <string_view>

namespace wasched::codec::internal {

// SkippedKind: the verdict on one (apiVersion, kind) the loader does not decode.
struct SkippedKind {
  enum class Verdict {
    kNote,     // a kind of a Kubernetes API that does not affect scheduling: skipped, one note
    kUnknown,  // unknown / unserved version, typo, unknown group: an error (or, skipped, a warning)
  };
  Verdict verdict = Verdict::kUnknown;
  std::string field;   // the field the error is about: "apiVersion" or "kind"
  std::string detail;  // what is wrong and what to do (kUnknown), or why it is skipped (kNote)
};

// ClassifySkippedKind: see above. Deterministic; O(number of known kinds × kind length²).
[[nodiscard]] SkippedKind ClassifySkippedKind(std::string_view api_version, std::string_view kind);

}  // namespace wasched::codec::internal
