// File: controller/job/job_pods.cc
#include "controller/job/job_pods.h"

#include <algorithm>
#include <set>
#include <unordered_set>

#include "controller/job/job_controller.h"
#include "controller/job/names.h"
#include "util/name_generation.h"

namespace wasched::controller::job {
namespace {

bool Terminal(const api::Pod& p) { return p.phase == "Succeeded" || p.phase == "Failed"; }

std::optional<int32_t> CompletionIndex(const api::Pod& p) {
  const auto it = p.meta.annotations.find(kJobCompletionIndexAnnotation);
  if (it == p.meta.annotations.end()) return std::nullopt;
  try {
    return std::stoi(it->second);
  } catch (...) {
    return std::nullopt;
  }
}

}  // namespace

api::OwnerReference JobOwnerReference(const api::Job& job) {
  return api::OwnerReference{"batch/v1", "Job", job.meta.name, job.meta.uid, true, true};
}

int32_t WantActive(const api::Job& job) {
  if (job.suspend) return 0;
  const int32_t parallelism = api::EffectiveParallelism(job);
  if (!job.completions) return job.status.succeeded > 0 ? 0 : parallelism;
  return std::max(0, std::min(parallelism, *job.completions - job.status.succeeded));
}

std::vector<api::Pod> NewJobPods(const api::Job& job, const std::vector<const api::Pod*>& existing,
                                 const std::optional<std::string>& pod_group_name,
                                 const std::unordered_set<std::string>* taken_pod_keys) {
  int32_t active = 0;
  std::set<int32_t> used_indexes;
  // Names already taken: the API server retries a generateName that collides (RetryGenerateName,
  // GA in 1.32), so a Job never gets two pods with one name; wasched re-derives the suffix.
  std::unordered_set<std::string> taken;
  for (const api::Pod* p : existing) taken.insert(p->meta.name);
  for (const api::Pod* p : existing) {
    if (Terminal(*p)) continue;
    ++active;
    if (auto i = CompletionIndex(*p)) used_indexes.insert(*i);
  }
  const int32_t want = WantActive(job) - active;
  std::vector<api::Pod> pods;
  if (want <= 0) return pods;
  const bool indexed = job.completion_mode == api::CompletionMode::kIndexed;
  const int32_t completions = job.completions.value_or(api::EffectiveParallelism(job));
  int32_t next_index = 0;
  for (int32_t ordinal = 0; ordinal < want; ++ordinal) {
    api::Pod pod = job.pod_template;
    pod.meta.namespace_ = job.meta.namespace_;
    pod.meta.source = job.meta.source;
    std::string base = job.meta.name + "-";
    if (base.size() > kMaxGeneratedNameBase) base.resize(kMaxGeneratedNameBase);
    std::optional<int32_t> index;
    if (indexed) {
      while (next_index < completions && used_indexes.count(next_index) > 0) ++next_index;
      if (next_index >= completions) break;
      index = next_index++;
      // podGenerateNameWithIndex: the job name is cut so that "-<index>-" survives.
      const std::string append = "-" + std::to_string(*index) + "-";
      base = job.meta.name + append;
      if (base.size() > kMaxGeneratedNameBase) {
        base = job.meta.name.substr(0, kMaxGeneratedNameBase - append.size()) + append;
      }
    }
    // The 5-character suffix collides with ~50% probability by ~4,500 pods (27^5 values,
    // birthday bound): on a collision the suffix is derived again from the seed plus the attempt.
    const std::string seed = job.meta.uid + "/" + std::to_string(active + ordinal);
    pod.meta.name = base + NameSuffix(seed);
    const std::string key_prefix = job.meta.namespace_ + "/";
    auto held_elsewhere = [&](const std::string& name) {
      return taken_pod_keys != nullptr && taken_pod_keys->contains(key_prefix + name);
    };
    for (int attempt = 1; held_elsewhere(pod.meta.name) || !taken.insert(pod.meta.name).second;
         ++attempt) {
      pod.meta.name = base + NameSuffix(seed + "#" + std::to_string(attempt));
    }
    pod.meta.uid = DerivedUid("Pod", pod.meta.namespace_, pod.meta.name);
    pod.meta.labels[kControllerUidLabel] = job.meta.uid;
    pod.meta.labels[kJobNameLabel] = job.meta.name;
    pod.meta.labels[kLegacyControllerUidLabel] = job.meta.uid;
    pod.meta.labels[kLegacyJobNameLabel] = job.meta.name;
    if (index) {
      pod.meta.labels[kJobCompletionIndexAnnotation] = std::to_string(*index);
      pod.meta.annotations[kJobCompletionIndexAnnotation] = std::to_string(*index);
    }
    pod.meta.owner_references = {JobOwnerReference(job)};
    if (pod_group_name) {
      pod.pod_group_name = *pod_group_name;
      pod.scheduling_group_set = true;
    }
    pod.node_name.clear();
    pod.phase.clear();
    pods.push_back(std::move(pod));
  }
  return pods;
}

}  // namespace wasched::controller::job
