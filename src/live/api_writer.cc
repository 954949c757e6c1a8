// File: live/api_writer.cc
#include "live/api_writer.h"

#include <chrono>
#include <ctime>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace wasched::live {
namespace {

using nlohmann::json;

constexpr size_t kMaxNoteBytes = 1024;

std::string PodPath(const ObjectRef& pod) {
  return fmt::format("/api/v1/namespaces/{}/pods/{}", pod.namespace_, pod.name);
}

std::string GroupPath(const std::string& resource, const ObjectRef& group) {
  const char* version = resource == "compositepodgroups" ? "v1alpha3" : "v1beta1";
  return fmt::format("/apis/scheduling.k8s.io/{}/namespaces/{}/{}/{}", version,
                     group.namespace_, resource, group.name);
}

std::string ClaimPath(const std::string& ns, const std::string& name) {
  return fmt::format("/apis/resource.k8s.io/v1/namespaces/{}/resourceclaims/{}", ns, name);
}

// Dump: JSON text; invalid UTF-8 (never expected from the API server) becomes U+FFFD instead of
// an exception.
std::string Dump(const json& doc) {
  return doc.dump(-1, ' ', false, json::error_handler_t::replace);
}

// CutUtf8: `text` cut to at most `limit` bytes at a character boundary.
std::string CutUtf8(const std::string& text, size_t limit) {
  if (text.size() <= limit) return text;
  size_t end = limit;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return text.substr(0, end);
}

}  // namespace

WallClock SystemWallClock() {
  return [] {
    return static_cast<int64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
                                    std::chrono::system_clock::now().time_since_epoch())
                                    .count());
  };
}

