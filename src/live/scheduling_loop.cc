// File: live/scheduling_loop.cc
#include "live/scheduling_loop.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "codec/loader.h"
#include "kube/resource_type.h"
#include "validation/dra_validation.h"
#include "validation/object_set_validation.h"

namespace wasched::live {
namespace {

size_t TypeIndex(const char* kind) {
  const auto& resources = kube::SchedulingResources();
  for (size_t t = 0; t < resources.size(); ++t) {
    if (resources[t].kind == kind) return t;
  }
  return resources.size();
}

ObjectRef RefOf(const std::string& key, const std::string& uid) {
  ObjectRef ref;
  const size_t slash = key.find('/');
  if (slash == std::string::npos) {
    ref.name = key;
  } else {
    ref.namespace_ = key.substr(0, slash);
    ref.name = key.substr(slash + 1);
  }
  ref.uid = uid;
  return ref;
}

// PodEvent: an events.k8s.io/v1 Event about a pod.
EventSpec PodEvent(const ObjectRef& pod, const char* type, const char* reason, const char* action,
                   std::string note) {
  EventSpec e;
  e.regarding_kind = "Pod";
  e.regarding_api_version = "v1";
  e.regarding = pod;
  e.type = type;
  e.reason = reason;
  e.action = action;
  e.note = std::move(note);
  return e;
}

// SameButCounts: a and b differ only in their numbers ("0/49 nodes are available: 49 …" and
// "0/50 nodes …"): an unschedulable pod's message after a node it cannot use was added.
bool SameButCounts(const std::string& a, const std::string& b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const bool da = std::isdigit(static_cast<unsigned char>(a[i])) != 0;
    const bool db = std::isdigit(static_cast<unsigned char>(b[j])) != 0;
    if (da && db) {
      while (i < a.size() && std::isdigit(static_cast<unsigned char>(a[i]))) ++i;
      while (j < b.size() && std::isdigit(static_cast<unsigned char>(b[j]))) ++j;
      continue;
    }
    if (a[i] != b[j]) return false;
    ++i;
    ++j;
  }
  return i == a.size() && j == b.size();
}

double SteadySeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}


}  // namespace

SchedulingLoop::SchedulingLoop(ObjectStore* store, WriteQueue* writes, Metrics* metrics,
                               LoopOptions options, Logger log, WallClock clock)
    : store_(store), writes_(writes), metrics_(metrics), options_(std::move(options)),
      log_(std::move(log)), clock_(std::move(clock)), pod_type_(TypeIndex("Pod")),
      pod_group_type_(TypeIndex("PodGroup")), composite_type_(TypeIndex("CompositePodGroup")),
      node_type_(TypeIndex("Node")), claim_type_(TypeIndex("ResourceClaim")),
      slice_type_(TypeIndex("ResourceSlice")), class_type_(TypeIndex("DeviceClass")),
      decode_(LoadOptionsForCluster(), options_.prepare) {}

void SchedulingLoop::Run(const std::function<bool()>& stop, const std::function<bool()>& active) {
  uint64_t seen = ~uint64_t{0};
  while (!stop()) {
    const uint64_t now = store_->WaitForChange(seen, 1.0);
    if (stop()) break;
    if (!active() || !store_->AllSynced()) continue;
    bool waiting_for_victims = false;
    {
      std::lock_guard<std::mutex> lock(mu_);
      waiting_for_victims = !victims_.empty();
    }
    // A cycle when something changed, or to re-check victims (their deletion is a change too,
    // but the deadline is not).
    if (now == seen && !waiting_for_victims && !BackoffDue()) continue;
    seen = now;
    // Nothing of this scheduler's waits (every unbound pod is assumed): no decision to make.
    // Pruned first: assumptions the watch has confirmed since no longer count.
    Prune();
    if (!waiting_for_victims &&
        store_->CountUnbound(pod_type_, options_.scheduler.scheduler_name) <= InFlight()) {
      continue;
    }
    const double start = SteadySeconds();
    (void)CycleAfterPrune();
    // At most half of one core: after a cycle of d seconds, changes gather for d more (at most
    // 0.2 s), so a burst of pod creations is decided in a few large batches and the API server
    // keeps the CPU it needs to take the bindings.
    const double spent = std::min(SteadySeconds() - start, 0.2);
    std::this_thread::sleep_for(std::chrono::duration<double>(spent));
  }
}

