// File: controller/template_hash.h
//
// The hash controllers put in names and labels of what they derive from a pod template:
// Deployment's `pod-template-hash` (ReplicaSet name `<deployment>-<hash>`), StatefulSet's
// `controller-revision-hash` and LeaderWorkerSet's `template-revision-hash`. Upstream hashes
// the whole Go object (pkg/controller ComputeHash: fnv32a of go-spew's dump of the
// PodTemplateSpec plus collisionCount; ControllerRevision: fnv32 of the JSON patch), fields
// wasched does not keep (images, commands, env) included, so the value cannot be reproduced:
// this is a deterministic stand-in over the fields wasched models, in upstream's shape
// (rand.SafeEncodeString of the decimal 32-bit hash: up to 10 characters of
// "bcdfghjklmnpqrstvwxz2456789"). Same template, same hash. Pure; O(template size).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "api/pod.h"

namespace wasched::controller {

// PodTemplateHash: the stand-in hash of `pod_template` (labels, annotations, containers,
// scheduling fields) and `salt` (a collisionCount, a LeaderWorkerSet's other fields).
[[nodiscard]] std::string PodTemplateHash(const api::Pod& pod_template, std::string_view salt = {});

}  // namespace wasched::controller
