// File: codec/convert.h
//
// Migration of workload-aware-scheduling manifests to the v1.37 API (`wasched convert`).
// Works on the document tree, not on api objects: objects it does not touch pass through with
// the same fields in the same order (comments, anchors and quoting style are not kept), and
// objects already at the target version come out with the same content.
//
//   auto r = codec::ConvertString(text, "old.yaml",
//                                 {.target = "scheduling.k8s.io/v1beta1"});
//   if (!r) { for (auto& e : r.error()) std::cerr << "error: " << e.ToString() << "\n"; }
//   for (auto& i : r->issues) std::cerr << "warning: " << i.ToString() << "\n";
//   std::cout << r->text;
//
// What is converted (types: kubernetes/api scheduling/v1alpha1/types.go, release-1.35;
// scheduling/v1alpha2/types.go, release-1.36; v1alpha3 and v1beta1 per the v1.37 spec §1-2):
// - scheduling.k8s.io/v1alpha1 Workload (1.35): `spec.podGroups[] {name, policy{basic|gang}}` →
//   `spec.podGroupTemplates[] {name, schedulingPolicy{basic|gang}}`; `controllerRef` kept.
// - Pod `spec.workloadRef {name, podGroup, podGroupReplicaKey}` (1.35; also in the pod templates
//   of Deployment, StatefulSet, DaemonSet, ReplicaSet, ReplicationController, PodTemplate, Job,
//   CronJob and JobSet) → `spec.schedulingGroup.podGroupName`, plus one generated PodGroup per
//   (namespace, workload, podGroup, replicaKey), named `<workload>-<podGroup>` and
//   `<workload>-<podGroup>-<replicaKey>` when the key is set, with `spec.workloadRef
//   {workloadName, templateName}`, the template's scheduling fields copied, and the pods'
//   common `priorityClassName` / `priority` (1.37 requires one priority per group). It follows
//   the Workload it comes from (in the stream, or in the same `List`).
// - scheduling.k8s.io/v1alpha2 Workload and PodGroup (1.36): `disruptionMode: Pod|PodGroup` →
//   `{single: {}}` / `{all: {}}`; PodGroup `spec.podGroupTemplateRef.workload {workloadName,
//   podGroupTemplateName}` → `spec.workloadRef {workloadName, templateName}`; condition type
//   `PodGroupScheduled` → `PodGroupInitiallyScheduled`.
// - v1alpha3 ↔ v1beta1 Workload and PodGroup (field-identical): apiVersion only.
//   CompositePodGroup exists only in v1alpha3: with target v1beta1 it stays v1alpha3 (reported).
// - `List` and typed lists (`WorkloadList`, …): items are converted in place.
// - Other gang schedulers' objects (codec/convert_gang.h): scheduler-plugins coscheduling and
//   Volcano PodGroups, Volcano batch Jobs (→ a Workload, a CompositePodGroup, a PodGroup per task
//   and the task pods), the pods / pod templates that name their groups by label or annotation,
//   and Kueue plain pod groups (→ a generated PodGroup); every field without a native
//   equivalent is an issue naming it.
//
// Issues (ConvertIssue, exit 0): changes that cannot be made exactly — fields the source
// version does not have (dropped), required fields missing (fragments: the rest is converted),
// pods whose Workload or pod group is not in the input (the pod still points at the PodGroup
// name it implies; nothing is generated), name collisions, pods of one group that disagree on
// priority, CompositePodGroup at v1beta1.
// Errors (InputErrors, nothing converted): unreadable or malformed YAML/JSON, documents that are
// not objects or lack apiVersion/kind, and wrong types in the fields convert reads or rewrites
// (e.g. `podGroups` not a list, `disruptionMode: 3`, an unsupported `disruptionMode` value).
// Values convert only copies are not checked: `wasched validate` checks the result.
#pragma once

#include <istream>
#include <string>
#include <string_view>
#include <tl/expected.hpp>
#include <vector>

#include "api/object_meta.h"
#include "util/field_error.h"

namespace wasched::codec {

inline constexpr std::string_view kConvertTargetV1beta1 = "scheduling.k8s.io/v1beta1";
inline constexpr std::string_view kConvertTargetV1alpha3 = "scheduling.k8s.io/v1alpha3";

// ConvertFormat: `-o yaml` (documents separated by `---`) or `-o json` (one object, or a `v1`
// `List` of all objects when there are several; an empty `List` when there are none).
enum class ConvertFormat { kYaml, kJson };

// ConvertOptions: `target` is kConvertTargetV1beta1 or kConvertTargetV1alpha3.
struct ConvertOptions {
  std::string target{kConvertTargetV1beta1};
  ConvertFormat format = ConvertFormat::kYaml;
};

// ConvertIssue: one change convert could not make exactly. ToString():
// `<file>: document <n>: <Kind ns/name>: <field.path>: cannot convert: <reason>` (empty parts
// omitted). `field` is relative to the document (`items[2].spec.workloadRef` inside a List).
struct ConvertIssue {
  api::SourceRef source;
  std::string object;
  std::string field;
  std::string reason;

  [[nodiscard]] std::string ToString() const;
};

// ConvertResult: the converted stream and what could not be converted, in input order.
// `objects` counts objects written (List items included, Lists themselves not), `converted`
// those convert changed, `generated` the PodGroups it added.
struct ConvertResult {
  std::string text;
  std::vector<ConvertIssue> issues;
  std::vector<std::string> warnings;  // about paths (e.g. a folder without manifests)
  int objects = 0;
  int converted = 0;
  int generated = 0;
};

// IsConvertTarget: `api_version` is one convert can produce.
[[nodiscard]] bool IsConvertTarget(std::string_view api_version);

// ConvertPaths: reads every path (files, folders — every *.yaml, *.yml, *.json inside, sorted —
// and "-" for `stdin_stream`) as one input, so pods and Workloads may sit in different files, and
// converts it. Errors as described above; on error there is no result. O(input size).
[[nodiscard]] tl::expected<ConvertResult, InputErrors> ConvertPaths(
    const std::vector<std::string>& paths, std::istream& stdin_stream,
    const ConvertOptions& options);

// ConvertString: converts one in-memory stream; `file` names it in errors and issues.
[[nodiscard]] tl::expected<ConvertResult, InputErrors> ConvertString(std::string_view text,
                                                                     const std::string& file,
                                                                     const ConvertOptions& options);

}  // namespace wasched::codec
