// File: live/scheduling_loop_test.cc
//
// The live scheduler's loop against an in-memory API server (tests/support/fake_api_server.h):
// the store is fed as the informers would feed it, the writes land in the fake server, and the
// watch is simulated by copying the fake server's pods back into the store.
#include "live/scheduling_loop.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <set>
#include <thread>

#include "kube/resource_type.h"
#include "support/fake_api_server.h"

namespace wasched::live {
namespace {

using nlohmann::json;
using ::testing::Contains;
using ::testing::HasSubstr;

size_t TypeOf(const char* kind) {
  const auto& r = kube::SchedulingResources();
  for (size_t t = 0; t < r.size(); ++t) {
    if (r[t].kind == kind) return t;
  }
  return r.size();
}

json Node(const std::string& name, const std::string& cpu) {
  return {{"apiVersion", "v1"},
          {"kind", "Node"},
          {"metadata", {{"name", name}, {"uid", "uid-" + name}}},
          {"status", {{"allocatable", {{"cpu", cpu}, {"memory", "32Gi"}, {"pods", "110"}}}}}};
}

json Pod(const std::string& name, const std::string& group, const std::string& cpu,
         const std::string& scheduler = "wasched", int priority = 0,
         const std::string& node = "") {
  json pod = {{"apiVersion", "v1"},
              {"kind", "Pod"},
              {"metadata", {{"name", name}, {"namespace", "ns"}, {"uid", "uid-" + name}}},
              {"spec",
               {{"schedulerName", scheduler},
                {"priority", priority},
                {"containers",
                 {{{"name", "main"},
                   {"image", "registry.k8s.io/pause:3.10"},
                   {"resources", {{"requests", {{"cpu", cpu}}}}}}}}}}};
  if (!group.empty()) pod["spec"]["schedulingGroup"] = {{"podGroupName", group}};
  if (priority != 0) pod["spec"]["priorityClassName"] = "p" + std::to_string(priority);
  if (!node.empty()) {
    pod["spec"]["nodeName"] = node;
    pod["status"] = {{"phase", "Running"}};
  }
  return pod;
}

json PodGroup(const std::string& name, int min_count, const std::string& disruption = "",
              int priority = 0) {
  json pg = {{"apiVersion", "scheduling.k8s.io/v1beta1"},
             {"kind", "PodGroup"},
             {"metadata", {{"name", name}, {"namespace", "ns"}, {"uid", "uid-" + name}}},
             {"spec", {{"schedulingPolicy", {{"gang", {{"minCount", min_count}}}}}}}};
  if (priority != 0) {
    pg["spec"]["priority"] = priority;
    pg["spec"]["priorityClassName"] = "p" + std::to_string(priority);
  }
  if (!disruption.empty()) pg["spec"]["disruptionMode"] = {{disruption, json::object()}};
  return pg;
}

// PriorityClass: "p<value>", as the priority admission controller resolved it into the pods.
json PriorityClass(int value) {
  return {{"apiVersion", "scheduling.k8s.io/v1"},
          {"kind", "PriorityClass"},
          {"metadata", {{"name", "p" + std::to_string(value)}}},
          {"value", value}};
}

std::string PodPath(const std::string& name) { return "/api/v1/namespaces/ns/pods/" + name; }
std::string GroupPath(const std::string& name) {
  return "/apis/scheduling.k8s.io/v1beta1/namespaces/ns/podgroups/" + name;
}

class LoopTest : public ::testing::Test {
 protected:
  LoopTest()
      : store_(kube::SchedulingResources().size()),
        writes_([this] { return server_.Transport(); }, "https://fake", [] { return int64_t{0}; },
                WriteQueueOptions{}),
        metrics_("wasched") {
    for (size_t t = 0; t < kube::SchedulingResources().size(); ++t) store_.MarkAbsent(t);
    LoopOptions options;
    options.scheduler.scheduler_name = "wasched";
    options.victim_wait_seconds = 30;
    loop_ = std::make_unique<SchedulingLoop>(
        &store_, &writes_, &metrics_, options,
        [this](int, const std::string& line) { log_.push_back(line); },
        [this] { return now_; });
  }

