// File: live/leader_election.cc
#include "live/leader_election.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace wasched::live {
namespace {

using nlohmann::json;

std::string LeasePath(const LeaseOptions& o) {
  return fmt::format("/apis/coordination.k8s.io/v1/namespaces/{}/leases/{}", o.namespace_, o.name);
}

}  // namespace

LeaderElector::LeaderElector(kube::ApiClient* client, kube::Clock clock, WallClock wall,
                             LeaseOptions options)
    : client_(client), clock_(std::move(clock)), wall_(std::move(wall)),
      options_(std::move(options)) {}

tl::expected<bool, kube::KubeError> LeaderElector::TryAcquireOrRenew() {
  const std::string path = LeasePath(options_);
  const double now = clock_.now();
  const std::string now_text = FormatMicroTime(wall_());
  auto current = client_->Get(path);
  if (!current && current.error().kind != kube::KubeErrorKind::kNotFound) {
    return tl::unexpected(current.error());
  }
  if (!current) {
    json lease = {{"apiVersion", "coordination.k8s.io/v1"},
                  {"kind", "Lease"},
                  {"metadata", {{"name", options_.name}, {"namespace", options_.namespace_}}},
                  {"spec",
                   {{"holderIdentity", options_.identity},
                    {"leaseDurationSeconds", static_cast<int>(options_.lease_duration)},
                    {"acquireTime", now_text},
                    {"renewTime", now_text},
                    {"leaseTransitions", 0}}}};
    auto created = client_->Send(
        "POST",
        fmt::format("/apis/coordination.k8s.io/v1/namespaces/{}/leases", options_.namespace_),
        lease.dump());
    if (!created) {
      if (created.error().kind == kube::KubeErrorKind::kConflict) return false;  // lost the race
      return tl::unexpected(created.error());
    }
    observed_holder_ = options_.identity;
    observed_time_ = now;
    held_ = true;
    return true;
  }
  json lease = json::parse(*current, nullptr, /*allow_exceptions=*/false);
  if (!lease.is_object()) {
    return tl::unexpected(
        kube::KubeError{kube::KubeErrorKind::kDecode, "GET " + path + ": not a Lease", 0});
  }
  json& spec = lease["spec"];
  if (!spec.is_object()) spec = json::object();
  const std::string raw = spec.dump();
  const std::string holder = spec.value("holderIdentity", "");
  if (raw != observed_raw_) {
    observed_raw_ = raw;
    observed_time_ = now;
  }
  observed_holder_ = holder;
  double duration = options_.lease_duration;
  if (spec.contains("leaseDurationSeconds") && spec["leaseDurationSeconds"].is_number()) {
    duration = spec["leaseDurationSeconds"].get<double>();
  }
  const bool mine = holder == options_.identity;
  if (!holder.empty() && !mine && observed_time_ + duration > now) return false;

  if (!mine) {
    spec["acquireTime"] = now_text;
    spec["leaseTransitions"] = spec.value("leaseTransitions", 0) + (holder.empty() ? 0 : 1);
  }
  spec["holderIdentity"] = options_.identity;
  spec["leaseDurationSeconds"] = static_cast<int>(options_.lease_duration);
  spec["renewTime"] = now_text;
  auto updated = client_->Send("PUT", path, lease.dump());
  if (!updated) {
    held_ = false;
    if (updated.error().kind == kube::KubeErrorKind::kConflict) return false;
    return tl::unexpected(updated.error());
  }
  observed_raw_ = spec.dump();
  observed_holder_ = options_.identity;
  observed_time_ = now;
  held_ = true;
  return true;
}

void LeaderElector::Release() {
  if (!held_) return;
  const std::string path = LeasePath(options_);
  auto current = client_->Get(path);
  if (!current) return;
  json lease = json::parse(*current, nullptr, /*allow_exceptions=*/false);
  if (!lease.is_object() || !lease["spec"].is_object() ||
      lease["spec"].value("holderIdentity", "") != options_.identity) {
    return;
  }
  lease["spec"]["holderIdentity"] = "";
  lease["spec"]["leaseDurationSeconds"] = 1;
  lease["spec"]["renewTime"] = FormatMicroTime(wall_());
  (void)client_->Send("PUT", path, lease.dump());
  held_ = false;
}

}  // namespace wasched::live
