// File: tests/manifests_test.cc
//
// Issue 19's acceptance on the real manifests (tests/data/manifests, tests/data/convert,
// tests/data/dra; ORIGIN.md there): every CORE-SET manifest of a kind wasched's controllers
// handle (JobSet, LeaderWorkerSet, Deployment, ReplicaSet) loads and, with a node set that fits
// it, schedules with the pods its controllers create — the real `wasched` binary, no hand
// expansion. The JobSet workload-aware-scheduling examples (after `convert` of their
// scheduling.k8s.io/v1alpha2 Workload / PodGroup): the gang binds all 6 pods or none, the
// preemption pair evicts the low-priority JobSet whole, the TAS example lands in one rack.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "support/process.h"

namespace wasched {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using ::testing::HasSubstr;

const std::string kData = std::string(WASCHED_TESTDATA_DIR) + "/data/";
const std::string kManifests = kData + "manifests/";
const std::string kWas = kData + "convert/jobset/workload-aware-scheduling/";
const std::string kWasJobSets = kManifests + "jobset/workload-aware-scheduling/";

class TempFile {
 public:
  TempFile(const std::string& text, const std::string& name) {
    static int counter = 0;
    path_ = (fs::temp_directory_path() / ("wasched-manifests-" + std::to_string(::getpid()) +
                                          "-" + std::to_string(counter++) + "-" + name))
                .string();
    std::ofstream(path_, std::ios::binary) << text;
  }
  ~TempFile() {
    std::error_code ec;
    fs::remove(path_, ec);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// NodeSpec: `count` nodes named `<prefix>-<i>` with `allocatable` and labels from `labels(i)`.
struct NodeSpec {
  std::string prefix;
  int count = 1;
  std::map<std::string, std::string> allocatable;
  std::function<std::map<std::string, std::string>(int)> labels;
};

std::string NodesYaml(const std::vector<NodeSpec>& specs) {
  std::string out;
  for (const NodeSpec& s : specs) {
    for (int i = 0; i < s.count; ++i) {
      out += fmt::format("---\napiVersion: v1\nkind: Node\nmetadata:\n  name: {}-{}\n", s.prefix, i);
      if (s.labels) {
        out += "  labels:\n";
        for (const auto& [k, v] : s.labels(i)) out += fmt::format("    {}: \"{}\"\n", k, v);
      }
      out += "status:\n  allocatable:\n";
      std::map<std::string, std::string> alloc = s.allocatable;
      alloc.emplace("pods", "110");
      for (const auto& [k, v] : alloc) out += fmt::format("    {}: \"{}\"\n", k, v);
    }
  }
  return out;
}

test::CommandResult Wasched(std::vector<std::string> args) {
  args.insert(args.begin(), WASCHED_BINARY);
  return test::RunCommand(args);
}

// Schedule: `schedule -o json` on `files` (exit 0 expected).
json Schedule(const std::vector<std::string>& files, const std::vector<std::string>& flags = {}) {
  std::vector<std::string> args = {"schedule", "-o", "json"};
  for (const std::string& f : files) {
    args.push_back("-f");
    args.push_back(f);
  }
  for (const std::string& f : flags) args.push_back(f);
  const test::CommandResult r = Wasched(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  if (r.exit_code != 0) return json::object();
  return json::parse(r.out);
}

// Converted: the v1beta1 form of `files` (`convert --to v1beta1`).
std::string Converted(const std::vector<std::string>& files) {
  std::vector<std::string> args = {"convert", "--to", "v1beta1"};
  for (const std::string& f : files) {
    args.push_back("-f");
    args.push_back(f);
  }
  const test::CommandResult r = Wasched(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

std::map<std::string, std::string> Bindings(const json& result) {
  std::map<std::string, std::string> out;
  for (const json& b : result.value("bindings", json::array())) out[b["pod"]] = b["node"];
  return out;
}

std::map<std::string, std::string> PendingReasons(const json& result) {
  std::map<std::string, std::string> out;
  for (const json& p : result.value("pending", json::array())) out[p["pod"]] = p["reason"];
  return out;
}

// GeneratedPods: "ns/name" of the pods the controllers created.
std::vector<std::string> GeneratedPods(const json& result) {
  std::vector<std::string> out;
  for (const json& o : result.value("generated", json::array())) {
    if (o["kind"] != "Pod") continue;
    const json& m = o["metadata"];
    out.push_back(m.value("namespace", std::string("default")) + "/" + m["name"].get<std::string>());
  }
  return out;
}

int CountKind(const json& result, const std::string& kind) {
  int n = 0;
  for (const json& o : result.value("generated", json::array())) n += o["kind"] == kind ? 1 : 0;
  return n;
}

// ---- JobSet -------------------------------------------------------------------------------

// The gang example (3 replicated jobs × 2 pods × 4 CPU, PodGroup minCount 6): all or none.
TEST(ManifestsTest, JobSetWasGangBindsAllSixOrNone) {
  TempFile was(Converted({kWas + "workload.yaml", kWas + "podgroup.yaml"}), "was.yaml");
  TempFile fits(NodesYaml({{"worker", 3, {{"cpu", "8"}, {"memory", "16Gi"}}, nullptr}}), "n.yaml");
  const json all = Schedule({kWasJobSets + "jobset.yaml", was.path(), fits.path()});
  EXPECT_EQ(GeneratedPods(all).size(), 6u);
  EXPECT_EQ(CountKind(all, "Job"), 3);
  EXPECT_EQ(Bindings(all).size(), 6u);
  for (const auto& [pod, node] : Bindings(all)) EXPECT_THAT(pod, HasSubstr("default/js-rj-"));
  TempFile short_nodes(NodesYaml({{"worker", 2, {{"cpu", "8"}, {"memory", "16Gi"}}, nullptr}}), "s.yaml");
  const json none = Schedule({kWasJobSets + "jobset.yaml", was.path(), short_nodes.path()});
  EXPECT_TRUE(Bindings(none).empty());
  EXPECT_EQ(PendingReasons(none).size(), 6u);
}

// The preemption pair: the high-priority JobSet (4 × 3 CPU, gang 4) evicts the running
// low-priority one (disruptionMode PodGroup → all) whole.
TEST(ManifestsTest, JobSetWasPreemptionEvictsTheLowPriorityJobSetWhole) {
  TempFile low_was(Converted({kWas + "preemption__low-priority-jobset.yaml"}), "low.yaml");
  TempFile high_was(Converted({kWas + "preemption__high-priority-jobset.yaml"}), "high.yaml");
  TempFile nodes(NodesYaml({{"worker", 4, {{"cpu", "4"}, {"memory", "16Gi"}}, nullptr}}), "n.yaml");
  // Round 1: the low-priority JobSet alone runs on the four nodes.
  const json first = Schedule({kWas + "preemption__low-priority.yaml", kWas + "preemption__high-priority.yaml",
                               low_was.path(), nodes.path()});
  ASSERT_EQ(Bindings(first).size(), 4u);
  // Its Jobs and pods, now running.
  json running = json::array();
  const auto bound = Bindings(first);
  for (json o : first["generated"]) {
    if (o["kind"] == "Pod") {
      o["spec"]["nodeName"] = bound.at("default/" + o["metadata"]["name"].get<std::string>());
    }
    if (o["kind"] == "Pod" || o["kind"] == "Job") running.push_back(o);
  }
  TempFile state(json{{"apiVersion", "v1"}, {"kind", "List"}, {"items", running}}.dump(), "state.json");
  // Round 2: the high-priority JobSet arrives.
  const json second = Schedule({kWas + "preemption__low-priority.yaml", kWas + "preemption__high-priority.yaml",
                                low_was.path(), high_was.path(), nodes.path(), state.path()});
  std::set<std::string> evicted;
  for (const json& e : second["evictions"]) evicted.insert(e["pod"]);
  EXPECT_EQ(evicted.size(), 4u);
  for (const std::string& p : evicted) EXPECT_THAT(p, HasSubstr("default/lp-js-rj-"));
  const auto placed = Bindings(second);
  EXPECT_EQ(placed.size(), 4u);
  for (const auto& [pod, node] : placed) EXPECT_THAT(pod, HasSubstr("default/hp-js-rj-"));
}

// The TAS example (2 × 2 pods of 500m, gang 4, topology.example.com/rack): one rack.
TEST(ManifestsTest, JobSetWasTopologyLandsInOneRack) {
  TempFile was(Converted({kWas + "tas__workload.yaml", kWas + "tas__podgroup.yaml"}), "was.yaml");
  // rack-a: one node (room for 2 pods); rack-b: two nodes (room for 4): only rack-b holds all.
  TempFile nodes(NodesYaml({{"a", 1, {{"cpu", "1"}, {"memory", "4Gi"}},
                             [](int) { return std::map<std::string, std::string>{{"topology.example.com/rack", "rack-a"}}; }},
                            {"b", 2, {{"cpu", "1"}, {"memory", "4Gi"}},
                             [](int) { return std::map<std::string, std::string>{{"topology.example.com/rack", "rack-b"}}; }}}),
                 "n.yaml");
  const json result = Schedule({kWasJobSets + "tas__jobset.yaml", was.path(), nodes.path()});
  const auto bound = Bindings(result);
  ASSERT_EQ(bound.size(), 4u);
  for (const auto& [pod, node] : bound) EXPECT_EQ(node.substr(0, 2), "b-") << pod;
}

// The DRA example: 3 × 2 pods sharing one PodGroup-level GPU claim.
TEST(ManifestsTest, JobSetWasDraSharesOneClaim) {
  TempFile was(Converted({kWas + "dra__workload.yaml", kWas + "dra__podgroup.yaml"}), "was.yaml");
  TempFile nodes(NodesYaml({{"dra-example-driver-cluster-worker", 1, {{"cpu", "8"}, {"memory", "32Gi"}}, nullptr}}),
                 "n.yaml");
  // The driver's slice names node dra-example-driver-cluster-worker; our node is "-0".
  std::string slices = test::ReadFile(kData + "dra/dra-example-driver/resourceslice-list-kubectl-output.yaml");
  for (std::string::size_type at = 0;
       (at = slices.find("nodeName: dra-example-driver-cluster-worker", at)) != std::string::npos;) {
    slices.insert(at + std::string("nodeName: dra-example-driver-cluster-worker").size(), "-0");
    at += 10;
  }
  TempFile slice_file(slices, "slices.yaml");
  const json result = Schedule({kWasJobSets + "dra__jobset.yaml", kWasJobSets + "dra__resourceclaimtemplate.yaml",
                                kData + "dra/classes/device-classes.yaml", slice_file.path(), was.path(),
                                nodes.path()});
  EXPECT_EQ(Bindings(result).size(), 6u);
  ASSERT_EQ(result["allocations"].size(), 1u);  // one claim for the whole group
}

// Kueue's TAS JobSet (1 × 4 pods, 1 CPU each; the Kueue annotation is Kueue's, not the scheduler's).
TEST(ManifestsTest, KueueJobSetSchedules) {
  TempFile nodes(NodesYaml({{"n", 2, {{"cpu", "2"}, {"memory", "4Gi"}}, nullptr}}), "n.yaml");
  const json result = Schedule({kManifests + "kueue/jobs__sample-jobset-tas-required.yaml", nodes.path()});
  EXPECT_EQ(GeneratedPods(result).size(), 4u);
  EXPECT_EQ(Bindings(result).size(), 4u);
}

// Exclusive placement (JobSet's webhook): each Job's leader gets the required affinity terms on
// the node-pool key (pods of its own Job, any namespace) and anti-affinity to the other Jobs'
// pods; its followers are created once it runs, with a nodeSelector on its pool. Every pod
// binds, each Job in one pool, no two Jobs in the same pool.
void ExpectExclusivePlacement(const std::string& file, size_t jobs, size_t pods_per_job,
                              const NodeSpec& nodes_spec) {
  TempFile nodes(NodesYaml({nodes_spec}), "n.yaml");
  std::vector<std::string> args = {"schedule", "-o", "json", "-f", file, "-f", nodes.path()};
  const test::CommandResult r = Wasched(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json result = json::parse(r.out);
  EXPECT_EQ(CountKind(result, "Job"), static_cast<int>(jobs));
  EXPECT_EQ(GeneratedPods(result).size(), jobs * pods_per_job);
  const auto bound = Bindings(result);
  EXPECT_EQ(bound.size(), jobs * pods_per_job) << r.out;
  std::map<std::string, std::set<std::string>> pools_of_job;
  size_t leaders = 0;
  for (const json& o : result["generated"]) {
    if (o["kind"] != "Pod") continue;
    const json& m = o["metadata"];
    const std::string key = m.value("namespace", std::string("default")) + "/" +
                            m["name"].get<std::string>();
    const auto it = bound.find(key);
    if (it == bound.end()) continue;
    const int node_index = std::stoi(it->second.substr(it->second.rfind('-') + 1));
    const std::string pool = nodes_spec.labels(node_index).at("cloud.google.com/gke-nodepool");
    pools_of_job[m["labels"]["batch.kubernetes.io/job-name"].get<std::string>()].insert(pool);
    const json& affinity = o["spec"].value("affinity", json::object());
    if (affinity.contains("podAffinity")) {
      ++leaders;
      EXPECT_EQ(affinity["podAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"][0]["topologyKey"],
                "cloud.google.com/gke-nodepool");
      EXPECT_EQ(affinity["podAntiAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"][0]["topologyKey"],
                "cloud.google.com/gke-nodepool");
    }
  }
  EXPECT_EQ(leaders, jobs);
  ASSERT_EQ(pools_of_job.size(), jobs);
  std::set<std::string> pools;
  for (const auto& [job, ps] : pools_of_job) {
    EXPECT_EQ(ps.size(), 1u) << job << " spans several pools";
    pools.insert(ps.begin(), ps.end());
  }
  EXPECT_EQ(pools.size(), jobs) << "two Jobs share a pool";
  EXPECT_TRUE(result.value("pending", json::array()).empty()) << r.out;
}

TEST(ManifestsTest, JobSetExclusivePlacementGivesEachJobItsOwnPool) {
  ExpectExclusivePlacement(kManifests + "jobset/examples/simple__exclusive-placement.yaml", 3, 3,
                           {"pool", 9, {{"cpu", "8"}, {"memory", "16Gi"}},
                            [](int i) {
                              return std::map<std::string, std::string>{
                                  {"cloud.google.com/gke-nodepool", "pool-" + std::to_string(i / 3)}};
                            }});
}

TEST(ManifestsTest, TpuMultisliceGivesEachSliceItsOwnPool) {
  ExpectExclusivePlacement(kManifests + "jobset/examples/tpu-multislice__v6e-jax-workload.yaml", 2, 4,
                           {"tpu", 8, {{"cpu", "200"}, {"memory", "700Gi"}, {"google.com/tpu", "4"}},
                            [](int i) {
                              return std::map<std::string, std::string>{
                                  {"cloud.google.com/gke-nodepool", "slice-" + std::to_string(i / 4)},
                                  {"cloud.google.com/gke-tpu-accelerator", "tpu-v6e-slice"},
                                  {"cloud.google.com/gke-tpu-topology", "4x4"}};
                            }});
}

// ---- LeaderWorkerSet ----------------------------------------------------------------------

NodeSpec GpuNodes(int n) {
  return {"gpu", n,
          {{"cpu", "192"}, {"memory", "2Ti"}, {"nvidia.com/gpu", "8"}, {"ephemeral-storage", "2Ti"}},
          nullptr};
}

TEST(ManifestsTest, LwsVllmSchedulesEveryGroup) {
  TempFile nodes(NodesYaml({GpuNodes(4)}), "n.yaml");
  const json result = Schedule({kManifests + "lws/vllm__GPU__lws.yaml", nodes.path()});
  EXPECT_EQ(CountKind(result, "StatefulSet"), 3);  // leader set + a worker set per group
  const auto bound = Bindings(result);
  EXPECT_EQ(bound.size(), 4u);
  for (const char* pod : {"default/vllm-0", "default/vllm-0-1", "default/vllm-1", "default/vllm-1-1"}) {
    EXPECT_EQ(bound.count(pod), 1u) << pod;
  }
}

TEST(ManifestsTest, LwsKueueTopologyExampleSchedules) {
  TempFile nodes(NodesYaml({GpuNodes(2)}), "n.yaml");
  const json result =
      Schedule({kManifests + "lws/leaderworkerset__topology-aware-scheduling__vllm-kueue.yaml", nodes.path()});
  const auto bound = Bindings(result);
  EXPECT_EQ(bound.size(), 2u);
  EXPECT_EQ(bound.count("default/vllm-0"), 1u);
  EXPECT_EQ(bound.count("default/vllm-0-1"), 1u);
}

// Volcano's LWS sample: its worker template (the leaders' too: it has no leader template) names
// schedulerName volcano — another scheduler's pods, created and left to it.
TEST(ManifestsTest, LwsVolcanoSampleLeavesVolcanoPodsToVolcano) {
  TempFile nodes(NodesYaml({{"n", 2, {{"cpu", "4"}, {"memory", "8Gi"}}, nullptr}}), "n.yaml");
  const json result = Schedule({kManifests + "lws/sample__gang-scheduling__lws-sample-volcano.yaml", nodes.path()});
  EXPECT_EQ(GeneratedPods(result).size(), 8u);
  EXPECT_TRUE(Bindings(result).empty());
  int not_handled = 0;
  for (const auto& [pod, reason] : PendingReasons(result)) not_handled += reason == "NotHandled" ? 1 : 0;
  EXPECT_EQ(not_handled, 8);
}

// LWS with spec.scheduling (KEP-666): a gang PodGroup per group; and the composite option.
TEST(ManifestsTest, LwsGangPerGroup) {
  std::string lws = test::ReadFile(kManifests + "lws/sample__lws-multi-template.yaml");
  lws.replace(lws.find("  replicas: 3\n"), 14, "  replicas: 3\n  scheduling: {}\n");
  TempFile file(lws, "lws.yaml");
  // Room for two groups of 4 pods (50m CPU each) only: the third stays whole and pending.
  TempFile nodes(NodesYaml({{"n", 1, {{"cpu", "400m"}, {"memory", "1Gi"}}, nullptr}}), "n.yaml");
  const json result = Schedule({file.path(), nodes.path()});
  EXPECT_EQ(CountKind(result, "PodGroup"), 3);
  EXPECT_EQ(Bindings(result).size(), 8u);
  EXPECT_EQ(PendingReasons(result).size(), 4u);
  const json composite = Schedule({kManifests + "lws/sample__lws-multi-template.yaml", nodes.path()},
                                  {"--lws-composite-groups"});
  EXPECT_EQ(CountKind(composite, "CompositePodGroup"), 3);
  EXPECT_EQ(Bindings(composite).size(), 8u);
}

// ---- Deployment, ReplicaSet ---------------------------------------------------------------

// The AI-conformance DRA Deployment (one replica, one GPU from a template).
TEST(ManifestsTest, ConformanceDeploymentSchedules) {
  TempFile nodes(NodesYaml({{"conformance-test-np1-qcqc8-bpdtl-rcj8j", 1, {{"cpu", "8"}, {"memory", "32Gi"}}, nullptr}}),
                 "n.yaml");
  std::string text = test::ReadFile(nodes.path());
  // NodesYaml appends "-0"; the slices name the node without it.
  text.replace(text.find("rcj8j-0"), 7, "rcj8j");
  TempFile node_file(text, "node.yaml");
  const json result = Schedule({kManifests + "k8s-ai-conformance/v1.36_vks_dra_support__03.yaml",
                                kData + "dra/k8s-ai-conformance/v1.36_vks_dra_support__01.yaml",
                                kData + "dra/k8s-ai-conformance/v1.36_vks_dra_support__02.yaml",
                                kData + "dra/classes/device-classes.yaml", node_file.path()});
  EXPECT_EQ(CountKind(result, "ReplicaSet"), 1);
  const auto bound = Bindings(result);
  ASSERT_EQ(bound.size(), 1u);
  EXPECT_THAT(bound.begin()->first, HasSubstr("gpu-test1/dra-gpu-example-"));
}

// dra-example-driver's PodGroup-claim example: two Deployments × 2 pods in two gangs.
TEST(ManifestsTest, DraExampleDeploymentsScheduleInTheirGroups) {
  const std::string file =
      kData + "convert/dra-example-driver/podgroup-resourceclaimtemplate__podgroup-resourceclaimtemplate.yaml";
  TempFile converted(Converted({file}), "converted.yaml");
  TempFile nodes(NodesYaml({{"dra-example-driver-cluster-worker", 1, {{"cpu", "8"}, {"memory", "32Gi"}}, nullptr}}),
                 "n.yaml");
  std::string slices = test::ReadFile(kData + "dra/dra-example-driver/resourceslice-list-kubectl-output.yaml");
  for (std::string::size_type at = 0;
       (at = slices.find("nodeName: dra-example-driver-cluster-worker", at)) != std::string::npos;) {
    slices.insert(at + std::string("nodeName: dra-example-driver-cluster-worker").size(), "-0");
    at += 10;
  }
  TempFile slice_file(slices, "slices.yaml");
  const json result = Schedule({converted.path(), kData + "dra/classes/device-classes.yaml",
                                slice_file.path(), nodes.path()});
  EXPECT_EQ(CountKind(result, "ReplicaSet"), 2);
  EXPECT_EQ(Bindings(result).size(), 4u);
  EXPECT_EQ(result["allocations"].size(), 2u);  // one GPU per group
}

// scheduler-plugins' coscheduling ReplicaSet, as a plain ReplicaSet (no convert): 6 pods.
TEST(ManifestsTest, CoschedulingReplicaSetMakesSixPods) {
  TempFile nodes(NodesYaml({{"n", 3, {{"cpu", "8"}, {"memory", "8Gi"}}, nullptr}}), "n.yaml");
  // The coscheduling PodGroup (scheduling.x-k8s.io) is another scheduler's object: an error
  // pointing at `wasched convert` unless skipped.
  const json result =
      Schedule({kManifests + "scheduler-plugins/coscheduling-podgroup-replicaset.yaml",
                nodes.path()},
               {"--skip-unknown-kinds"});
  EXPECT_EQ(GeneratedPods(result).size(), 6u);
  EXPECT_EQ(Bindings(result).size(), 6u);  // 2 pods of 3 CPU per 8-CPU node
}

// A StatefulSet (OrderedReady, the default) is scheduled in rounds: ordinal N+1 is created once
// N runs; all three bind, and the result lists them once each. (No CORE-SET manifest is a
// StatefulSet: this one is written for the test.)
TEST(ManifestsTest, StatefulSetOrderedReadyBindsEveryOrdinalInRounds) {
  TempFile sts(R"(apiVersion: apps/v1
kind: StatefulSet
metadata: {name: web, namespace: shop}
spec:
  replicas: 3
  serviceName: web
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: registry.k8s.io/pause:3.10, resources: {requests: {cpu: "1"}}}]}
)",
               "sts.yaml");
  TempFile nodes(NodesYaml({{"n", 2, {{"cpu", "2"}, {"memory", "4Gi"}}, nullptr}}), "n.yaml");
  const json result = Schedule({sts.path(), nodes.path()});
  const auto bound = Bindings(result);
  ASSERT_EQ(bound.size(), 3u);
  for (const char* pod : {"shop/web-0", "shop/web-1", "shop/web-2"}) EXPECT_EQ(bound.count(pod), 1u) << pod;
  EXPECT_TRUE(PendingReasons(result).empty());
  EXPECT_EQ(GeneratedPods(result).size(), 3u);
  // compile shows the first pod and names the waiting ones.
  const test::CommandResult c = Wasched({"compile", "-f", sts.path()});
  EXPECT_EQ(c.exit_code, 0);
  EXPECT_THAT(c.out, HasSubstr("  name: web-0\n"));
  EXPECT_THAT(c.out, ::testing::Not(HasSubstr("  name: web-1\n")));
  EXPECT_THAT(c.err, HasSubstr("creates web-1 only once shop/web-0 is running"));
}

// `validate` checks what the controllers would create: a JobSet whose pods name a missing
// PriorityClass is an error naming the created pod.
TEST(ManifestsTest, ValidateChecksCreatedObjects) {
  std::string js = test::ReadFile(kManifests + "kueue/jobs__sample-jobset-tas-required.yaml");
  const std::string spec_line = "            spec:\n";
  js.replace(js.find(spec_line), spec_line.size(), spec_line + "              priorityClassName: missing\n");
  TempFile file(js, "js.yaml");
  // The API server accepts the JobSet; the pods its controllers would create name a missing
  // PriorityClass: a warning naming the pod and the field, and `schedule` refuses the input.
  const test::CommandResult r = Wasched({"validate", "-f", file.path()});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("warning: "));
  EXPECT_THAT(r.out, HasSubstr("Pod default/jobset-tas-required-workers-0-"));
  EXPECT_THAT(r.out, HasSubstr("priorityClassName"));
  EXPECT_THAT(r.out, HasSubstr("when the controllers create it"));
  EXPECT_EQ(Wasched({"schedule", "-f", file.path()}).exit_code, 1);
}

// ---- convert from other gang schedulers ----------------------------------------------------

// ConvertValidated: `convert` of `files` (exit 0), checked by `validate` (exit 0), as a file.
std::unique_ptr<TempFile> ConvertValidated(const std::vector<std::string>& files) {
  auto out = std::make_unique<TempFile>(Converted(files), "converted.yaml");
  const test::CommandResult v = Wasched({"validate", "-f", out->path()});
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
  return out;
}

// coscheduling: minMember 3 of the ReplicaSet's 6 pods (3 CPU each).
TEST(ManifestsTest, ConvertedCoschedulingIsAGangOfThree) {
  auto converted = ConvertValidated({kManifests + "scheduler-plugins/coscheduling-podgroup-replicaset.yaml"});
  TempFile one(NodesYaml({{"n", 1, {{"cpu", "8"}, {"memory", "8Gi"}}, nullptr}}), "one.yaml");
  EXPECT_TRUE(Bindings(Schedule({converted->path(), one.path()})).empty());  // 2 fit, minCount 3
  TempFile two(NodesYaml({{"n", 2, {{"cpu", "8"}, {"memory", "8Gi"}}, nullptr}}), "two.yaml");
  EXPECT_EQ(Bindings(Schedule({converted->path(), two.path()})).size(), 4u);
}

// Volcano Job: minAvailable 3 of 6 one-CPU pods.
TEST(ManifestsTest, ConvertedVolcanoJobKeepsItsGang) {
  auto converted = ConvertValidated({kManifests + "volcano/examples/job.yaml"});
  TempFile small(NodesYaml({{"n", 1, {{"cpu", "2"}, {"memory", "8Gi"}}, nullptr}}), "small.yaml");
  EXPECT_TRUE(Bindings(Schedule({converted->path(), small.path()})).empty());
  TempFile four(NodesYaml({{"n", 1, {{"cpu", "4"}, {"memory", "8Gi"}}, nullptr}}), "four.yaml");
  const json result = Schedule({converted->path(), four.path()});
  EXPECT_EQ(Bindings(result).size(), 4u);
  for (const auto& [pod, node] : Bindings(result)) EXPECT_THAT(pod, HasSubstr("default/test-job-default-nginx-"));
}

// Volcano's network-topology Job: 8 pods of 4 CPU, minAvailable 4.
TEST(ManifestsTest, ConvertedVolcanoTopologyJobKeepsItsGang) {
  auto converted =
      ConvertValidated({kManifests + "volcano/doc-snippets/vcjob-network-topology-3.3.2-partition-policy.yaml"});
  TempFile three(NodesYaml({{"n", 3, {{"cpu", "4"}, {"memory", "8Gi"}}, nullptr}}), "three.yaml");
  EXPECT_TRUE(Bindings(Schedule({converted->path(), three.path()})).empty());
  TempFile four(NodesYaml({{"n", 4, {{"cpu", "4"}, {"memory", "8Gi"}}, nullptr}}), "four.yaml");
  EXPECT_EQ(Bindings(Schedule({converted->path(), four.path()})).size(), 4u);
}

// Volcano PodGroup (minMember 1) and a pod that names it (written for this test).
TEST(ManifestsTest, ConvertedVolcanoPodGroupSchedulesItsPod) {
  TempFile pod("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: default\n  annotations:\n"
               "    scheduling.k8s.io/group-name: test-pg\nspec:\n  schedulerName: volcano\n"
               "  containers: [{name: c, image: registry.k8s.io/pause:3.10, resources: {requests: {cpu: \"1\"}}}]\n",
               "pod.yaml");
  auto converted = ConvertValidated({kManifests + "volcano/examples/apis-artifacts__podgroup.yaml", pod.path()});
  TempFile nodes(NodesYaml({{"n", 1, {{"cpu", "2"}, {"memory", "8Gi"}}, nullptr}}), "n.yaml");
  EXPECT_EQ(Bindings(Schedule({converted->path(), nodes.path()})).size(), 1u);
}

// Kueue's plain pod group: 2 pods of 3 CPU, total count 2.
TEST(ManifestsTest, ConvertedKueuePodGroupIsAGangOfTwo) {
  auto converted = ConvertValidated({kManifests + "kueue/pods-kueue__kueue-pod-group.yaml"});
  TempFile one(NodesYaml({{"n", 1, {{"cpu", "4"}, {"memory", "8Gi"}}, nullptr}}), "one.yaml");
  EXPECT_TRUE(Bindings(Schedule({converted->path(), one.path()})).empty());
  TempFile two(NodesYaml({{"n", 2, {{"cpu", "4"}, {"memory", "8Gi"}}, nullptr}}), "two.yaml");
  EXPECT_EQ(Bindings(Schedule({converted->path(), two.path()})).size(), 2u);
}

}  // namespace
}  // namespace wasched