  // The write workers' tasks use the loop, the log and the metrics: they end before any member
  // goes (members are destroyed in reverse order, the queue after the loop; ASan saw a queued
  // nominatedNodeName patch run after the loop was freed).
  ~LoopTest() override { writes_.Stop(); }

  // Add: the object in the fake server and, as a watch event, in the store.
  void Add(const char* kind, const json& object) {
    const std::string name = object["metadata"]["name"];
    if (std::string(kind) == "Pod") server_.Put(PodPath(name), object);
    if (std::string(kind) == "PodGroup") server_.Put(GroupPath(name), object);
    store_.Apply(TypeOf(kind), kube::WatchEventType::kAdded, object.dump());
  }
  // Sync: what the watch would deliver: every pod and group as the fake server holds it; pods
  // deleted there are deleted here.
  void Sync(const std::vector<std::string>& pods, const std::vector<std::string>& groups) {
    for (const std::string& p : pods) {
      const json pod = server_.Get(PodPath(p));
      if (pod.is_null()) {
        store_.Apply(TypeOf("Pod"), kube::WatchEventType::kDeleted, Pod(p, "", "1").dump());
      } else {
        store_.Apply(TypeOf("Pod"), kube::WatchEventType::kModified, pod.dump());
      }
    }
    for (const std::string& g : groups) {
      store_.Apply(TypeOf("PodGroup"), kube::WatchEventType::kModified,
                   server_.Get(GroupPath(g)).dump());
    }
  }
  std::vector<std::string> Requests(const std::string& prefix) {
    std::vector<std::string> out;
    for (const std::string& r : server_.Requests()) {
      if (r.rfind(prefix, 0) == 0) out.push_back(r);
    }
    return out;
  }
  size_t Bound(const std::vector<std::string>& pods) {
    return std::count_if(pods.begin(), pods.end(), [&](const std::string& p) {
      return !server_.Get(PodPath(p))["spec"].value("nodeName", "").empty();
    });
  }