bool SchedulingLoop::BackoffDue() {
  const int64_t now = clock_();
  std::lock_guard<std::mutex> lock(mu_);
  for (auto it = backoff_.begin(); it != backoff_.end(); ++it) {
    if (it->second.second <= now && it->second.second != 0) {
      it->second.second = 0;  // due once: the next cycle retries it
      return true;
    }
  }
  return false;
}

size_t SchedulingLoop::InFlight() const {
  std::lock_guard<std::mutex> lock(mu_);
  return assumed_.size();
}

void SchedulingLoop::LogOnce(const std::string& line) {
  if (logged_.insert(line).second) log_(0, line);
}

void SchedulingLoop::Prune() {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto it = assumed_.begin(); it != assumed_.end();) {
    auto facts = store_->Facts(pod_type_, it->first);
    const bool gone = !facts || facts->uid != it->second.uid;
    if (gone || !facts->node_name.empty()) {
      it = assumed_.erase(it);
    } else {
      ++it;
    }
  }
  for (auto it = backoff_.begin(); it != backoff_.end();) {
    auto facts = store_->Facts(pod_type_, it->first);
    if (!facts || !facts->node_name.empty()) {
      it = backoff_.erase(it);
    } else {
      ++it;
    }
  }
  // A claim allocation is confirmed once the watch shows the claim allocated (or it is gone).
  for (auto it = assumed_claims_.begin(); it != assumed_claims_.end();) {
    auto facts = store_->Facts(claim_type_, it->first);
    if (!facts || facts->uid != it->second.uid || facts->allocated) {
      it = assumed_claims_.erase(it);
    } else {
      ++it;
    }
  }
  for (auto it = victims_.begin(); it != victims_.end();) {
    auto facts = store_->Facts(pod_type_, it->first);
    if (!facts || facts->uid != it->second.first) {
      it = victims_.erase(it);
    } else {
      ++it;
    }
  }
  for (auto it = seen_.begin(); it != seen_.end();) {
    auto facts = store_->Facts(pod_type_, it->first);
    // Kept while its binding's answer is out: the bind worker records the SLI from it.
    if ((!facts || !facts->node_name.empty()) && binding_.count(it->first) == 0) {
      it = seen_.erase(it);
    } else {
      ++it;
    }
  }
}

