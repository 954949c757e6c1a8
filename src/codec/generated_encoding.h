// File: codec/generated_encoding.h
//
// The objects wasched's controllers create (Workloads, CompositePodGroups, PodGroups, Jobs,
// ReplicaSets, StatefulSets, Pods of an api::ObjectSet) as Kubernetes manifests: for `wasched compile` (a `v1` `List` in JSON, or
// YAML documents separated by `---`) and for the `generated` list of the ScheduleResult
// (design.md "schedule JSON output"). Fields are written in the API's field names and order of
// the types; unset optional fields are left out. The codec reads the text back into equal
// objects (for the fields wasched models; Pod fields it does not model, e.g. container images,
// are not there to write).
//
//   std::string yaml = codec::EncodeObjectsYaml(run.generated);
//   std::string json = codec::EncodeObjectsJsonList(run.generated);
#pragma once

#include <string>
#include <vector>

#include "api/object_set.h"
#include "codec/yaml_tree.h"

namespace YAML {
class Emitter;
}  // namespace YAML

namespace wasched::codec {

// EncodeObjectsYaml: every Workload, CompositePodGroup, PodGroup, Job, ReplicaSet, StatefulSet
// and Pod of `objects` (in that order, each kind in its order), one YAML document each, separated by `---`; "" when there
// are none. O(size).
[[nodiscard]] std::string EncodeObjectsYaml(const api::ObjectSet& objects);

// EncodeObjectsJsonList: the same objects as `{"apiVersion": "v1", "kind": "List", "items":
// [...]}` (2-space indent, trailing newline). O(size).
[[nodiscard]] std::string EncodeObjectsJsonList(const api::ObjectSet& objects);

namespace internal {

// ObjectTrees: the manifests of EncodeObjectsYaml as trees, in the same order. O(size).
[[nodiscard]] std::vector<YamlTree> ObjectTrees(const api::ObjectSet& objects);

// GeneratedJsonText: the `generated` array of the ScheduleResult (JSON text of
// ObjectTrees(objects)). O(size).
[[nodiscard]] std::string GeneratedJsonText(const api::ObjectSet& objects);

// EmitGeneratedYaml: `generated: [...]` into a block map being emitted (`[]` when empty),
// every string double-quoted as the rest of the ScheduleResult YAML. O(size).
void EmitGeneratedYaml(YAML::Emitter& out, const api::ObjectSet& objects);

}  // namespace internal
}  // namespace wasched::codec
