// File: controller/jobset/names.cc
#include "controller/jobset/names.h"

#include <fmt/format.h>

#include "util/sha1.h"

namespace wasched::controller::jobset {
namespace {

constexpr size_t kMaxPodGroupNameLength = 63;
constexpr size_t kPodGroupNameHashLength = 10;

std::string Join(const std::vector<std::string>& parts, const char* sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += sep;
    out += parts[i];
  }
  return out;
}

}  // namespace

std::string JobName(const std::string& jobset, const std::string& replicated_job, int32_t index) {
  return fmt::format("{}-{}-{}", jobset, replicated_job, index);
}

std::string JobKey(const std::string& namespace_, const std::string& job_name) {
  return Sha1Hex(namespace_ + "/" + job_name);
}

std::string HashedName(const std::string& prefix, const std::string& hash) {
  std::string name = prefix + "-" + hash;
  if (name.size() <= kMaxPodGroupNameLength) return name;
  const size_t max_prefix = kMaxPodGroupNameLength - 1 - hash.size();
  return prefix.substr(0, max_prefix) + "-" + hash;
}

std::string IdentityHash(const std::string& kind, const std::string& namespace_,
                         const std::string& name) {
  return Sha1Hex(fmt::format("{}/{}/{}", kind, namespace_, name)).substr(0, kPodGroupNameHashLength);
}

std::string WorkloadName(const api::JobSet& js) {
  return HashedName(js.meta.name, IdentityHash("JobSet", js.meta.namespace_, js.meta.name));
}

std::string TopLevelTemplateName(const api::JobSet& js) { return WorkloadName(js); }

std::string PerReplicatedJobTemplateName(const api::JobSet& js, const std::string& rj) {
  return HashedName(rj, IdentityHash("ReplicatedJob", js.meta.namespace_, js.meta.name + "/" + rj));
}

std::string GroupTemplateName(const api::JobSet& js, const std::vector<std::string>& targets) {
  const std::string group = Join(targets, "-");
  return HashedName(group,
                    IdentityHash("ReplicatedJobGroup", js.meta.namespace_, js.meta.name + "/" + group));
}

std::string PerJobTemplateName(const api::JobSet& js, const std::string& rj, int32_t index) {
  return HashedName(fmt::format("{}-{}", rj, index),
                    IdentityHash("Job", js.meta.namespace_,
                                 fmt::format("{}/{}/{}", js.meta.name, rj, index)));
}

std::string PodGroupName(const std::string& jobset, const std::string& template_name) {
  std::string name = jobset + "-" + template_name;
  if (name.size() <= kMaxPodGroupNameLength) return name;
  const std::string hash = Sha1Hex(jobset + "/" + template_name).substr(0, kPodGroupNameHashLength);
  const size_t prefix_length = kMaxPodGroupNameLength - 1 - kPodGroupNameHashLength;
  return jobset.substr(0, prefix_length) + "-" + hash;
}

}  // namespace wasched::controller::jobset