void SchedulingLoop::Bind(const std::string& key, const std::string& uid, const std::string& node,
                          tl::expected<std::vector<ClaimToWrite>, std::string> claims) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    assumed_[key] = Assumed{node, uid};
    binding_.insert(key);
    if (claims) {
      for (const ClaimToWrite& c : *claims) {
        if (!c.write.allocation) continue;
        const std::string claim_key = c.write.namespace_ + "/" + c.write.name;
        auto& assumed = assumed_claims_[claim_key];
        if (assumed.uid == c.uid && !assumed.results.empty()) continue;  // a sibling's
        assumed.uid = c.uid;
        assumed.allocation = *c.write.allocation;
        assumed.results.clear();
        for (const nlohmann::json& r : (*c.write.allocation)["devices"]["results"]) {
          assumed.results.push_back({r.value("request", ""), r.value("driver", ""),
                                     r.value("pool", ""), r.value("device", "")});
        }
      }
    }
  }
  writes_->PushUrgent([this, key, uid, node, claims = std::move(claims)](Writer& writer) {
    // Forget the assumption, report it as upstream's failure handler does (PodScheduled=False
    // SchedulerError and a FailedScheduling event with the failing plugin's error) and retry
    // after a backoff (1 s doubling to 10 s per consecutive failure). `unwritten`: the claims
    // whose allocation was not recorded (their assumed allocation goes too).
    auto fail = [&](const std::string& message, const std::vector<std::string>& unwritten) {
      const int64_t now = clock_();
      log_(0, fmt::format("binding {} to {} failed: {}", key, node, message));
      {
        std::lock_guard<std::mutex> lock(mu_);
        binding_.erase(key);
        auto it = assumed_.find(key);
        if (it != assumed_.end() && it->second.uid == uid) assumed_.erase(it);
        for (const std::string& c : unwritten) assumed_claims_.erase(c);
        auto& [failures, not_before] = backoff_[key];
        failures = std::min(failures + 1, 5);
        not_before = now + std::min<int64_t>(int64_t{1'000'000} << (failures - 1), 10'000'000);
      }
      const ObjectRef ref = RefOf(key, uid);
      auto written = writer.SetPodScheduledFalse(ref, "SchedulerError", message, "");
      metrics_->RecordWrite("patch", written.has_value());
      metrics_->RecordAttempt("error", 0);
      if (options_.events) {
        (void)writer.Event(PodEvent(ref, "Warning", "FailedScheduling", "Scheduling", message));
      }
      store_->Poke();
    };
    // Upstream's Unreserve: the pod leaves status.reservedFor of the claims reserved for it
    // (a PodGroup's reservation stays: other members may use the claim).
    auto unreserve = [&](size_t written) {
      for (size_t i = 0; i < written; ++i) {
        const ClaimToWrite& c = (*claims)[i];
        if (c.write.consumer.resource != "pods") continue;
        auto done = writer.UnreserveClaim(
            ObjectRef{c.write.namespace_, c.write.name, c.uid}, uid);
        metrics_->RecordWrite("patch", done.has_value());
      }
    };
    if (!claims) {
      metrics_->RecordBinding(false);
      fail(fmt::format("running PreBind plugin \"DynamicResources\": {}", claims.error()), {});
      return;
    }
    // PreBind: every claim written before the binding.
    for (size_t i = 0; i < claims->size(); ++i) {
      const ClaimToWrite& c = (*claims)[i];
      auto reserved = writer.ReserveClaim(c.write, c.cached);
      metrics_->RecordWrite("update", reserved.has_value());
      if (reserved) continue;
      std::vector<std::string> unwritten;
      for (size_t j = i; j < claims->size(); ++j) {
        if ((*claims)[j].write.allocation) {
          unwritten.push_back((*claims)[j].write.namespace_ + "/" + (*claims)[j].write.name);
        }
      }
      unreserve(i);
      metrics_->RecordBinding(false);
      fail(fmt::format("running PreBind plugin \"DynamicResources\": {}", reserved.error().message),
           unwritten);
      return;
    }
    // The node may have been deleted while this binding waited in the queue: the API server
    // binds to a missing node without complaint (a breaker finding: 152 pods bound to deleted
    // nodes), so the watch's view decides first.
    tl::expected<void, kube::KubeError> bound;
    if (!store_->Facts(node_type_, node)) {
      bound = tl::unexpected(kube::KubeError{kube::KubeErrorKind::kNotFound,
                                             "node " + node + " no longer exists", 404});
    } else {
      bound = writer.Bind(RefOf(key, uid), node);
    }
    metrics_->RecordBinding(bound.has_value());
    const int64_t now = clock_();
    if (bound) {
      log_(2, fmt::format("bound {} to {}", key, node));
      std::lock_guard<std::mutex> lock(mu_);
      binding_.erase(key);
      auto it = seen_.find(key);
      if (it != seen_.end()) {
        metrics_->RecordScheduledPod(double(now - it->second.first_seen) / 1e6,
                                     it->second.attempts + 1);
        seen_.erase(it);
      }
      return;
    }
    unreserve(claims->size());
    fail(fmt::format("running Bind plugin \"DefaultBinder\": {}", bound.error().message), {});
  });
  if (options_.events) {
    (void)writes_->PushEvent([key, uid, node](Writer& writer) {
      (void)writer.Event(PodEvent(RefOf(key, uid), "Normal", "Scheduled", "Binding",
                                  fmt::format("Successfully assigned {} to {}", key, node)));
    });
  }
}

