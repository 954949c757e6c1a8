// File: codec/api_kinds.cc
//
// The tables behind ClassifySkippedKind (codec/api_kinds.h): the kinds and versions the loader
// decodes (codec/loader.cc dispatches on the same pairs) and the kinds of the Kubernetes v1.37
// APIs that do not affect scheduling.
#include "codec/api_kinds.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <vector>

namespace wasched::codec::internal {
namespace {

// ReadKind: a kind the loader decodes and the versions it decodes it in (the versions v1.37
// serves it in, except DRA's v1beta1, whose shape differs).
struct ReadKind {
  std::string_view kind;
  std::vector<std::string_view> versions;
};

const std::vector<ReadKind>& ReadKinds() {
  static const std::vector<ReadKind> kinds = {
      {"Node", {"v1"}},
      {"Pod", {"v1"}},
      {"PriorityClass", {"scheduling.k8s.io/v1"}},
      {"Workload", {"scheduling.k8s.io/v1beta1", "scheduling.k8s.io/v1alpha3"}},
      {"PodGroup", {"scheduling.k8s.io/v1beta1", "scheduling.k8s.io/v1alpha3"}},
      {"CompositePodGroup", {"scheduling.k8s.io/v1alpha3"}},
      {"DeviceClass", {"resource.k8s.io/v1", "resource.k8s.io/v1beta2"}},
      {"ResourceSlice", {"resource.k8s.io/v1", "resource.k8s.io/v1beta2"}},
      {"ResourceClaim", {"resource.k8s.io/v1", "resource.k8s.io/v1beta2"}},
      {"ResourceClaimTemplate", {"resource.k8s.io/v1", "resource.k8s.io/v1beta2"}},
      {"Job", {"batch/v1"}},
      {"Deployment", {"apps/v1"}},
      {"ReplicaSet", {"apps/v1"}},
      {"StatefulSet", {"apps/v1"}},
      {"JobSet", {"jobset.x-k8s.io/v1alpha2"}},
      {"LeaderWorkerSet", {"leaderworkerset.x-k8s.io/v1"}},
      {"PodDisruptionBudget", {"policy/v1"}},
  };
  return kinds;
}

// OtherKind: a group/version of the Kubernetes v1.37 APIs and its kinds that wasched does not
// read because they do not change what the scheduler decides (or, for the workload controllers
// wasched does not run, say so).
struct OtherKinds {
  std::string_view api_version;
  std::vector<std::string_view> kinds;
};

const std::vector<OtherKinds>& NonSchedulingKinds() {
  static const std::vector<OtherKinds> kinds = {
      {"v1",
       {"ConfigMap", "Secret", "Service", "ServiceAccount", "Namespace", "Endpoints", "Event",
        "LimitRange", "ResourceQuota", "PersistentVolume", "PersistentVolumeClaim", "PodTemplate",
        "ReplicationController", "Binding", "ComponentStatus"}},
      {"apps/v1", {"DaemonSet", "ControllerRevision"}},
      {"batch/v1", {"CronJob"}},
      {"autoscaling/v1", {"HorizontalPodAutoscaler"}},
      {"autoscaling/v2", {"HorizontalPodAutoscaler"}},
      {"networking.k8s.io/v1",
       {"Ingress", "IngressClass", "NetworkPolicy", "IPAddress", "ServiceCIDR"}},
      {"discovery.k8s.io/v1", {"EndpointSlice"}},
      {"rbac.authorization.k8s.io/v1",
       {"Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding"}},
      {"storage.k8s.io/v1",
       {"StorageClass", "CSIDriver", "CSINode", "CSIStorageCapacity", "VolumeAttachment",
        "VolumeAttributesClass"}},
      {"apiextensions.k8s.io/v1", {"CustomResourceDefinition"}},
      {"admissionregistration.k8s.io/v1",
       {"MutatingWebhookConfiguration", "ValidatingWebhookConfiguration",
        "ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding"}},
      {"apiregistration.k8s.io/v1", {"APIService"}},
      {"coordination.k8s.io/v1", {"Lease"}},
      {"events.k8s.io/v1", {"Event"}},
      {"node.k8s.io/v1", {"RuntimeClass"}},
      {"certificates.k8s.io/v1", {"CertificateSigningRequest"}},
      {"flowcontrol.apiserver.k8s.io/v1", {"FlowSchema", "PriorityLevelConfiguration"}},
      {"policy/v1", {}},
      {"scheduling.k8s.io/v1", {}},
      {"resource.k8s.io/v1", {}},
  };
  return kinds;
}

// Other gang schedulers' groups, which `wasched convert` migrates to native objects.
constexpr std::string_view kConvertibleGroups[] = {"scheduling.x-k8s.io/", "scheduling.volcano.sh/",
                                                   "batch.volcano.sh/"};

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// EditDistance: Levenshtein distance of two short strings, case-insensitively.
size_t EditDistance(std::string_view a, std::string_view b) {
  const std::string x = Lower(a);
  const std::string y = Lower(b);
  std::vector<size_t> row(y.size() + 1);
  for (size_t j = 0; j <= y.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= x.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= y.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (x[i - 1] == y[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[y.size()];
}

std::string JoinVersions(const std::vector<std::string_view>& versions) {
  std::string out;
  for (size_t i = 0; i < versions.size(); ++i) {
    if (i > 0) out += i + 1 == versions.size() ? " and " : ", ";
    out += versions[i];
  }
  return out;
}

std::string_view GroupOf(std::string_view api_version) {
  const size_t slash = api_version.find('/');
  return slash == std::string_view::npos ? std::string_view() : api_version.substr(0, slash);
}

// InGroup: `r` is read in some version of API group `group` ("" for the core group).
bool InGroup(const ReadKind& r, std::string_view group) {
  return std::any_of(r.versions.begin(), r.versions.end(),
                     [&](std::string_view v) { return GroupOf(v) == group; });
}

bool IsKnownApiVersion(std::string_view api_version) {
  for (const OtherKinds& o : NonSchedulingKinds()) {
    if (o.api_version == api_version) return true;
  }
  for (const ReadKind& r : ReadKinds()) {
    if (std::find(r.versions.begin(), r.versions.end(), api_version) != r.versions.end()) {
      return true;
    }
  }
  return false;
}

}  // namespace

SkippedKind ClassifySkippedKind(std::string_view api_version, std::string_view kind) {
  using Verdict = SkippedKind::Verdict;
  // Removed versions of the workload API (1.35 v1alpha1, 1.36 v1alpha2).
  if (api_version == "scheduling.k8s.io/v1alpha1" || api_version == "scheduling.k8s.io/v1alpha2") {
    return {Verdict::kUnknown, "apiVersion",
            fmt::format("{} was removed in v1.37 (it serves scheduling.k8s.io/v1beta1 and "
                        "scheduling.k8s.io/v1alpha3); run `wasched convert --to "
                        "scheduling.k8s.io/v1beta1`",
                        api_version)};
  }
  for (std::string_view prefix : kConvertibleGroups) {
    if (api_version.starts_with(prefix)) {
      return {Verdict::kUnknown, "apiVersion",
              fmt::format("{} {} is another gang scheduler's object: run `wasched convert --to "
                          "scheduling.k8s.io/v1beta1` to migrate it to native PodGroups and "
                          "Workloads",
                          api_version, kind)};
    }
  }
  if (api_version == "wasched.io/v1alpha1" && kind == "ScheduleResult") {
    return {Verdict::kNote, "kind", "wasched's own output, not an input"};
  }
  const std::string_view group = GroupOf(api_version);
  // A kind wasched reads, in a version of its group it does not read.
  for (const ReadKind& r : ReadKinds()) {
    if (r.kind != kind || !InGroup(r, group)) continue;
    std::string detail = fmt::format("{} is served as {} in v1.37 (wasched reads those)", kind,
                                     JoinVersions(r.versions));
    if (api_version == "resource.k8s.io/v1beta1") {
      detail += "; resource.k8s.io/v1beta1 (off by default in v1.37) has an older shape: write "
                "the object as resource.k8s.io/v1";
    }
    return {Verdict::kUnknown, "apiVersion", std::move(detail)};
  }
  // A kind of an API that does not affect scheduling.
  for (const OtherKinds& o : NonSchedulingKinds()) {
    if (o.api_version == api_version &&
        std::find(o.kinds.begin(), o.kinds.end(), kind) != o.kinds.end()) {
      return {Verdict::kNote, "kind", "not used for scheduling"};
    }
  }
  // A typo of a kind wasched reads (`pod`, `Jobb`, `PodGroups`).
  const ReadKind* closest = nullptr;
  size_t best = SIZE_MAX;
  for (const ReadKind& r : ReadKinds()) {
    if (!InGroup(r, group)) continue;
    // At most 1 edit for short kinds, 2 for longer ones; a case difference is no edit.
    const size_t d = EditDistance(r.kind, kind);
    if (d <= (r.kind.size() <= 4 ? 1u : 2u) && d < best) {
      best = d;
      closest = &r;
    }
  }
  if (closest != nullptr) {
    return {Verdict::kUnknown, "kind",
            fmt::format("unknown kind \"{}\": did you mean \"{}\" ({})? kinds are case-sensitive",
                        kind, closest->kind, JoinVersions(closest->versions))};
  }
  for (const OtherKinds& o : NonSchedulingKinds()) {
    if (o.api_version != api_version) continue;
    return {Verdict::kUnknown, "kind",
            fmt::format("{} has no kind \"{}\" that wasched knows", api_version, kind)};
  }
  // A known group in a version v1.37 does not serve (or wasched does not read).
  std::vector<std::string_view> served;
  auto add_served = [&](std::string_view v) {
    if (GroupOf(v) == group && v != api_version &&
        std::find(served.begin(), served.end(), v) == served.end()) {
      served.push_back(v);
    }
  };
  for (const ReadKind& r : ReadKinds()) {
    for (std::string_view v : r.versions) add_served(v);
  }
  for (const OtherKinds& o : NonSchedulingKinds()) add_served(o.api_version);
  if (!served.empty() && !IsKnownApiVersion(api_version)) {
    return {Verdict::kUnknown, "apiVersion",
            fmt::format("unknown version {}: v1.37 serves {}", api_version, JoinVersions(served))};
  }
  return {Verdict::kUnknown, "apiVersion",
          fmt::format("unknown API {} {}: not a Kubernetes v1.37 API that wasched reads",
                      api_version, kind)};
}

}  // namespace wasched::codec::internal
