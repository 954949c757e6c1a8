// File: live/leader_election.h
//
// Leader election through a coordination.k8s.io/v1 Lease, as client-go's leaderelection with a
// LeaseLock (k8s.io/client-go tools/leaderelection/leaderelection.go, v0.37.2; kube-scheduler's
// defaults leaseDuration 15 s, renewDeadline 10 s, retryPeriod 2 s, lock kube-system/
// kube-scheduler — wasched's lease is kube-system/wasched):
//   - a candidate takes the lease when it does not exist, or when its holder has not renewed it
//     for leaseDuration as seen on the candidate's own clock (the time it last saw the lease
//     change; clocks are never compared across machines);
//   - the holder renews every retryPeriod; when it cannot renew for renewDeadline it has lost
//     the lease and must stop scheduling (kube-scheduler exits);
//   - writes carry the lease's resourceVersion, so two candidates cannot both win (409).
// One TryAcquireOrRenew per call; the caller's loop waits retryPeriod between calls.
// Thread-safety: one thread.
#pragma once

#include <cstdint>
#include <string>

#include <tl/expected.hpp>

#include "kube/api_client.h"
#include "kube/clock.h"
#include "live/api_writer.h"

namespace wasched::live {

// LeaseOptions: seconds.
struct LeaseOptions {
  std::string namespace_ = "kube-system";
  std::string name = "wasched";
  std::string identity;
  double lease_duration = 15;
  double renew_deadline = 10;
  double retry_period = 2;
};

class LeaderElector {
 public:
  // `client` must outlive it; `clock` is monotonic (observations), `wall` writes renewTime.
  LeaderElector(kube::ApiClient* client, kube::Clock clock, WallClock wall, LeaseOptions options);

  // TryAcquireOrRenew: one attempt. true: this candidate holds the lease now; false: another
  // holder's lease is still valid, or the write lost a race. Errors: the API server's (403
  // when RBAC denies leases) — a failed renewal is reported as an error too.
  [[nodiscard]] tl::expected<bool, kube::KubeError> TryAcquireOrRenew();
  // Release: gives the lease up (holderIdentity cleared, leaseDurationSeconds 1) when held, so
  // a standby takes over at once after a clean stop (ReleaseOnCancel).
  void Release();
  // Holder: the holderIdentity last seen.
  [[nodiscard]] const std::string& Holder() const { return observed_holder_; }

 private:
  kube::ApiClient* client_;
  kube::Clock clock_;
  WallClock wall_;
  LeaseOptions options_;
  std::string observed_raw_;      // the lease spec last seen, to notice changes
  std::string observed_holder_;
  double observed_time_ = 0;      // clock_.now() when observed_raw_ last changed
  bool held_ = false;
};

}  // namespace wasched::live