void SchedulingLoop::PlanClaims(api::ObjectSet* objects) {
  claim_plans_.clear();
  claim_waits_.clear();
  const std::string& me = options_.scheduler.scheduler_name;
  std::map<std::string, const api::PodGroup*> groups;  // built on the first pod with claims
  bool groups_built = false;
  for (api::Pod& pod : objects->pods) {
    if (pod.resource_claims.empty() || !pod.node_name.empty() || pod.scheduler_name != me) {
      continue;
    }
    if (!groups_built && options_.scheduler.dra_workload_resource_claims) {
      for (const api::PodGroup& g : objects->pod_groups) {
        if (!g.resource_claims.empty()) groups.emplace(api::NamespacedName(g.meta), &g);
      }
      groups_built = true;
    }
    const std::string key = api::NamespacedName(pod.meta);
    const api::PodGroup* group = nullptr;
    if (pod.pod_group_name) {
      auto g = groups.find(pod.meta.namespace_ + "/" + *pod.pod_group_name);
      if (g != groups.end()) group = g->second;
    }
    auto pod_facts = store_->Facts(pod_type_, key);
    std::vector<PlannedClaim> plan;
    std::string wait;
    for (const api::PodResourceClaim& entry : pod.resource_claims) {
      std::string name;
      if (entry.resource_claim_name) {
        name = *entry.resource_claim_name;
      } else {
        // resourceclaim.Name: a claim from a template is named in the pod's status.
        const std::string* recorded =
            pod_facts ? pod_facts->ResourceClaimStatus(entry.name) : nullptr;
        if (recorded == nullptr) {
          wait = fmt::format("pod \"{}\": ResourceClaim not created yet", key);
          break;
        }
        if (recorded->empty()) {
          // No claim was made for the entry: nothing wasched could record an allocation in.
          wait = fmt::format("pod \"{}\": spec.resourceClaims[{}]: no ResourceClaim was created",
                             key, entry.name);
          break;
        }
        name = *recorded;
      }
      const std::string claim_key = pod.meta.namespace_ + "/" + name;
      auto claim = store_->Facts(claim_type_, claim_key);
      if (!claim) {
        wait = fmt::format("resourceclaim.resource.k8s.io \"{}\" not found", name);
        break;
      }
      if (claim->deleting) {
        wait = fmt::format("resourceclaim \"{}\" is being deleted", name);
        break;
      }
      plan.push_back(PlannedClaim{claim_key, pod.meta.namespace_, name,
                                  ConsumerFor(pod, group, entry)});
    }
    if (!wait.empty()) {
      pod.unsupported_constraints.push_back("spec.resourceClaims (" + wait + ")");
      claim_waits_.emplace(key, std::move(wait));
      continue;
    }
    claim_plans_.emplace(key, std::move(plan));
  }
}

tl::expected<std::vector<SchedulingLoop::ClaimToWrite>, std::string> SchedulingLoop::ClaimWrites(
    const std::string& pod, const std::map<std::string, const sched::ClaimAllocation*>& allocs,
    std::optional<ClaimDevices>* devices, int64_t now) {
  std::vector<ClaimToWrite> out;
  auto plan = claim_plans_.find(pod);
  if (plan == claim_plans_.end()) return out;
  for (const PlannedClaim& c : plan->second) {
    ClaimToWrite& w = out.emplace_back();
    w.write.namespace_ = c.namespace_;
    w.write.name = c.name;
    w.write.consumer = c.consumer;
    w.cached = store_->Json(claim_type_, c.key);
    if (auto facts = store_->Facts(claim_type_, c.key)) w.uid = facts->uid;
    auto allocated = allocs.find(c.key);
    if (allocated == allocs.end()) {
      // Allocated before: in the cluster, or by a binding of an earlier cycle still in flight.
      std::lock_guard<std::mutex> lock(mu_);
      auto assumed = assumed_claims_.find(c.key);
      if (assumed != assumed_claims_.end() && assumed->second.uid == w.uid) {
        w.write.allocation = assumed->second.allocation;
      }
      continue;
    }
    if (!*devices) {
      std::vector<std::shared_ptr<const std::string>> slices, classes;
      for (const StoredObject& o : store_->Objects(slice_type_)) slices.push_back(o.json);
      for (const StoredObject& o : store_->Objects(class_type_)) classes.push_back(o.json);
      devices->emplace(ClaimDevices::Build(slices, classes));
    }
    const nlohmann::json claim =
        w.cached ? nlohmann::json::parse(*w.cached, nullptr, /*allow_exceptions=*/false)
                 : nlohmann::json();
    auto allocation = AllocationJson(*allocated->second, claim, **devices, now);
    if (!allocation) return tl::unexpected(allocation.error());
    w.write.allocation = std::move(*allocation);
  }
  return out;
}

