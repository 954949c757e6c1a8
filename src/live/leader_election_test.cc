// File: live/leader_election_test.cc
#include "live/leader_election.h"

#include <gtest/gtest.h>

#include "support/fake_api_server.h"

namespace wasched::live {
namespace {

const char* kLease = "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/wasched";

struct Candidate {
  Candidate(testing::FakeApiServer* server, const std::string& id, double* now)
      : transport(server->Transport()), client(transport.get(), nullptr, "https://fake") {
    LeaseOptions o;
    o.identity = id;
    elector = std::make_unique<LeaderElector>(
        &client, kube::Clock{[now] { return *now; }, [now](double s) { *now += s; }},
        [] { return int64_t{1'700'000'000'000'000}; }, o);
  }
  std::unique_ptr<kube::Transport> transport;
  kube::ApiClient client;
  std::unique_ptr<LeaderElector> elector;
};

TEST(LeaderElector, OneHolderAtATimeAndHandOverAfterTheLeaseExpires) {
  testing::FakeApiServer server;
  double now = 0;
  Candidate a(&server, "a", &now), b(&server, "b", &now);
  ASSERT_EQ(a.elector->TryAcquireOrRenew(), true);  // creates the lease
  ASSERT_EQ(b.elector->TryAcquireOrRenew(), false);
  EXPECT_EQ(server.Get(kLease)["spec"]["holderIdentity"], "a");
  now += 2;
  ASSERT_EQ(a.elector->TryAcquireOrRenew(), true);  // renews
  now += 10;
  ASSERT_EQ(b.elector->TryAcquireOrRenew(), false);  // b saw the renewal 10 s ago only
  // a stops renewing (killed); 15 s after b last saw a change, b takes over.
  now += 5.5;
  ASSERT_EQ(b.elector->TryAcquireOrRenew(), true);
  EXPECT_EQ(server.Get(kLease)["spec"]["holderIdentity"], "b");
  EXPECT_EQ(server.Get(kLease)["spec"]["leaseTransitions"], 1);
  // a comes back: it sees b's lease and does not take it.
  ASSERT_EQ(a.elector->TryAcquireOrRenew(), false);
}

TEST(LeaderElector, ReleaseLetsAStandbyTakeOverAtOnce) {
  testing::FakeApiServer server;
  double now = 0;
  Candidate a(&server, "a", &now), b(&server, "b", &now);
  ASSERT_EQ(a.elector->TryAcquireOrRenew(), true);
  ASSERT_EQ(b.elector->TryAcquireOrRenew(), false);
  a.elector->Release();
  EXPECT_EQ(server.Get(kLease)["spec"]["holderIdentity"], "");
  ASSERT_EQ(b.elector->TryAcquireOrRenew(), true);
}

TEST(LeaderElector, ServerErrorsAreReported) {
  testing::FakeApiServer server;
  double now = 0;
  Candidate a(&server, "a", &now);
  server.SetUnreachable(true);
  auto r = a.elector->TryAcquireOrRenew();
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().kind, kube::KubeErrorKind::kUnreachable);
}

}  // namespace
}  // namespace wasched::live
