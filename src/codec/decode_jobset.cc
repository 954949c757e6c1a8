// File: codec/decode_jobset.cc
//
// JobSet decoder (see decode_jobset.h). Defaults: CRD `+kubebuilder:default` markers of
// ReplicatedJob (replicas 1, groupName "default") and the mutating webhook
// (pkg/webhooks/jobset_webhook.go Default: completionMode Indexed, restartPolicy OnFailure,
// network.enableDNSHostnames true).
#include "codec/decode_jobset.h"

#include <string>
#include <string_view>

#include "codec/decode_batch.h"
#include "codec/decode_common.h"
#include "codec/decode_scheduling.h"

namespace wasched::codec::internal {
namespace {

constexpr std::string_view kIgnoredJobSetSpecFields[] = {
    "successPolicy", "failurePolicy", "managedBy", "ttlSecondsAfterFinished",
    "volumeClaimPolicies"};
constexpr std::string_view kIgnoredJobSetStatusFields[] = {
    "conditions", "restartsCountTowardsMax", "terminalState", "replicatedJobsStatus",
    "previousInPlaceRestartAttempt", "currentInPlaceRestartAttempt"};
// JobTemplateSpec metadata besides labels/annotations: legal, without effect.
constexpr std::string_view kIgnoredTemplateMetaFields[] = {
    "name", "generateName", "namespace", "uid", "creationTimestamp", "ownerReferences",
    "finalizers", "resourceVersion", "generation", "managedFields", "selfLink"};

void DecodePolicy(const Reader& f, std::optional<api::PodGroupSchedulingPolicy>* out) {
  if (f.IsNull()) return;
  DecodePodGroupPolicy(f, &out->emplace());
}

// DecodeGroupBlocks: the four blocks ReplicatedJobScheduling / JobScheduling share.
template <typename T>
bool DecodeGroupBlock(std::string_view key, const Reader& f, T* out) {
  if (key == "schedulingPolicy") DecodePolicy(f, &out->scheduling_policy);
  else if (key == "schedulingConstraints") DecodeSchedulingConstraints(f, &out->scheduling_constraints);
  else if (key == "disruptionMode") DecodeDisruptionMode(f, &out->disruption_mode);
  else if (key == "resourceClaims") DecodeResourceClaims(f, &out->resource_claims);
  else return false;
  return true;
}

void DecodeScheduling(const Reader& r, std::optional<api::JobSetScheduling>* out) {
  if (r.IsNull()) return;
  if (!r.ExpectKind(ValueKind::kMap)) return;
  api::JobSetScheduling& s = out->emplace();
  r.ForEachField([&](std::string_view key, const Reader& f) {
    if (key == "schedulingPolicy") DecodePolicy(f, &s.scheduling_policy);
    else if (key == "schedulingConstraints") DecodeSchedulingConstraints(f, &s.scheduling_constraints);
    else if (key == "disruptionMode") DecodeDisruptionMode(f, &s.disruption_mode);
    else if (key == "replicatedJobs") {
      f.ForEachItem([&](size_t, const Reader& item) {
        api::ReplicatedJobScheduling& rj = s.replicated_jobs.emplace_back();
        item.ForEachField([&](std::string_view rkey, const Reader& rf) {
          if (rkey == "targetReplicatedJobs") {
            rf.Read(&rj.target_replicated_jobs);
            return true;
          }
          if (rkey == "job") {
            if (rf.IsNull()) return true;
            api::JobSetJobScheduling& job = rj.job.emplace();
            rf.ForEachField([&](std::string_view jkey, const Reader& jf) {
              return DecodeGroupBlock(jkey, jf, &job);
            });
            return true;
          }
          return DecodeGroupBlock(rkey, rf, &rj);
        });
      });
    } else {
      return false;
    }
    return true;
  });
}

void DecodeReplicatedJob(const Reader& r, api::ReplicatedJob* rj) {
  r.ForEachField([&](std::string_view key, const Reader& f) {
    if (key == "name") {
      f.Read(&rj->name);
    } else if (key == "groupName") {
      std::string group;
      f.Read(&group);
      if (!group.empty()) rj->group_name = std::move(group);
    } else if (key == "replicas") {
      f.Read(&rj->replicas);
    } else if (key == "template") {
      f.ForEachField([&](std::string_view tkey, const Reader& tf) {
        if (tkey == "metadata") {
          tf.ForEachField([&](std::string_view mkey, const Reader& mf) {
            if (mkey == "labels") mf.Read(&rj->job_template.meta.labels);
            else if (mkey == "annotations") mf.Read(&rj->job_template.meta.annotations);
            else return IsOneOf(mkey, kIgnoredTemplateMetaFields);
            return true;
          });
        } else if (tkey == "spec") {
          DecodeJobSpec(tf, &rj->job_template);
        } else {
          return false;
        }
        return true;
      });
    } else if (key == "dependsOn") {
      f.ForEachItem([&](size_t, const Reader& item) {
        api::JobSetDependsOn& d = rj->depends_on.emplace_back();
        item.ForEachField([&](std::string_view dkey, const Reader& df) {
          if (dkey == "name") df.Read(&d.name);
          else if (dkey == "status") df.Read(&d.status);
          else return false;
          return true;
        });
      });
    } else {
      return false;
    }
    return true;
  });
  // JobSet webhook defaults.
  api::Job& job = rj->job_template;
  if (!job.completion_mode) job.completion_mode = api::CompletionMode::kIndexed;
  if (job.template_restart_policy.empty()) job.template_restart_policy = "OnFailure";
}

}  // namespace

void DecodeJobSet(const Reader& root, api::JobSet* out) {
  DecodeTopLevel(root, /*namespaced=*/true, &out->meta, [&](std::string_view key, const Reader& f) {
    if (key == "spec") {
      f.ForEachField([&](std::string_view skey, const Reader& sf) {
        if (skey == "replicatedJobs") {
          sf.ForEachItem([&](size_t, const Reader& item) {
            DecodeReplicatedJob(item, &out->replicated_jobs.emplace_back());
          });
        } else if (skey == "startupPolicy") {
          sf.ForEachField([&](std::string_view pkey, const Reader& pf) {
            if (pkey != "startupPolicyOrder") return false;
            std::string order;
            pf.Read(&order);
            out->startup_in_order = order == "InOrder";
            return true;
          });
        } else if (skey == "suspend") {
          sf.Read(&out->suspend);
        } else if (skey == "coordinator") {
          if (sf.IsNull()) return true;
          api::JobSetCoordinator& c = out->coordinator.emplace();
          sf.ForEachField([&](std::string_view ckey, const Reader& cf) {
            if (ckey == "replicatedJob") cf.Read(&c.replicated_job);
            else if (ckey == "jobIndex") cf.Read(&c.job_index);
            else if (ckey == "podIndex") cf.Read(&c.pod_index);
            else return false;
            return true;
          });
        } else if (skey == "network") {
          sf.ForEachField([&](std::string_view nkey, const Reader& nf) {
            if (nkey == "enableDNSHostnames") {
              if (!nf.IsNull()) nf.Read(&out->enable_dns_hostnames);
            } else if (nkey == "subdomain") {
              nf.Read(&out->subdomain);
            } else {
              return nkey == "publishNotReadyAddresses";
            }
            return true;
          });
        } else if (skey == "scheduling") {
          DecodeScheduling(sf, &out->scheduling);
        } else {
          return IsOneOf(skey, kIgnoredJobSetSpecFields);
        }
        return true;
      });
    } else if (key == "status") {
      f.ForEachField([&](std::string_view tkey, const Reader& tf) {
        if (tkey == "restarts") tf.Read(&out->restarts);
        else return IsOneOf(tkey, kIgnoredJobSetStatusFields);
        return true;
      });
    } else {
      return false;
    }
    return true;
  });
}

}  // namespace wasched::codec::internal