codec::LoadOptions LoadOptionsForCluster() {
  codec::LoadOptions load;
  load.field_validation = codec::FieldValidation::kIgnore;
  load.keep_valid_objects = true;
  load.skip_unknown_kinds = true;
  return load;
}

bool SchedulingLoop::Cycle() {
  Prune();
  return CycleAfterPrune();
}

bool SchedulingLoop::CycleAfterPrune() {
  const int64_t now = clock_();
  Overlay overlay;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!victims_.empty()) {
      int64_t deadline = 0;
      for (const auto& [key, v] : victims_) deadline = std::max(deadline, v.second);
      if (now < deadline) return false;
      log_(0, fmt::format("{} preemption victim(s) still present after {} s; scheduling goes on",
                          victims_.size(), options_.victim_wait_seconds));
      victims_.clear();
    }
    for (const auto& [key, a] : assumed_) overlay.assumed_nodes[key] = a.node;
    for (const auto& [key, c] : assumed_claims_) overlay.assumed_claims[key] = c.results;
  }
  const double start = SteadySeconds();
  DecodedCluster decoded = decode_.Decode(*store_, overlay, options_.source);
  for (const InputError& e : decoded.object_errors) LogOnce("left out: " + e.ToString());
  // The cache's own set: this cycle only marks pods on it (DecodedCluster's contract); leaving
  // objects out takes a copy.
  api::ObjectSet* objects = decoded.objects;
  api::ObjectSet kept;
  const InputErrors errors = validation::CheckScheduleInput(*objects);
  if (!errors.empty()) {
    std::set<std::string> bad;
    for (const InputError& e : errors) {
      LogOnce("left out: " + e.ToString());
      if (!e.object.empty()) bad.insert(e.object);
    }
    kept = *objects;
    api::RemoveObjectsNamed(&kept, bad);
    objects = &kept;
  }
  (void)validation::MarkPodsWithUnsupportedSelectors(objects);
  PlanClaims(objects);
  const sched::ScheduleResult result = sched::Schedule(*objects, options_.scheduler);
  const double seconds = SteadySeconds() - start;
  metrics_->RecordCycle(seconds);
  const std::string& me = options_.scheduler.scheduler_name;

  // Pods of this scheduler still pending: first seen now (for the SLI histogram).
  for (const api::Pod& pod : objects->pods) {
    if (pod.scheduler_name != me || !pod.node_name.empty()) continue;
    std::lock_guard<std::mutex> lock(mu_);
    seen_.try_emplace(api::NamespacedName(pod.meta), Seen{now, 0});
  }

  if (!result.evictions.empty()) {
    std::map<std::string, int> per_preemptor;
    std::set<std::string> victim_nodes;
    const int64_t deadline = now + int64_t(options_.victim_wait_seconds * 1e6);
    for (const sched::Eviction& ev : result.evictions) {
      auto facts = store_->Facts(pod_type_, ev.pod);
      if (!facts) continue;
      ++per_preemptor[ev.preemptor];
      victim_nodes.insert(ev.node);
      {
        std::lock_guard<std::mutex> lock(mu_);
        victims_[ev.pod] = {facts->uid, deadline};
      }
      const ObjectRef ref = RefOf(ev.pod, facts->uid);
      log_(0, fmt::format("preempting {} on {} for {}: {}", ev.pod, ev.node, ev.preemptor,
                          ev.reason));
      // Upstream marks the victim first (DisruptionTarget=True, PreemptionByScheduler: Job
      // podFailurePolicy rules read it), then deletes it (pkg/scheduler/framework/preemption).
      const std::string disruption = fmt::format(
          "{}: preempting to accommodate a higher priority {}", me,
          ev.preemptor.rfind("Pod ", 0) == 0 ? "pod" : "pod group");
      writes_->PushUrgent([this, ref, disruption](Writer& writer) {
        auto marked = writer.SetDisruptionTarget(ref, disruption);
        metrics_->RecordWrite("patch", marked.has_value());
        auto deleted = writer.DeletePod(ref);
        metrics_->RecordWrite("delete", deleted.has_value());
        if (!deleted) log_(0, "deleting a victim failed: " + deleted.error().message);
      });
      if (options_.events) {
        (void)writes_->PushEvent([ref, ev](Writer& writer) {
          (void)writer.Event(PodEvent(ref, "Normal", "Preempted", "Preempting",
                                      fmt::format("Preempted by {} on node {}", ev.preemptor,
                                                  ev.node)));
        });
      }
    }
    for (const auto& [preemptor, victims] : per_preemptor) metrics_->RecordPreemption(victims);
    // The preemptor's pods wait for the victims with status.nominatedNodeName; nothing binds
    // until the victims are gone (the next cycles decide again on the cluster without them).
    for (const sched::Binding& b : result.bindings) {
      if (victim_nodes.count(b.node) == 0) continue;
      auto facts = store_->Facts(pod_type_, b.pod);
      if (!facts || facts->scheduler_name != me || facts->nominated_node_name == b.node) continue;
      const ObjectRef ref = RefOf(b.pod, facts->uid);
      const std::string node = b.node;
      writes_->PushNormal([this, ref, node](Writer& writer) {
        auto written = writer.SetNominatedNodeName(ref, node);
        metrics_->RecordWrite("patch", written.has_value());
      });
    }
    return true;
  }

  std::map<std::string, const sched::ClaimAllocation*> allocations;
  for (const sched::ClaimAllocation& a : result.allocations) allocations.emplace(a.claim, &a);
  std::optional<ClaimDevices> devices;  // built when a binding needs it
  for (const sched::Binding& b : result.bindings) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (assumed_.count(b.pod) > 0) continue;
      auto backoff = backoff_.find(b.pod);
      if (backoff != backoff_.end() && backoff->second.second > now) continue;  // backing off
    }
    auto facts = store_->Facts(pod_type_, b.pod);
    if (!facts || !facts->node_name.empty() || facts->scheduler_name != me) continue;
    metrics_->RecordAttempt("scheduled", seconds);
    Bind(b.pod, facts->uid, b.node, ClaimWrites(b.pod, allocations, &devices, now));
  }

  PendingCounts pending;
  {
    std::lock_guard<std::mutex> lock(mu_);
    pending.active = static_cast<int64_t>(assumed_.size());
  }
  for (const sched::PendingPod& p : result.pending) {
    if (p.reason == "NotHandled") continue;
    auto facts = store_->Facts(pod_type_, p.pod);
    if (!facts || facts->scheduler_name != me || !facts->node_name.empty()) continue;
    // Held at PreEnqueue (GangScheduling: no condition written) or by spec.schedulingGates.
    if (!p.held.empty() || p.reason == "SchedulingGated") {
      ++pending.gated;
      continue;
    }
    ++pending.unschedulable;
    if (p.reason != "Unschedulable" && p.reason != "SchedulerError" && p.reason != "Unsupported") {
      continue;
    }
    // Upstream has no Unsupported reason: a pod wasched cannot place is a SchedulerError; one
    // that waits for its claims is Unschedulable with the DynamicResources plugin's reason.
    auto claim_wait = claim_waits_.find(p.pod);
    const bool waits_for_claim = claim_wait != claim_waits_.end();
    const std::string reason =
        waits_for_claim ? "Unschedulable" : p.reason == "Unsupported" ? "SchedulerError" : p.reason;
    const std::string& pod_message = waits_for_claim ? claim_wait->second : p.message;
    const StoredCondition* cond = facts->Condition("PodScheduled");
    const std::string text = reason + "\n" + pod_message;
    // Unchanged, or changed only in its counts (a node the pod cannot use came or went:
    // upstream's queueing hints would not even retry it): not written again, so adding nodes does
    // not rewrite every pending pod (a breaker finding: 526 PATCHes per node added).
    if (cond != nullptr && cond->status == "False" && cond->reason == reason &&
        SameButCounts(cond->message, pod_message)) {
      written_status_[p.pod] = text;
      continue;
    }
    auto written_before = written_status_.find(p.pod);
    if (written_before != written_status_.end() &&
        (written_before->second == text ||
         (written_before->second.rfind(reason + "\n", 0) == 0 &&
          SameButCounts(written_before->second.substr(reason.size() + 1), pod_message)))) {
      continue;
    }
    written_status_[p.pod] = text;
    metrics_->RecordAttempt(reason == "Unschedulable" ? "unschedulable" : "error", seconds);
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = seen_.find(p.pod);
      if (it != seen_.end()) ++it->second.attempts;
    }
    const ObjectRef ref = RefOf(p.pod, facts->uid);
    const std::string message = pod_message;
    log_(2, fmt::format("{} is {}: {}", p.pod, reason, message));
    writes_->PushNormal([this, ref, reason, message](Writer& writer) {
      auto written = writer.SetPodScheduledFalse(ref, reason, message, "");
      metrics_->RecordWrite("patch", written.has_value());
    });
    if (options_.events) {
      (void)writes_->PushEvent([ref, message](Writer& writer) {
        (void)writer.Event(PodEvent(ref, "Warning", "FailedScheduling", "Scheduling", message));
      });
    }
  }
  metrics_->SetPending(pending);
  metrics_->SetEventsDropped(writes_->DroppedEvents());

  // Only PodGroupInitiallyScheduled on PodGroups: v1.37.2 writes no CompositePodGroup condition
  // (GroupResult::outcome stays in wasched's own output).
  for (const sched::GroupResult& g : result.groups) {
    const bool composite = g.kind == "CompositePodGroup";
    for (const api::Condition& c : g.conditions) {
      if (composite || c.type != "PodGroupInitiallyScheduled") continue;
      auto facts = store_->Facts(composite ? composite_type_ : pod_group_type_, g.name);
      if (!facts) continue;
      const StoredCondition wanted{c.type, c.status, c.reason, c.message, {}};
      const StoredCondition* stored = facts->Condition(c.type);
      const std::string written_key = g.kind + " " + g.name + " " + c.type;
      const std::string text = c.status + "\n" + c.reason + "\n" + c.message;
      if (stored != nullptr && *stored == wanted) {
        written_status_[written_key] = text;
        continue;
      }
      if (written_status_[written_key] == text) continue;
      written_status_[written_key] = text;
      const ObjectRef ref = RefOf(g.name, facts->uid);
      const std::string resource = composite ? "compositepodgroups" : "podgroups";
      const bool gang_scheduled = !composite && c.status == "True";
      log_(2, fmt::format("{} {}: {}={}{}{}", g.kind, g.name, c.type, c.status,
                          c.message.empty() ? "" : " ", c.message));
      std::optional<StoredCondition> previous;
      if (stored != nullptr) previous = *stored;
      writes_->PushNormal([this, resource, ref, wanted, previous, gang_scheduled](Writer& writer) {
        auto written =
            writer.SetGroupCondition(resource, ref, wanted, previous ? &*previous : nullptr);
        metrics_->RecordWrite("patch", written.has_value());
        if (!written) {
          log_(0, fmt::format("{} {}/{} status: {}", resource, ref.namespace_, ref.name,
                              written.error().message));
        } else if (gang_scheduled) {
          metrics_->RecordGangScheduled();
        }
      });
    }
  }
  // Forget what was written for objects that no longer exist (bounded memory).
  for (auto it = written_status_.begin(); it != written_status_.end();) {
    const std::string& key = it->first;
    bool keep = true;
    if (key.rfind("PodGroup ", 0) == 0 || key.rfind("CompositePodGroup ", 0) == 0) {
      keep = true;  // few; kept
    } else {
      auto facts = store_->Facts(pod_type_, key);
      keep = facts && facts->node_name.empty();
    }
    it = keep ? std::next(it) : written_status_.erase(it);
  }
  return true;
}

}  // namespace wasched::live
