// File: controller/manager/controller_manager.cc
#include "controller/manager/controller_manager.h"

#include <fmt/format.h>

#include <map>
#include <set>
#include <unordered_set>

#include "controller/deployment/deployment_controller.h"
#include "controller/jobset/jobset_controller.h"
#include "controller/jobset/names.h"
#include "controller/jobset/pod_webhook.h"
#include "controller/lws/lws_controller.h"
#include "controller/replicaset/replicaset_controller.h"
#include "controller/statefulset/statefulset_controller.h"
#include "util/name_generation.h"
#include "validation/priority_admission.h"

namespace wasched::controller {
namespace {

std::string Key(const api::ObjectMeta& meta) { return meta.namespace_ + "/" + meta.name; }

std::string EventLine(const ControllerEvent& e) {
  return fmt::format("{} {} {}: {}", e.type, e.reason, e.object, e.message);
}

// Context: the state one Run shares between the steps.
class Context {
 public:
  Context(api::ObjectSet* objects, ManagerRun* run, const ManagerOptions& options)
      : objects_(objects), run_(run), options_(options), priorities_(objects->priority_classes) {
    for (const api::Pod& p : objects->pods) taken_.insert(Key(p.meta));
  }

  std::unordered_set<std::string>* taken() { return &taken_; }

  int32_t PriorityOf(const api::Pod& pod) const {
    if (pod.priority) return *pod.priority;
    auto r = priorities_.Resolve(pod.priority_class_name);
    return r ? r->priority : 0;
  }

  // Admit: the pod webhooks of JobSet and LeaderWorkerSet on a pod being created. Returns the
  // JobSet webhook's verdict (deferred followers).
  jobset::WebhookResult Admit(api::Pod* pod) const {
    lws::AdmitPod(pod);
    return jobset::AdmitPod(pod, PriorityOf(*pod));
  }

  void AddPod(api::Pod pod) {
    taken_.insert(Key(pod.meta));
    run_->generated.pods.push_back(pod);
    objects_->pods.push_back(std::move(pod));
  }

  // AdmitAndAdd: a pod a StatefulSet / ReplicaSet controller creates.
  void AdmitAndAdd(api::Pod pod) {
    (void)Admit(&pod);
    AddPod(std::move(pod));
  }

  void Event(const ControllerEvent& e) { run_->events.push_back(EventLine(e)); }

  void Errors(const std::vector<FieldError>& errs, const api::ObjectMeta& meta, const char* kind) {
    for (const FieldError& e : errs) {
      run_->errors.push_back(InputError{meta.source, std::string(kind) + " " + Key(meta), e});
    }
  }

  template <typename Group>
  void AddGroups(std::vector<Group>& from, std::vector<Group>& objects, std::vector<Group>& generated) {
    for (Group& g : from) {
      generated.push_back(g);
      objects.push_back(std::move(g));
    }
  }

  api::ObjectSet* objects() { return objects_; }
  ManagerRun* run() { return run_; }
  const ManagerOptions& options() const { return options_; }