std::string FormatRfc3339(int64_t unix_micros) {
  const std::time_t seconds = static_cast<std::time_t>(unix_micros / 1000000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", tm.tm_year + 1900, tm.tm_mon + 1,
                     tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

std::string FormatMicroTime(int64_t unix_micros) {
  std::string text = FormatRfc3339(unix_micros);
  text.pop_back();  // 'Z'
  return fmt::format("{}.{:06}Z", text, unix_micros % 1000000);
}

Writer::Writer(kube::ApiClient* client, WallClock clock, std::string instance)
    : client_(client), clock_(std::move(clock)), instance_(std::move(instance)) {}

tl::expected<void, kube::KubeError> Writer::Bind(const ObjectRef& pod, const std::string& node) {
  json body = {{"apiVersion", "v1"},
               {"kind", "Binding"},
               {"metadata", {{"name", pod.name}, {"namespace", pod.namespace_}}},
               {"target", {{"apiVersion", "v1"}, {"kind", "Node"}, {"name", node}}}};
  if (!pod.uid.empty()) body["metadata"]["uid"] = pod.uid;
  auto sent = client_->Send("POST", PodPath(pod) + "/binding", Dump(body));
  if (!sent) return tl::unexpected(sent.error());
  return {};
}

tl::expected<void, kube::KubeError> Writer::DeletePod(const ObjectRef& pod) {
  json body = {{"apiVersion", "v1"}, {"kind", "DeleteOptions"}};
  if (!pod.uid.empty()) body["preconditions"] = {{"uid", pod.uid}};
  auto sent = client_->Send("DELETE", PodPath(pod), Dump(body));
  if (!sent && sent.error().kind != kube::KubeErrorKind::kNotFound) {
    return tl::unexpected(sent.error());
  }
  return {};  // already gone counts as deleted
}

tl::expected<void, kube::KubeError> Writer::SetPodScheduledFalse(
    const ObjectRef& pod, const std::string& reason, const std::string& message,
    const std::string& nominated_node) {
  json condition = {{"type", "PodScheduled"},
                    {"status", "False"},
                    {"reason", reason},
                    {"message", message},
                    {"lastProbeTime", nullptr},
                    {"lastTransitionTime", FormatRfc3339(clock_())}};
  json patch = {{"status", {{"conditions", json::array({condition})}}}};
  if (!nominated_node.empty()) patch["status"]["nominatedNodeName"] = nominated_node;
  if (!pod.uid.empty()) patch["metadata"] = {{"uid", pod.uid}};
  auto sent = client_->Send("PATCH", PodPath(pod) + "/status", Dump(patch),
                            "application/strategic-merge-patch+json");
  if (!sent) return tl::unexpected(sent.error());
  return {};
}

tl::expected<void, kube::KubeError> Writer::SetDisruptionTarget(const ObjectRef& pod,
                                                                const std::string& message) {
  json condition = {{"type", "DisruptionTarget"},
                    {"status", "True"},
                    {"reason", "PreemptionByScheduler"},
                    {"message", message},
                    {"lastTransitionTime", FormatRfc3339(clock_())}};
  json patch = {{"status", {{"conditions", json::array({condition})}}}};
  if (!pod.uid.empty()) patch["metadata"] = {{"uid", pod.uid}};
  auto sent = client_->Send("PATCH", PodPath(pod) + "/status", Dump(patch),
                            "application/strategic-merge-patch+json");
  if (!sent) return tl::unexpected(sent.error());
  return {};
}

tl::expected<void, kube::KubeError> Writer::SetNominatedNodeName(const ObjectRef& pod,
                                                                 const std::string& node) {
  json patch = {{"status", {{"nominatedNodeName", node}}}};
  if (!pod.uid.empty()) patch["metadata"] = {{"uid", pod.uid}};
  auto sent = client_->Send("PATCH", PodPath(pod) + "/status", Dump(patch),
                            "application/strategic-merge-patch+json");
  if (!sent) return tl::unexpected(sent.error());
  return {};
}

tl::expected<void, kube::KubeError> Writer::SetGroupCondition(const std::string& resource,
                                                              const ObjectRef& group,
                                                              const StoredCondition& condition,
                                                              const StoredCondition* previous) {
  const bool same_status = previous != nullptr && previous->status == condition.status &&
                           !previous->last_transition_time.empty();
  json c = {{"type", condition.type},
            {"status", condition.status},
            {"reason", condition.reason},
            {"message", condition.message},
            {"lastTransitionTime",
             same_status ? previous->last_transition_time : FormatRfc3339(clock_())}};
  json patch = {{"status", {{"conditions", json::array({c})}}}};
  if (!group.uid.empty()) patch["metadata"] = {{"uid", group.uid}};
  auto sent = client_->Send("PATCH", GroupPath(resource, group) + "/status", Dump(patch),
                            "application/strategic-merge-patch+json");
  if (!sent) return tl::unexpected(sent.error());
  return {};
}

tl::expected<void, kube::KubeError> Writer::ReserveClaim(
    const ClaimWrite& w, const std::shared_ptr<const std::string>& cached) {
  const std::string path = ClaimPath(w.namespace_, w.name);
  json claim;
  if (cached) claim = json::parse(*cached, nullptr, /*allow_exceptions=*/false);
  constexpr int kAttempts = 5;  // client-go retry.DefaultRetry.Steps
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    if (attempt > 0 || !claim.is_object()) {
      auto got = client_->Get(path);
      if (!got) return tl::unexpected(got.error());
      claim = json::parse(*got, nullptr, /*allow_exceptions=*/false);
      if (!claim.is_object()) {
        return tl::unexpected(kube::KubeError{kube::KubeErrorKind::kDecode,
                                              "GET " + path + ": not a JSON object", 200});
      }
    }
    json next = claim;
    auto step = PrepareClaimStatus(w, &next);
    if (!step) return tl::unexpected(kube::KubeError{kube::KubeErrorKind::kConflict, step.error(), 0});
    if (*step == ClaimStep::kNothingToDo) return {};
    if (w.allocation) {
      json protected_claim = claim;
      if (AddDeleteProtection(&protected_claim)) {
        auto updated = client_->Send("PUT", path, Dump(protected_claim));
        if (!updated) {
          if (updated.error().kind == kube::KubeErrorKind::kConflict) continue;
          return tl::unexpected(updated.error());
        }
        claim = json::parse(*updated, nullptr, /*allow_exceptions=*/false);
        next = claim;
        step = PrepareClaimStatus(w, &next);
        if (!step) {
          return tl::unexpected(kube::KubeError{kube::KubeErrorKind::kConflict, step.error(), 0});
        }
        if (*step == ClaimStep::kNothingToDo) return {};
      }
    }
    auto sent = client_->Send("PUT", path + "/status", Dump(next));
    if (sent) return {};
    if (sent.error().kind != kube::KubeErrorKind::kConflict) return tl::unexpected(sent.error());
  }
  return tl::unexpected(kube::KubeError{
      kube::KubeErrorKind::kConflict,
      fmt::format("claim {}/{}: still conflicting after {} attempts", w.namespace_, w.name,
                  kAttempts),
      409});
}

tl::expected<void, kube::KubeError> Writer::UnreserveClaim(const ObjectRef& claim,
                                                           const std::string& pod_uid) {
  auto sent = client_->Send("PATCH", ClaimPath(claim.namespace_, claim.name) + "/status",
                            UnreservePatch(claim.uid, pod_uid),
                            "application/strategic-merge-patch+json");
  if (!sent && sent.error().kind != kube::KubeErrorKind::kNotFound) {
    return tl::unexpected(sent.error());
  }
  return {};
}

tl::expected<void, kube::KubeError> Writer::Event(const EventSpec& event) {
  const int64_t now = clock_();
  json body = {
      {"apiVersion", "events.k8s.io/v1"},
      {"kind", "Event"},
      {"metadata",
       {{"name", fmt::format("{}.{:x}{:04x}", event.regarding.name, now, event_counter_++ & 0xffff)},
        {"namespace", event.regarding.namespace_}}},
      {"eventTime", FormatMicroTime(now)},
      {"reportingController", "wasched"},
      {"reportingInstance", instance_},
      {"action", event.action},
      {"reason", event.reason},
      {"type", event.type},
      {"note", CutUtf8(event.note, kMaxNoteBytes)},
      {"regarding",
       {{"apiVersion", event.regarding_api_version},
        {"kind", event.regarding_kind},
        {"namespace", event.regarding.namespace_},
        {"name", event.regarding.name},
        {"uid", event.regarding.uid}}}};
  auto sent = client_->Send(
      "POST", fmt::format("/apis/events.k8s.io/v1/namespaces/{}/events", event.regarding.namespace_),
      Dump(body));
  if (!sent) return tl::unexpected(sent.error());
  return {};
}

}  // namespace wasched::live
