// File: codec/decode_apps.cc
//
// apps/v1 decoders (see decode_apps.h).
#include "codec/decode_apps.h"

#include <string>
#include <string_view>

#include "codec/decode_batch.h"
#include "codec/decode_common.h"
#include "codec/decode_policy.h"

namespace wasched::codec::internal {
namespace {

constexpr std::string_view kIgnoredDeploymentSpecFields[] = {
    "strategy", "minReadySeconds", "revisionHistoryLimit", "progressDeadlineSeconds"};
constexpr std::string_view kIgnoredReplicaSetSpecFields[] = {"minReadySeconds"};
constexpr std::string_view kIgnoredStatefulSetSpecFields[] = {
    "updateStrategy", "revisionHistoryLimit", "minReadySeconds",
    "persistentVolumeClaimRetentionPolicy"};
// status fields nobody reads (the controllers count the pods they find).
constexpr std::string_view kIgnoredStatusFields[] = {
    "observedGeneration", "replicas", "updatedReplicas", "readyReplicas", "availableReplicas",
    "unavailableReplicas", "terminatingReplicas", "conditions", "fullyLabeledReplicas",
    "currentReplicas", "currentRevision", "updateRevision"};

void DecodeSelector(const Reader& f, std::optional<api::LabelSelector>* out) {
  if (f.IsNull()) return;
  DecodeLabelSelector(f, &out->emplace());
}

void DecodeTemplate(const Reader& f, api::Pod* pod) {
  std::string restart_policy;  // Always is the only value a pod template of these kinds allows
  DecodePodTemplate(f, pod, &restart_policy);
}

void DecodeStatus(const Reader& r, std::optional<int32_t>* collision_count) {
  r.ForEachField([&](std::string_view key, const Reader& f) {
    if (key == "collisionCount" && collision_count != nullptr) {
      f.Read(collision_count);
      return true;
    }
    return IsOneOf(key, kIgnoredStatusFields) || key == "collisionCount";
  });
}

}  // namespace

void DecodeDeployment(const Reader& root, api::Deployment* out) {
  DecodeTopLevel(root, /*namespaced=*/true, &out->meta, [&](std::string_view key, const Reader& f) {
    if (key == "spec") {
      f.ForEachField([&](std::string_view skey, const Reader& sf) {
        if (skey == "replicas") sf.Read(&out->replicas);
        else if (skey == "selector") DecodeSelector(sf, &out->selector);
        else if (skey == "template") DecodeTemplate(sf, &out->pod_template);
        else if (skey == "paused") sf.Read(&out->paused);
        else return IsOneOf(skey, kIgnoredDeploymentSpecFields);
        return true;
      });
    } else if (key == "status") {
      DecodeStatus(f, &out->collision_count);
    } else {
      return false;
    }
    return true;
  });
}

void DecodeReplicaSet(const Reader& root, api::ReplicaSet* out) {
  DecodeTopLevel(root, /*namespaced=*/true, &out->meta, [&](std::string_view key, const Reader& f) {
    if (key == "spec") {
      f.ForEachField([&](std::string_view skey, const Reader& sf) {
        if (skey == "replicas") sf.Read(&out->replicas);
        else if (skey == "selector") DecodeSelector(sf, &out->selector);
        else if (skey == "template") DecodeTemplate(sf, &out->pod_template);
        else return IsOneOf(skey, kIgnoredReplicaSetSpecFields);
        return true;
      });
    } else if (key == "status") {
      DecodeStatus(f, nullptr);
    } else {
      return false;
    }
    return true;
  });
}

void DecodeStatefulSet(const Reader& root, api::StatefulSet* out) {
  DecodeTopLevel(root, /*namespaced=*/true, &out->meta, [&](std::string_view key, const Reader& f) {
    if (key == "spec") {
      f.ForEachField([&](std::string_view skey, const Reader& sf) {
        if (skey == "replicas") {
          sf.Read(&out->replicas);
        } else if (skey == "selector") {
          DecodeSelector(sf, &out->selector);
        } else if (skey == "template") {
          DecodeTemplate(sf, &out->pod_template);
        } else if (skey == "serviceName") {
          sf.Read(&out->service_name);
        } else if (skey == "podManagementPolicy") {
          std::string policy;
          sf.Read(&policy);
          if (policy == "Parallel") {
            out->pod_management_policy = api::PodManagementPolicy::kParallel;
          } else if (!policy.empty() && policy != "OrderedReady") {
            sf.Error(FieldErrorType::kNotSupported, QuoteValue(policy),
                     "supported values: \"OrderedReady\", \"Parallel\"");
          }
        } else if (skey == "ordinals") {
          sf.ForEachField([&](std::string_view okey, const Reader& of) {
            if (okey != "start") return false;
            of.Read(&out->ordinals_start);
            return true;
          });
        } else if (skey == "volumeClaimTemplates") {
          // Volume binding is not modelled: counted (warned about by the controller).
          sf.ForEachItem([&](size_t, const Reader&) { ++out->volume_claim_templates; });
        } else {
          return IsOneOf(skey, kIgnoredStatefulSetSpecFields);
        }
        return true;
      });
    } else if (key == "status") {
      DecodeStatus(f, nullptr);
    } else {
      return false;
    }
    return true;
  });
}

}  // namespace wasched::codec::internal