 private:
  api::ObjectSet* objects_;
  ManagerRun* run_;
  const ManagerOptions& options_;
  validation::PriorityAdmission priorities_;
  std::unordered_set<std::string> taken_;
};

// DeriveUids: metadata.uid for the workload kinds read without one.
void DeriveUids(api::ObjectSet* objects, ManagerRun* run) {
  int derived = 0;
  std::string first;
  auto derive = [&](const char* kind, auto& list) {
    for (auto& o : list) {
      if (!o.meta.uid.empty()) continue;
      o.meta.uid = DerivedUid(kind, o.meta.namespace_, o.meta.name);
      if (derived++ == 0) first = fmt::format("{} {}", kind, Key(o.meta));
    }
  };
  derive("Deployment", objects->deployments);
  derive("ReplicaSet", objects->replica_sets);
  derive("StatefulSet", objects->stateful_sets);
  derive("JobSet", objects->job_sets);
  derive("LeaderWorkerSet", objects->leader_worker_sets);
  if (derived > 0) {
    run->warnings.push_back(fmt::format(
        "{} object(s) without metadata.uid got a uid derived from kind, namespace and name (the "
        "API server would assign a random one; first: {})",
        derived, first));
  }
}

// LwsOf: the LeaderWorkerSet that owns a leader StatefulSet (nullptr for other sets).
const api::LeaderWorkerSet* LwsOf(const api::ObjectSet& objects, const api::StatefulSet& sts) {
  const api::OwnerReference* owner = GetControllerOf(sts.meta);
  if (owner == nullptr || owner->kind != lws::kKind) return nullptr;
  for (const api::LeaderWorkerSet& l : objects.leader_worker_sets) {
    if (l.meta.namespace_ == sts.meta.namespace_ && l.meta.name == owner->name) return &l;
  }
  return nullptr;
}

// SyncStatefulSets: StatefulSet controller over every set (those the loop appends included),
// then LeaderWorkerSet's pod controller for leader pods (worker sets).
void SyncStatefulSets(Context* ctx) {
  api::ObjectSet& objects = *ctx->objects();
  for (size_t i = 0; i < objects.stateful_sets.size(); ++i) {
    const api::StatefulSet sts = objects.stateful_sets[i];  // copy: the list grows below
    statefulset::SyncResult r = statefulset::Sync(sts, objects);
    for (std::string& w : r.warnings) ctx->run()->warnings.push_back(std::move(w));
    for (DeferredPods& d : r.deferred) ctx->run()->deferred.push_back(std::move(d));
    const api::LeaderWorkerSet* owner = LwsOf(objects, sts);
    const api::LeaderWorkerSet lws_copy = owner != nullptr ? *owner : api::LeaderWorkerSet{};
    for (api::Pod& pod : r.created_pods) {
      (void)ctx->Admit(&pod);
      const api::Pod leader = pod;
      ctx->AddPod(std::move(pod));
      if (owner == nullptr) continue;
      auto worker = lws::WorkerStatefulSet(lws_copy, leader);
      if (!worker) continue;
      const bool exists = [&] {
        for (const api::StatefulSet& s : objects.stateful_sets) {
          if (s.meta.namespace_ == worker->stateful_set.meta.namespace_ &&
              s.meta.name == worker->stateful_set.meta.name) {
            return true;
          }
        }
        return false;
      }();
      if (exists) continue;
      if (worker->wait_for_leader) {
        DeferredPods d;
        d.leaders = {Key(leader.meta)};
        d.topology_key = worker->topology_key;
        d.pods = statefulset::Sync(worker->stateful_set, api::ObjectSet{}).created_pods;
        d.stateful_set = std::move(worker->stateful_set);
        d.why = fmt::format(
            "LeaderWorkerSet {}/{} creates the worker StatefulSet of {} only once it runs ({})",
            lws_copy.meta.namespace_, lws_copy.meta.name, leader.meta.name,
            d.topology_key.empty() ? "startupPolicy LeaderReady"
                                   : "exclusive placement on " + d.topology_key);
        ctx->run()->deferred.push_back(std::move(d));
        continue;
      }
      ctx->run()->generated.stateful_sets.push_back(worker->stateful_set);
      objects.stateful_sets.push_back(std::move(worker->stateful_set));
    }
  }
}

// JobSetOf: the JobSet a Job belongs to (its controller owner), or nullptr.
const api::JobSet* JobSetOf(const api::ObjectSet& objects, const api::ObjectMeta& job) {
  const api::OwnerReference* owner = GetControllerOf(job);
  if (owner == nullptr || owner->kind != jobset::kKind) return nullptr;
  for (const api::JobSet& js : objects.job_sets) {
    if (js.meta.namespace_ == job.namespace_ && js.meta.name == owner->name) return &js;
  }
  return nullptr;
}

// JobOf: the name of the Job that controls `pod` ("" for none).
std::string JobOf(const api::Pod& pod) {
  const api::OwnerReference* o = GetControllerOf(pod.meta);
  return o != nullptr && o->kind == "Job" ? o->name : std::string();
}

// LeaderOf: the key of the completion-index-0 pod of `follower`'s Job, among `created` and the
// pods of `objects`; "" when there is none yet.
std::string LeaderOf(const api::Pod& follower, const std::vector<api::Pod>& created,
                     const api::ObjectSet& objects) {
  const std::string job = JobOf(follower);
  for (const auto* list : {&created, &objects.pods}) {
    for (const api::Pod& p : *list) {
      if (p.meta.namespace_ == follower.meta.namespace_ && JobOf(p) == job && jobset::IsLeaderPod(p)) {
        return Key(p.meta);
      }
    }
  }
  return "";
}

// DeferFollower: `pod` waits for `leader` (JobSet exclusive placement); the followers of one
// Job share one entry of `deferred`.
void DeferFollower(api::Pod pod, const std::string& leader, const std::string& topology_key,
                   std::vector<DeferredPods>* deferred) {
  for (DeferredPods& d : *deferred) {
    if (d.leaders.size() == 1 && d.leaders[0] == leader && d.topology_key == topology_key &&
        !d.stateful_set && !leader.empty()) {
      d.pods.push_back(std::move(pod));
      return;
    }
  }
  DeferredPods d;
  d.leaders = {leader};
  d.topology_key = topology_key;
  d.why = fmt::format("JobSet's pod webhook refuses the follower pods of Job {}/{} until its "
                      "leader {} is scheduled (exclusive placement on {})",
                      pod.meta.namespace_, JobOf(pod), leader.empty() ? "(none)" : leader,
                      topology_key);
  d.pods.push_back(std::move(pod));
  deferred->push_back(std::move(d));
}

// RunJobs: the Job controller, then JobSet's pod webhook on the pods it created (followers of
// exclusive placement and pods of ReplicatedJobs that wait for others are taken back).
void RunJobs(Context* ctx) {
  api::ObjectSet& objects = *ctx->objects();
  ManagerRun& run = *ctx->run();
  const size_t first_new = objects.pods.size();
  job::ControllerRun jr = job::RunJobController(&objects, ctx->options().gates);
  for (std::string& w : jr.warnings) run.warnings.push_back(std::move(w));
  for (std::string& e : jr.events) run.events.push_back(std::move(e));
  for (job::MinCountPatch& p : jr.patches) run.patches.push_back(std::move(p));
  for (api::Workload& w : jr.generated.workloads) run.generated.workloads.push_back(std::move(w));
  for (api::PodGroup& g : jr.generated.pod_groups) run.generated.pod_groups.push_back(std::move(g));

  // The Job controller appended its pods to objects.pods[first_new…]; admit them one by one.
  std::vector<api::Pod> created(std::make_move_iterator(objects.pods.begin() + first_new),
                                std::make_move_iterator(objects.pods.end()));
  objects.pods.resize(first_new);
  std::vector<std::string> leaders(created.size());
  for (size_t i = 0; i < created.size(); ++i) leaders[i] = LeaderOf(created[i], created, objects);

  // JobSet startup ordering: the pods of ReplicatedJobs that wait for others, by ReplicatedJob.
  struct Waiting {
    std::string ns, jobset, rj;
    std::vector<std::string> deps;
    std::vector<api::Pod> pods;
  };
  std::map<std::string, Waiting> waiting;
  for (size_t i = 0; i < created.size(); ++i) {
    api::Pod& pod = created[i];
    const jobset::WebhookResult w = ctx->Admit(&pod);
    const api::JobSet* js = nullptr;
    const std::string job_name = JobOf(pod);
    for (const api::Job& j : objects.jobs) {
      if (j.meta.namespace_ == pod.meta.namespace_ && j.meta.name == job_name) {
        js = JobSetOf(objects, j.meta);
        break;
      }
    }
    if (js != nullptr) {
      const std::string rj_name = pod.meta.labels[jobset::kReplicatedJobNameKey];
      std::vector<std::string> deps;
      for (const api::ReplicatedJob& rj : js->replicated_jobs) {
        if (rj.name == rj_name) deps = jobset::WaitsFor(*js, rj);
      }
      if (!deps.empty()) {
        const std::string key = fmt::format("{}/{}/{}", js->meta.namespace_, js->meta.name, rj_name);
        Waiting& wt = waiting[key];
        wt.ns = js->meta.namespace_;
        wt.jobset = js->meta.name;
        wt.rj = rj_name;
        wt.deps = std::move(deps);
        wt.pods.push_back(std::move(pod));
        continue;
      }
    }
    if (w.deferred) {
      DeferFollower(std::move(pod), leaders[i], w.topology_key, &run.deferred);
      continue;
    }
    ctx->AddPod(std::move(pod));
  }
  for (auto& entry : waiting) {
    // Not a structured binding: clang (Debian 12's) refuses a lambda capturing one.
    auto& wt = entry.second;
    DeferredPods d;
    // Leaders: every pod of the ReplicatedJobs waited for (bound = ready).
    auto add_from = [&](const std::vector<api::Pod>& pods, const std::string& dep) {
      for (const api::Pod& p : pods) {
        auto jn = p.meta.labels.find(jobset::kJobSetNameKey);
        auto rn = p.meta.labels.find(jobset::kReplicatedJobNameKey);
        if (p.meta.namespace_ == wt.ns && jn != p.meta.labels.end() && jn->second == wt.jobset &&
            rn != p.meta.labels.end() && rn->second == dep) {
          d.leaders.push_back(Key(p.meta));
        }
      }
    };
    for (const std::string& dep : wt.deps) {
      add_from(objects.pods, dep);
      for (const DeferredPods& other : run.deferred) add_from(other.pods, dep);
      for (const auto& [k, other] : waiting) add_from(other.pods, dep);
    }
    d.why = fmt::format("JobSet {}/{} starts ReplicatedJob {} only once the ReplicatedJobs it "
                        "waits for run (startupPolicy InOrder or dependsOn)",
                        wt.ns, wt.jobset, wt.rj);
    d.pods = std::move(wt.pods);
    run.deferred.push_back(std::move(d));
  }
}

}  // namespace

ManagerRun ControllerManager::Run(api::ObjectSet* objects) const {
  ManagerRun run;
  DeriveUids(objects, &run);
  Context ctx(objects, &run, options_);

  for (size_t i = 0; i < objects->deployments.size(); ++i) {
    deployment::SyncResult r = deployment::Sync(objects->deployments[i], *objects);
    if (!r.created) continue;
    run.generated.replica_sets.push_back(*r.created);
    objects->replica_sets.push_back(std::move(*r.created));
  }

  const jobset::JobSetController jobsets({.gang_of_gangs = options_.jobset_gang_of_gangs});
  for (size_t i = 0; i < objects->job_sets.size(); ++i) {
    const api::JobSet js = objects->job_sets[i];
    jobset::JobSetSyncResult r = jobsets.Sync(js, *objects);
    for (const ControllerEvent& e : r.events) ctx.Event(e);
    if (r.plan) {
      ctx.Errors(r.plan->errors, js.meta, jobset::kKind);
      if (r.plan->workload && r.plan->errors.empty()) {
        run.generated.workloads.push_back(*r.plan->workload);
        objects->workloads.push_back(std::move(*r.plan->workload));
        ctx.AddGroups(r.plan->composite_pod_groups, objects->composite_pod_groups,
                      run.generated.composite_pod_groups);
        ctx.AddGroups(r.plan->pod_groups, objects->pod_groups, run.generated.pod_groups);
      }
    }
    for (api::Job& job : r.created_jobs) {
      run.generated.jobs.push_back(job);
      objects->jobs.push_back(std::move(job));
    }
  }

  for (size_t i = 0; i < objects->leader_worker_sets.size(); ++i) {
    const api::LeaderWorkerSet l = objects->leader_worker_sets[i];
    lws::LwsSyncResult r = lws::Sync(l, *objects, {.composite_groups = options_.lws_composite_groups});
    for (const ControllerEvent& e : r.events) ctx.Event(e);
    ctx.Errors(r.errors, l.meta, lws::kKind);
    if (r.workload) {
      run.generated.workloads.push_back(*r.workload);
      objects->workloads.push_back(std::move(*r.workload));
      ctx.AddGroups(r.composite_pod_groups, objects->composite_pod_groups,
                    run.generated.composite_pod_groups);
      ctx.AddGroups(r.pod_groups, objects->pod_groups, run.generated.pod_groups);
    }
    if (r.leader_stateful_set) {
      run.generated.stateful_sets.push_back(*r.leader_stateful_set);
      objects->stateful_sets.push_back(std::move(*r.leader_stateful_set));
    }
  }

  SyncStatefulSets(&ctx);

  for (size_t i = 0; i < objects->replica_sets.size(); ++i) {
    const api::ReplicaSet rs = objects->replica_sets[i];
    replicaset::SyncResult r = replicaset::Sync(rs, *objects, ctx.taken());
    for (api::Pod& pod : r.created_pods) ctx.AdmitAndAdd(std::move(pod));
  }

  RunJobs(&ctx);
  return run;
}

size_t ControllerManager::ReleaseDeferred(api::ObjectSet* objects, ManagerRun* run) const {
  std::map<std::string, const api::Pod*> pods;
  for (const api::Pod& p : objects->pods) pods.emplace(Key(p.meta), &p);
  std::map<std::string, const api::Node*> nodes;
  for (const api::Node& n : objects->nodes) nodes.emplace(n.meta.name, &n);
  std::vector<DeferredPods> still;
  std::vector<DeferredPods> ready;
  for (DeferredPods& d : run->deferred) {
    bool bound = true;
    for (const std::string& l : d.leaders) {
      auto it = pods.find(l);
      bound = bound && it != pods.end() && !it->second->node_name.empty();
    }
    if (!bound) {
      still.push_back(std::move(d));
      continue;
    }
    if (!d.topology_key.empty()) {
      const api::Pod* leader = pods.at(d.leaders.front());
      auto node = nodes.find(leader->node_name);
      const auto* labels = node != nodes.end() ? &node->second->meta.labels : nullptr;
      auto value = labels != nullptr ? labels->find(d.topology_key) : decltype(labels->end()){};
      if (labels == nullptr || value == labels->end()) {
        d.why = fmt::format("{} (node {} has no label {}: upstream's webhook fails the pods)",
                            d.why, leader->node_name, d.topology_key);
        still.push_back(std::move(d));
        continue;
      }
      for (api::Pod& p : d.pods) p.node_selector[d.topology_key] = value->second;
      if (d.stateful_set) d.stateful_set->pod_template.node_selector[d.topology_key] = value->second;
    }
    ready.push_back(std::move(d));
  }
  run->deferred = std::move(still);
  Context ctx(objects, run, options_);
  size_t created = 0;
  for (DeferredPods& d : ready) {
    if (d.stateful_set) {
      run->generated.stateful_sets.push_back(*d.stateful_set);
      objects->stateful_sets.push_back(std::move(*d.stateful_set));
    }
    for (size_t i = 0; i < d.pods.size(); ++i) {
      api::Pod& p = d.pods[i];
      const jobset::WebhookResult w = ctx.Admit(&p);
      if (w.deferred) {  // a released JobSet follower: it now waits for its leader
        const std::string leader = LeaderOf(p, d.pods, *objects);
        DeferFollower(std::move(p), leader, w.topology_key, &run->deferred);
        continue;
      }
      ctx.AddPod(std::move(p));
      ++created;
    }
  }
  // A released OrderedReady pod may unblock the next one in a later round (its own entry).
  return created;
}

std::vector<std::string> ControllerManager::DeferredWarnings(const ManagerRun& run) {
  std::vector<std::string> out;
  for (const DeferredPods& d : run.deferred) {
    out.push_back(fmt::format("{} pod(s) not created: {}", d.pods.size(), d.why));
  }
  return out;
}

}  // namespace wasched::controller