  testing::FakeApiServer server_;
  ObjectStore store_;
  WriteQueue writes_;
  Metrics metrics_;
  int64_t now_ = 1'700'000'000'000'000;
  std::vector<std::string> log_;
  std::unique_ptr<SchedulingLoop> loop_;
};

std::vector<std::string> Names(const std::string& prefix, int n) {
  std::vector<std::string> names;
  for (int i = 0; i < n; ++i) names.push_back(prefix + std::to_string(i));
  return names;
}

TEST_F(LoopTest, GangThatFitsIsBoundWholeAndItsGroupMarkedScheduled) {
  Add("Node", Node("n1", "4"));
  Add("Node", Node("n2", "4"));
  Add("PodGroup", PodGroup("pg", 8));
  const auto pods = Names("p", 8);
  for (const auto& p : pods) Add("Pod", Pod(p, "pg", "1"));
  ASSERT_TRUE(loop_->Cycle());
  ASSERT_TRUE(writes_.WaitIdle(10));
  EXPECT_EQ(Bound(pods), 8u);
  EXPECT_EQ(Requests("POST /api/v1/namespaces/ns/pods/").size(), 8u);
  const json pg = server_.Get(GroupPath("pg"));
  ASSERT_TRUE(pg["status"]["conditions"].is_array());
  EXPECT_EQ(pg["status"]["conditions"][0]["type"], "PodGroupInitiallyScheduled");
  EXPECT_EQ(pg["status"]["conditions"][0]["status"], "True");
  // Until the watch shows the bindings, the assumed pods are not bound twice.
  ASSERT_TRUE(loop_->Cycle());
  ASSERT_TRUE(writes_.WaitIdle(10));
  EXPECT_EQ(Requests("POST /api/v1/namespaces/ns/pods/").size(), 8u);
  Sync(pods, {"pg"});
  ASSERT_TRUE(loop_->Cycle());
  ASSERT_TRUE(writes_.WaitIdle(10));
  EXPECT_EQ(Requests("POST /api/v1/namespaces/ns/pods/").size(), 8u);
  EXPECT_EQ(loop_->InFlight(), 0u);
  EXPECT_THAT(metrics_.Render(), HasSubstr("wasched_bindings_total{result=\"success\"} 8"));
  EXPECT_THAT(metrics_.Render(),
              HasSubstr("scheduler_pod_scheduling_sli_duration_seconds_count{attempts=\"1\"} 8"));
}

TEST_F(LoopTest, GangThatDoesNotFitBindsNothingAndReportsWhy) {
  Add("Node", Node("n1", "4"));
  Add("PodGroup", PodGroup("pg", 8));
  const auto pods = Names("p", 8);
  for (const auto& p : pods) Add("Pod", Pod(p, "pg", "1"));
  ASSERT_TRUE(loop_->Cycle());
  ASSERT_TRUE(writes_.WaitIdle(10));
  EXPECT_EQ(Bound(pods), 0u);
  EXPECT_TRUE(Requests("POST /api/v1/namespaces/ns/pods/").empty());
  const json pg = server_.Get(GroupPath("pg"));
  EXPECT_EQ(pg["status"]["conditions"][0]["status"], "False");
  EXPECT_EQ(pg["status"]["conditions"][0]["reason"], "Unschedulable");
  EXPECT_FALSE(pg["status"]["conditions"][0].value("message", "").empty());
  const json p0 = server_.Get(PodPath("p0"));
  EXPECT_EQ(p0["status"]["conditions"][0]["type"], "PodScheduled");
  EXPECT_EQ(p0["status"]["conditions"][0]["reason"], "Unschedulable");
  // Nothing changed: a second cycle writes nothing new once the watch shows the status.
  Sync(pods, {"pg"});
  const size_t writes = server_.Requests().size();
  ASSERT_TRUE(loop_->Cycle());
  ASSERT_TRUE(writes_.WaitIdle(10));
  EXPECT_EQ(server_.Requests().size(), writes);
  // Nodes added later: the gang binds.
  Add("Node", Node("n2", "4"));
  ASSERT_TRUE(loop_->Cycle());
  ASSERT_TRUE(writes_.WaitIdle(10));
  EXPECT_EQ(Bound(pods), 8u);
}

// A gang below minCount is held at PreEnqueue: v1.37.2 writes nothing (no PodScheduled
// condition, no group condition), and its pods count in the `gated` queue.
TEST_F(LoopTest, GangBelowQuorumIsHeldWithoutWritesAndCountedGated) {
  Add("Node", Node("n1", "4"));
  Add("PodGroup", PodGroup("pg", 3));
  const auto pods = Names("p", 2);
  for (const auto& p : pods) Add("Pod", Pod(p, "pg", "1"));
  ASSERT_TRUE(loop_->Cycle());
  ASSERT_TRUE(writes_.WaitIdle(10));
  EXPECT_THAT(server_.Requests(), ::testing::IsEmpty());
  EXPECT_THAT(metrics_.Render(), HasSubstr("scheduler_pending_pods{queue=\"gated\"} 2\n"));
  EXPECT_THAT(metrics_.Render(), HasSubstr("scheduler_pending_pods{queue=\"unschedulable\"} 0\n"));
}

TEST_F(LoopTest, PodsOfAnotherSchedulerAreLeftAlone) {
  Add("Node", Node("n1", "4"));
  Add("Pod", Pod("mine", "", "1"));
  Add("Pod", Pod("theirs", "", "1", "default-scheduler"));
  ASSERT_TRUE(loop_->Cycle());
  ASSERT_TRUE(writes_.WaitIdle(10));
  EXPECT_EQ(Bound({"mine"}), 1u);
  EXPECT_EQ(Bound({"theirs"}), 0u);
  for (const std::string& r : server_.Requests()) EXPECT_THAT(r, ::testing::Not(HasSubstr("theirs")));
}

TEST_F(LoopTest, FailedBindIsForgottenReportedAndRetriedAfterABackoff) {
  Add("Node", Node("n1", "4"));
  Add("PodGroup", PodGroup("pg", 2));
  Add("Pod", Pod("a", "pg", "1"));
  Add("Pod", Pod("b", "pg", "1"));
  server_.FailBindingOf(PodPath("b"), 1);
  const uint64_t before = store_.Generation();
  ASSERT_TRUE(loop_->Cycle());
  ASSERT_TRUE(writes_.WaitIdle(10));
  EXPECT_EQ(Bound({"a"}), 1u);
  EXPECT_EQ(Bound({"b"}), 0u);
  EXPECT_GT(store_.Generation(), before);  // the failure asks for a new decision
  EXPECT_EQ(loop_->InFlight(), 1u);        // a's binding awaits the watch; b is forgotten
  // Reported as upstream's failure handler does.
  const json b = server_.Get(PodPath("b"));
  EXPECT_EQ(b["status"]["conditions"][0]["reason"], "SchedulerError");
  EXPECT_THAT(b["status"]["conditions"][0].value("message", ""),
              HasSubstr("running Bind plugin \"DefaultBinder\": POST"));
  Sync({"a", "b"}, {"pg"});
  // Within the backoff (1 s) b is not bound again.
  ASSERT_TRUE(loop_->Cycle());
  ASSERT_TRUE(writes_.WaitIdle(10));
  EXPECT_EQ(Bound({"b"}), 0u);
  now_ += 1'000'000;
  ASSERT_TRUE(loop_->Cycle());
  ASSERT_TRUE(writes_.WaitIdle(10));
  EXPECT_EQ(Bound({"a", "b"}), 2u);
  EXPECT_THAT(log_, Contains(HasSubstr("binding ns/b to n1 failed")));
}

TEST_F(LoopTest, PreemptionDeletesTheWholeVictimGangThenBindsAfterTheyAreGone) {
  Add("Node", Node("n1", "4"));
  Add("PriorityClass", PriorityClass(1000));
  Add("PodGroup", PodGroup("low", 4, "all"));
  const auto low = Names("low", 4);
  for (const auto& p : low) Add("Pod", Pod(p, "low", "1", "wasched", 0, "n1"));
  Add("PodGroup", PodGroup("high", 4, "", 1000));
  const auto high = Names("high", 4);
  for (const auto& p : high) Add("Pod", Pod(p, "high", "1", "wasched", 1000));
  ASSERT_TRUE(loop_->Cycle());
  ASSERT_TRUE(writes_.WaitIdle(10));
  EXPECT_EQ(Requests("DELETE").size(), 4u);
  // Each victim is marked DisruptionTarget before it is deleted, as upstream's preemption does.
  const auto requests = server_.Requests();
  const auto bodies = server_.Bodies();
  for (const auto& victim : low) {
    const auto patch = std::find(requests.begin(), requests.end(),
                                 "PATCH " + PodPath(victim) + "/status");
    const auto del = std::find(requests.begin(), requests.end(), "DELETE " + PodPath(victim));
    ASSERT_NE(patch, requests.end()) << victim;
    EXPECT_LT(patch - requests.begin(), del - requests.begin()) << victim;
    EXPECT_THAT(bodies[patch - requests.begin()],
                HasSubstr(R"("reason":"PreemptionByScheduler")"));
    EXPECT_THAT(bodies[patch - requests.begin()],
                HasSubstr("wasched: preempting to accommodate a higher priority pod group"));
  }
  EXPECT_EQ(Bound(high), 0u);  // waits for the victims
  // The victims are still in the store: the loop waits instead of deciding again.
  EXPECT_FALSE(loop_->Cycle());
  Sync(low, {});
  ASSERT_TRUE(loop_->Cycle());
  ASSERT_TRUE(writes_.WaitIdle(10));
  EXPECT_EQ(Bound(high), 4u);
  EXPECT_THAT(metrics_.Render(), HasSubstr("scheduler_preemption_attempts_total 1"));
}

TEST_F(LoopTest, VictimsThatNeverGoStopBlockingAfterTheDeadline) {
  Add("Node", Node("n1", "2"));
  Add("PriorityClass", PriorityClass(1000));
  Add("Pod", Pod("low", "", "2", "wasched", 0, "n1"));
  Add("Pod", Pod("high", "", "2", "wasched", 1000));
  server_.Put(PodPath("low"), Pod("low", "", "2", "other-uid-owner", 0, "n1"));
  ASSERT_TRUE(loop_->Cycle());
  ASSERT_TRUE(writes_.WaitIdle(10));
  EXPECT_FALSE(loop_->Cycle());
  now_ += 31'000'000;  // past victim_wait_seconds
  EXPECT_TRUE(loop_->Cycle());
  EXPECT_THAT(log_, Contains(HasSubstr("still present after")));
}

// A node the pending pods cannot use changes only the counts of their message ("0/1 nodes" →
// "0/2 nodes"): nothing is written again (a breaker finding: every node added re-PATCHed every
// pending pod).
TEST_F(LoopTest, AMessageThatChangesOnlyInItsCountsIsNotRewritten) {
  Add("Node", Node("n1", "1"));
  Add("Pod", Pod("big", "", "4"));
  ASSERT_TRUE(loop_->Cycle());
  ASSERT_TRUE(writes_.WaitIdle(10));
  ASSERT_EQ(Requests("PATCH " + PodPath("big")).size(), 1u);
  Sync({"big"}, {});
  Add("Node", Node("n2", "1"));
  ASSERT_TRUE(loop_->Cycle());
  ASSERT_TRUE(writes_.WaitIdle(10));
  EXPECT_EQ(Requests("PATCH " + PodPath("big")).size(), 1u);
  EXPECT_THAT(server_.Get(PodPath("big"))["status"]["conditions"][0].value("message", ""),
              HasSubstr("0/1 nodes are available"));
}

// DRA objects: a DeviceClass, a ResourceSlice of `gpus` GPUs on `node`, claims of one GPU.
json DeviceClass() {
  return {{"apiVersion", "resource.k8s.io/v1"},
          {"kind", "DeviceClass"},
          {"metadata", {{"name", "gpu"}, {"uid", "uid-class"}}},
          {"spec", json::object()}};
}

json GpuSlice(const std::string& node, int gpus) {
  json devices = json::array();
  for (int i = 0; i < gpus; ++i) devices.push_back({{"name", "gpu-" + std::to_string(i)}});
  return {{"apiVersion", "resource.k8s.io/v1"},
          {"kind", "ResourceSlice"},
          {"metadata", {{"name", node + "-gpus"}, {"uid", "uid-slice-" + node}}},
          {"spec",
           {{"driver", "gpu.example.com"},
            {"nodeName", node},
            {"pool", {{"name", node}, {"generation", 1}, {"resourceSliceCount", 1}}},
            {"devices", devices}}}};
}

json GpuClaimSpec() {
  return {{"devices",
           {{"requests", {{{"name", "gpu"}, {"exactly", {{"deviceClassName", "gpu"}}}}}}}}};
}

json GpuClaim(const std::string& name) {
  return {{"apiVersion", "resource.k8s.io/v1"},
          {"kind", "ResourceClaim"},
          {"metadata", {{"name", name}, {"namespace", "ns"}, {"uid", "uid-" + name}}},
          {"spec", GpuClaimSpec()}};
}

std::string ClaimPath(const std::string& name) {
  return "/apis/resource.k8s.io/v1/namespaces/ns/resourceclaims/" + name;
}

// PodWithClaim: a pod whose entry "gpu" names the claim `claim`.
json PodWithClaim(const std::string& name, const std::string& claim) {
  json pod = Pod(name, "", "1");
  pod["spec"]["resourceClaims"] = {{{"name", "gpu"}, {"resourceClaimName", claim}}};
  return pod;
}

class DraLoopTest : public LoopTest {
 protected:
  // AddClaim: the claim in the fake server and, as the server holds it, in the store.
  void AddClaim(const json& claim) {
    const std::string path = ClaimPath(claim["metadata"]["name"]);
    server_.Put(path, claim);
    store_.Apply(TypeOf("ResourceClaim"), kube::WatchEventType::kAdded, server_.Get(path).dump());
  }
  void AddCluster(const std::string& node, int gpus) {
    Add("Node", Node(node, "8"));
    store_.Apply(TypeOf("DeviceClass"), kube::WatchEventType::kAdded, DeviceClass().dump());
    store_.Apply(TypeOf("ResourceSlice"), kube::WatchEventType::kAdded,
                 GpuSlice(node, gpus).dump());
  }
  // SyncClaims: the claims as the watch would deliver them from the fake server.
  void SyncClaims(const std::vector<std::string>& claims) {
    for (const std::string& c : claims) {
      store_.Apply(TypeOf("ResourceClaim"), kube::WatchEventType::kModified,
                   server_.Get(ClaimPath(c)).dump());
    }
  }
  json Claim(const std::string& name) { return server_.Get(ClaimPath(name)); }
  size_t IndexOf(const std::string& request) {
    const auto r = server_.Requests();
    return std::find(r.begin(), r.end(), request) - r.begin();
  }
};

// Issue 17's DRA case: 2 GPUs on one node, three pods each claiming one. Two are bound, their
// claims allocated (distinct devices, node-local selector, delete-protection finalizer) and
// reserved for the right pod, written before the binding; the third waits Unschedulable, also in
// the cycles that run before the watch shows the allocations (a breaker finding: consecutive
// cycles gave one device to two pods).
TEST_F(DraLoopTest, TwoPodsGetDistinctGpusAndTheThirdWaits) {
  AddCluster("n1", 2);
  const std::vector<std::string> pods = {"u1", "u2", "u3"};
  for (const std::string& p : pods) {
    AddClaim(GpuClaim("c-" + p));
    Add("Pod", PodWithClaim(p, "c-" + p));
  }
  ASSERT_TRUE(loop_->Cycle());
  ASSERT_TRUE(writes_.WaitIdle(10));
  ASSERT_EQ(Bound(pods), 2u);
  std::set<std::string> devices;
  for (const std::string& p : pods) {
    const json claim = Claim("c-" + p);
    if (server_.Get(PodPath(p))["spec"].value("nodeName", "").empty()) {
      EXPECT_FALSE(claim.contains("status")) << p;
      continue;
    }
    const json& status = claim["status"];
    ASSERT_TRUE(status["allocation"].is_object()) << claim.dump();
    const json& result = status["allocation"]["devices"]["results"][0];
    EXPECT_EQ(result["request"], "gpu");
    EXPECT_EQ(result["driver"], "gpu.example.com");
    EXPECT_EQ(result["pool"], "n1");
    devices.insert(result.value("device", ""));
    EXPECT_EQ(status["allocation"]["nodeSelector"]["nodeSelectorTerms"][0]["matchFields"][0]
                    ["values"][0],
              "n1");
    EXPECT_EQ(status["reservedFor"],
              json::array({{{"resource", "pods"}, {"name", p}, {"uid", "uid-" + p}}}));
    EXPECT_EQ(claim["metadata"]["finalizers"],
              json::array({"resource.kubernetes.io/delete-protection"}));
    EXPECT_LT(IndexOf("PUT " + ClaimPath("c-" + p) + "/status"),
              IndexOf("POST " + PodPath(p) + "/binding"));
  }
  EXPECT_EQ(devices, (std::set<std::string>{"gpu-0", "gpu-1"}));
  const std::string waiting = Bound({"u1"}) + Bound({"u2"}) == 2 ? "u3"
                              : Bound({"u1"}) == 0              ? "u1"
                                                                : "u2";
  EXPECT_EQ(server_.Get(PodPath(waiting))["status"]["conditions"][0]["reason"], "Unschedulable");
  // Before the watch shows anything, and after: the devices are not given again.
  ASSERT_TRUE(loop_->Cycle());
  ASSERT_TRUE(writes_.WaitIdle(10));
  EXPECT_EQ(Bound(pods), 2u);
  SyncClaims({"c-u1", "c-u2", "c-u3"});
  ASSERT_TRUE(loop_->Cycle());
  ASSERT_TRUE(writes_.WaitIdle(10));
  EXPECT_EQ(Bound(pods), 2u);
  Sync(pods, {});
  ASSERT_TRUE(loop_->Cycle());
  ASSERT_TRUE(writes_.WaitIdle(10));
  EXPECT_EQ(Bound(pods), 2u);
  EXPECT_TRUE(Claim("c-" + waiting)["status"].is_null());
}

// A claim from a template: until the resourceclaim controller made it and recorded it in
// status.resourceClaimStatuses, the pod waits with upstream's reason; then it is bound and the
// generated claim (owned by the pod, annotated with the entry) allocated.
TEST_F(DraLoopTest, TemplateClaimWaitsForTheControllerThenIsAllocated) {
  AddCluster("n1", 1);
  store_.Apply(TypeOf("ResourceClaimTemplate"), kube::WatchEventType::kAdded,
               json{{"apiVersion", "resource.k8s.io/v1"},
                    {"kind", "ResourceClaimTemplate"},
                    {"metadata", {{"name", "one-gpu"}, {"namespace", "ns"}}},
                    {"spec", {{"spec", GpuClaimSpec()}}}}
                   .dump());
  json pod = Pod("t1", "", "1");
  pod["spec"]["resourceClaims"] = {{{"name", "gpu"}, {"resourceClaimTemplateName", "one-gpu"}}};
  Add("Pod", pod);
  ASSERT_TRUE(loop_->Cycle());
  ASSERT_TRUE(writes_.WaitIdle(10));
  EXPECT_EQ(Bound({"t1"}), 0u);
  const json c = server_.Get(PodPath("t1"))["status"]["conditions"][0];
  EXPECT_EQ(c["reason"], "Unschedulable");
  EXPECT_EQ(c["message"], "pod \"ns/t1\": ResourceClaim not created yet");
  EXPECT_TRUE(Requests("PUT").empty());
  // The controller's work: the claim, then the pod's status.
  json claim = GpuClaim("t1-gpu-x7k2p");
  claim["metadata"]["annotations"] = {{"resource.kubernetes.io/pod-claim-name", "gpu"}};
  claim["metadata"]["ownerReferences"] = {{{"apiVersion", "v1"},
                                           {"kind", "Pod"},
                                           {"name", "t1"},
                                           {"uid", "uid-t1"},
                                           {"controller", true}}};
  AddClaim(claim);
  pod = server_.Get(PodPath("t1"));
  pod["status"]["resourceClaimStatuses"] = {{{"name", "gpu"}, {"resourceClaimName", "t1-gpu-x7k2p"}}};
  server_.Put(PodPath("t1"), pod);
  Sync({"t1"}, {});
  ASSERT_TRUE(loop_->Cycle());
  ASSERT_TRUE(writes_.WaitIdle(10));
  EXPECT_EQ(Bound({"t1"}), 1u);
  const json got = Claim("t1-gpu-x7k2p");
  EXPECT_EQ(got["status"]["allocation"]["devices"]["results"][0]["device"], "gpu-0");
  EXPECT_EQ(got["status"]["reservedFor"][0]["name"], "t1");
}

// A stale claim in the watch (the server has a newer resourceVersion): the 409 is answered by
// reading the claim again and retrying, as upstream's retry.RetryOnConflict.
TEST_F(DraLoopTest, ResourceVersionConflictIsRetriedWithTheFreshClaim) {
  AddCluster("n1", 1);
  AddClaim(GpuClaim("c1"));
  json newer = Claim("c1");
  newer["metadata"]["labels"] = {{"touched", "yes"}};
  server_.Put(ClaimPath("c1"), newer);  // a new resourceVersion the store has not seen
  Add("Pod", PodWithClaim("p1", "c1"));
  ASSERT_TRUE(loop_->Cycle());
  ASSERT_TRUE(writes_.WaitIdle(10));
  EXPECT_EQ(Bound({"p1"}), 1u);
  EXPECT_EQ(Requests("GET " + ClaimPath("c1")).size(), 1u);
  const json got = Claim("c1");
  EXPECT_EQ(got["metadata"]["labels"]["touched"], "yes");
  EXPECT_EQ(got["status"]["reservedFor"][0]["name"], "p1");
}

// A claim write that fails (the server's claim is being deleted, which the watch has not shown
// yet) fails the binding: nothing is bound, the pod reports the PreBind error and backs off, and
// its assumed allocation is forgotten.
TEST_F(DraLoopTest, FailedClaimWriteFailsTheBindingAndIsRetriedAfterABackoff) {
  AddCluster("n1", 1);
  AddClaim(GpuClaim("c1"));
  Add("Pod", PodWithClaim("p1", "c1"));
  json claim = Claim("c1");
  json deleting = claim;
  deleting["metadata"]["deletionTimestamp"] = "2026-12-03T10:00:00Z";
  server_.Put(ClaimPath("c1"), deleting);
  ASSERT_TRUE(loop_->Cycle());
  ASSERT_TRUE(writes_.WaitIdle(10));
  EXPECT_EQ(Bound({"p1"}), 0u);
  EXPECT_TRUE(Requests("POST " + PodPath("p1") + "/binding").empty())
      << ::testing::PrintToString(server_.Requests());
  const json c = server_.Get(PodPath("p1"))["status"]["conditions"][0];
  EXPECT_EQ(c["reason"], "SchedulerError");
  EXPECT_THAT(c.value("message", ""),
              HasSubstr("running PreBind plugin \"DynamicResources\": claim ns/c1 got deleted"));
  EXPECT_EQ(loop_->InFlight(), 0u);
  // The claim is back as it was: after the backoff the pod is bound.
  server_.Put(ClaimPath("c1"), claim);
  SyncClaims({"c1"});
  Sync({"p1"}, {});
  now_ += 1'000'000;
  ASSERT_TRUE(loop_->Cycle());
  ASSERT_TRUE(writes_.WaitIdle(10));
  EXPECT_EQ(Bound({"p1"}), 1u);
}

// A PodGroup's claim (KEP-5729): one claim for the whole gang, allocated once and reserved for
// the PodGroup (upstream resourceclaim.BindTo), not for each pod.
TEST_F(DraLoopTest, PodGroupClaimIsReservedForTheGroup) {
  AddCluster("n1", 1);
  json pg = PodGroup("pg", 2);
  pg["spec"]["resourceClaims"] = {{{"name", "gpu"}, {"resourceClaimName", "shared"}}};
  Add("PodGroup", pg);
  AddClaim(GpuClaim("shared"));
  for (const char* p : {"m0", "m1"}) {
    json pod = Pod(p, "pg", "1");
    pod["spec"]["resourceClaims"] = {{{"name", "gpu"}, {"resourceClaimName", "shared"}}};
    Add("Pod", pod);
  }
  ASSERT_TRUE(loop_->Cycle());
  ASSERT_TRUE(writes_.WaitIdle(10));
  EXPECT_EQ(Bound({"m0", "m1"}), 2u);
  const json got = Claim("shared");
  EXPECT_EQ(got["status"]["allocation"]["devices"]["results"].size(), 1u);
  EXPECT_EQ(got["status"]["reservedFor"],
            json::array({{{"apiGroup", "scheduling.k8s.io"},
                          {"resource", "podgroups"},
                          {"name", "pg"},
                          {"uid", "uid-pg"}}}));
}

// Run, the loop itself: after the watch confirmed earlier bindings, a new pod is still scheduled
// (a bug: the stale assumptions counted as pods in flight and every later cycle was skipped).
TEST_F(LoopTest, RunKeepsSchedulingAfterTheWatchConfirmedEarlierBindings) {
  Add("Node", Node("n1", "8"));
  Add("PodGroup", PodGroup("pg", 4));
  const auto pods = Names("p", 4);
  for (const auto& p : pods) Add("Pod", Pod(p, "pg", "1"));
  std::atomic<bool> stop{false};
  std::thread runner([&] { loop_->Run([&] { return stop.load(); }, [] { return true; }); });
  // Waits on the fake server's state, re-checked after every request it gets, up to 10 s.
  auto wait_bound = [&](const std::vector<std::string>& names) {
    (void)server_.WaitFor([&] { return Bound(names) == names.size(); }, 10);
    return Bound(names);
  };
  EXPECT_EQ(wait_bound(pods), 4u);
  Sync(pods, {"pg"});
  Add("Pod", Pod("late", "", "1"));
  EXPECT_EQ(wait_bound({"late"}), 1u);
  stop = true;
  runner.join();
}

}  // namespace
}  // namespace wasched::live
