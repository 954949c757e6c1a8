// File: codec/decode_lws.cc
//
// LeaderWorkerSet decoder (see decode_lws.h). Defaults: pkg/webhooks/leaderworkerset_webhook.go
// Default (replicas 1, size 1, startupPolicy LeaderCreated, networkConfig.subdomainPolicy Shared,
// subGroupPolicy.type LeaderWorker).
#include "codec/decode_lws.h"

#include <string>
#include <string_view>

#include "codec/decode_batch.h"
#include "codec/decode_common.h"
#include "codec/decode_scheduling.h"

namespace wasched::codec::internal {
namespace {

constexpr std::string_view kIgnoredLwsSpecFields[] = {"rolloutStrategy"};
constexpr std::string_view kIgnoredTemplateFields[] = {"persistentVolumeClaimRetentionPolicy"};

void DecodeScheduling(const Reader& r, std::optional<api::LeaderWorkerSetScheduling>* out) {
  if (r.IsNull()) return;
  if (!r.ExpectKind(ValueKind::kMap)) return;
  api::LeaderWorkerSetScheduling& s = out->emplace();
  r.ForEachField([&](std::string_view key, const Reader& f) {
    if (key == "schedulingPolicy") {
      if (!f.IsNull()) DecodePodGroupPolicy(f, &s.scheduling_policy.emplace());
    } else if (key == "schedulingConstraints") {
      DecodeSchedulingConstraints(f, &s.scheduling_constraints);
    } else if (key == "disruptionMode") {
      DecodeDisruptionMode(f, &s.disruption_mode);
    } else if (key == "resourceClaims") {
      DecodeResourceClaims(f, &s.resource_claims);
    } else {
      return false;
    }
    return true;
  });
}

void DecodeLeaderWorkerTemplate(const Reader& r, api::LeaderWorkerSet* out) {
  r.ForEachField([&](std::string_view key, const Reader& f) {
    std::string ignored_restart_policy;
    if (key == "leaderTemplate") {
      if (!f.IsNull()) DecodePodTemplate(f, &out->leader_template.emplace(), &ignored_restart_policy);
    } else if (key == "workerTemplate") {
      DecodePodTemplate(f, &out->worker_template, &ignored_restart_policy);
    } else if (key == "size") {
      f.Read(&out->size);
    } else if (key == "restartPolicy") {
      f.Read(&out->restart_policy);
    } else if (key == "subGroupPolicy") {
      if (f.IsNull()) return true;
      api::LwsSubGroupPolicy& p = out->sub_group_policy.emplace();
      f.ForEachField([&](std::string_view pkey, const Reader& pf) {
        if (pkey == "type") pf.Read(&p.type);
        else if (pkey == "subGroupSize") pf.Read(&p.sub_group_size);
        else return false;
        return true;
      });
    } else if (key == "volumeClaimTemplates") {
      f.ForEachItem([&](size_t, const Reader&) { ++out->volume_claim_templates; });
    } else {
      return IsOneOf(key, kIgnoredTemplateFields);
    }
    return true;
  });
}

}  // namespace

void DecodeLeaderWorkerSet(const Reader& root, api::LeaderWorkerSet* out) {
  DecodeTopLevel(root, /*namespaced=*/true, &out->meta, [&](std::string_view key, const Reader& f) {
    if (key == "spec") {
      f.ForEachField([&](std::string_view skey, const Reader& sf) {
        if (skey == "replicas") {
          sf.Read(&out->replicas);
        } else if (skey == "leaderWorkerTemplate") {
          DecodeLeaderWorkerTemplate(sf, out);
        } else if (skey == "startupPolicy") {
          std::string policy;
          sf.Read(&policy);
          if (!policy.empty()) out->startup_policy = policy;
        } else if (skey == "networkConfig") {
          sf.ForEachField([&](std::string_view nkey, const Reader& nf) {
            if (nkey != "subdomainPolicy") return false;
            std::string policy;
            nf.Read(&policy);
            if (!policy.empty()) out->subdomain_policy = policy;
            return true;
          });
        } else if (skey == "scheduling") {
          DecodeScheduling(sf, &out->scheduling);
        } else {
          return IsOneOf(skey, kIgnoredLwsSpecFields);
        }
        return true;
      });
    } else if (key == "status") {
      return true;  // not read
    } else {
      return false;
    }
    return true;
  });
}

}  // namespace wasched::codec::internal
