// File: sim/simulator.cc
#include "sim/simulator.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <map>
#include <memory>
#include <queue>
#include <set>
#include <sstream>
#include <tuple>
#include <unordered_map>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <optional>

#include "api/object_meta.h"
#include "sched/queue/clock.h"
#include "sched/scheduler.h"
#include "sim/csv.h"
#include "sim/job_objects.h"
#include "util/split_mix64.h"

namespace wasched::sim {
namespace {

constexpr int32_t kNoNode = -1;
constexpr const char* kNamespace = kSimNamespace;

enum class JobState : uint8_t { kFuture, kPending, kRunning, kDone, kRejected };

struct JobRun {
  JobState state = JobState::kFuture;
  int32_t bound = 0;
  int64_t bound_units = 0;
  int64_t start = -1;
  int64_t end = -1;
  uint32_t generation = 0;
  const char* topology_key = nullptr;  // gang-topology constraint, nullptr = none
  std::vector<int32_t> pod_node;       // per pod; kNoNode = unbound
  std::vector<int32_t> pod_slot;       // preemption mode: index in the running region
  int32_t shape = -1;                  // interned: pods' requests, constraints (basic: one pod's)
  int32_t pending_class = -1;          // PendingClass index
  bool compiled = false;
  // What the Job controller created (job_objects.h), kept from arrival to completion; unbound
  // pods and the PodGroup are moved into each Schedule call and back.
  std::vector<api::Pod> pods;
  std::unique_ptr<api::PodGroup> group;
};

// PendingClass: pending jobs of one shape with the same GPU demand and smallest pod, in queue
// order. Within one instant a class is either offered job by job or skipped as a whole (its
// shape failed, or it cannot fit the free GPUs), so ScheduleOnce merges the classes instead of
// walking every pending job.
struct PendingClass {
  int32_t shape = -1;
  int64_t total_gpu = 0;
  int64_t min_pod_gpu = 0;
  std::set<std::pair<int32_t, int32_t>> members;  // (-priority, job)
};

struct NodeState {
  int64_t gpu_free = 0, cpu_free = 0, mem_free = 0;
  int64_t gpu_cap = 0, cpu_cap = 0, mem_cap = 0;
  bool up = true;
  bool dirty = false;  // aggregate pod needs refreshing
};

struct Completion {
  int64_t time;
  int32_t job;
  uint32_t generation;
  bool operator>(const Completion& o) const { return std::tie(time, job) > std::tie(o.time, o.job); }
};

struct FailureEvent {
  int64_t time;
  int32_t node;
  bool repair;
  // Min-heap order: time, then failures before repairs, then node.
  bool operator>(const FailureEvent& o) const { return std::tie(time, repair, node) > std::tie(o.time, o.repair, o.node); }
};

// SparseBucket: one timeseries bucket in which something happened (an event instant or a part of
// a span between events); buckets between two of these are whole spans at a constant level,
// filled in by Finish (so memory is O(events), not O(simulated hours)).
struct SparseBucket {
  int64_t bucket = 0;
  double busy = 0, partial = 0;        // unit-seconds integrated inside the bucket
  int64_t pending_jobs = 0, running_jobs = 0;
  bool counted = false;                // an event instant fell into the bucket
  int64_t level_busy = 0, level_partial = 0;  // units held after the bucket's last event
};

Percentiles ComputePercentiles(std::vector<int64_t> v) {
  Percentiles p;
  p.count = static_cast<int64_t>(v.size());
  if (v.empty()) return p;
  std::sort(v.begin(), v.end());
  auto rank = [&](double q) {
    const auto idx = static_cast<size_t>(std::ceil(q * static_cast<double>(v.size()))) ;
    return v[std::min(v.size() - 1, idx == 0 ? 0 : idx - 1)];
  };
  p.p50 = rank(0.50);
  p.p90 = rank(0.90);
  p.p99 = rank(0.99);
  p.max = v.back();
  long double sum = 0;
  for (int64_t x : v) sum += x;
  p.mean = static_cast<double>(sum / v.size());
  return p;
}

const char* SizeClass(int64_t gpus) {
  if (gpus <= 0) return "0";  // CPU-only (openb num_gpu 0)
  if (gpus <= 1) return "1";
  if (gpus <= 8) return "2-8";
  if (gpus <= 32) return "9-32";
  return "33+";
}

class Engine {
 public:
  Engine(const Trace& trace, const std::vector<api::Node>& nodes, const SimOptions& options)
      : trace_(trace), options_(options), jobs_(trace.jobs.size()) {
    node_objs_ = nodes;
    nodes_.resize(nodes.size());
    for (size_t n = 0; n < nodes.size(); ++n) {
      const auto& a = nodes[n].allocatable;
      auto get = [&](const std::string& k) {
        auto it = a.find(k);
        return it == a.end() ? int64_t{0} : it->second;
      };
      NodeState& s = nodes_[n];
      s.gpu_cap = s.gpu_free = get(trace.gpu_resource);
      s.cpu_cap = s.cpu_free = get(api::kResourceCPU);
      s.mem_cap = s.mem_free = get(api::kResourceMemory);
      s.up = !nodes[n].unschedulable;
      CountFree(s, +1);
      if (options_.preemption) objects_.nodes.push_back(nodes[n]);
      total_units_ += s.gpu_cap;
      node_index_.emplace(nodes[n].meta.name, static_cast<int32_t>(n));
    }
    ComputeTopologyLimits();
    if (!options_.preemption) {
      // One aggregate bound pod per node stands for every running pod there.
      for (size_t n = 0; n < nodes.size(); ++n) {
        api::Pod p;
        p.meta.name = "used-" + nodes[n].meta.name;
        p.meta.namespace_ = kNamespace;
        p.meta.uid = p.meta.name;
        p.node_name = nodes[n].meta.name;
        p.priority = INT32_MAX;
        p.containers.emplace_back();
        p.containers[0].name = "c";
        p.containers[0].image = "registry.k8s.io/pause:3.10";
        agg_pods_.push_back(std::move(p));
        nodes_[n].dirty = true;
      }
    }
    running_region_ = objects_.pods.size();
    clock_options_.clock = &clock_;
    clock_options_.placement = options_.placement;
  }

  SimResult Run() {
    const size_t job_count = trace_.jobs.size();
    size_t next_arrival = 0;
    int last_progress_pct = -1;
    rng_.state = options_.seed;
    DrawFailure(0, job_count);
    while (true) {
      int64_t t = INT64_MAX;
      if (next_arrival < job_count) t = trace_.jobs[next_arrival].submit_seconds;
      while (!completions_.empty() && completions_.top().generation != jobs_[completions_.top().job].generation) {
        completions_.pop();
      }
      if (!completions_.empty()) t = std::min(t, completions_.top().time);
      if (!failures_.empty() && (t != INT64_MAX || AnyWork())) t = std::min(t, failures_.top().time);
      if (t == INT64_MAX) break;
      Advance(t);
      ++result_.events;
      // Completions first (they free capacity), then failures and repairs, then arrivals.
      while (!completions_.empty() && completions_.top().time == t) {
        const Completion c = completions_.top();
        completions_.pop();
        if (c.generation != jobs_[c.job].generation) continue;
        Complete(c.job, t);
      }
      while (!failures_.empty() && failures_.top().time == t) {
        const FailureEvent f = failures_.top();
        failures_.pop();
        ApplyFailure(f, t);
        if (!f.repair) failure_pending_ = false;
      }
      while (next_arrival < job_count && trace_.jobs[next_arrival].submit_seconds == t) {
        Arrive(static_cast<int32_t>(next_arrival));
        ++next_arrival;
      }
      if (dirty_ && !pending_.empty()) ScheduleOnce(t);
      dirty_ = false;
      UpdateStall(t);
      RecordCounts(t);
      DrawFailure(next_arrival, job_count);
      if (options_.progress && job_count > 0) {
        const int pct = static_cast<int>(100 * next_arrival / job_count);
        if (pct != last_progress_pct) {
          last_progress_pct = pct;
          options_.progress(static_cast<double>(next_arrival) / static_cast<double>(job_count));
        }
      }
    }
    return Finish();
  }

 private:
  // NodeObject: the api::Node of node n (in objects_ in preemption mode, else in the store).
  api::Node& NodeObject(int32_t n) { return options_.preemption ? objects_.nodes[n] : node_objs_[n]; }

  [[nodiscard]] bool AnyWork() const { return !pending_.empty() || running_jobs_ > 0; }

  // CountFree: adds (sign +1) or removes (-1) node s's share of free_up_units_ and
  // free_up_nodes_; called around every change of its gpu_free or up, so that the per-instant
  // questions "free GPUs on up nodes" and "some up node has a free GPU" are O(1), not a scan of
  // every node.
  void CountFree(const NodeState& s, int sign) {
    if (!s.up) return;
    free_up_units_ += sign * s.gpu_free;
    free_up_nodes_ += s.gpu_free > 0 ? sign : 0;
  }

  [[nodiscard]] int64_t PodGpu(const TraceJob& j, int32_t i) const {
    return i == j.pod_count - 1 ? j.last_pod_gpu : j.gpu_per_pod;
  }

  // ComputeTopologyLimits: the smallest rack's and zone's GPU capacity (labels from cluster.h).
  void ComputeTopologyLimits() {
    std::map<std::string, int64_t> racks, zones;
    for (size_t n = 0; n < nodes_.size(); ++n) {
      const auto& labels = node_objs_[n].meta.labels;
      if (auto it = labels.find("topology.wasched.io/rack"); it != labels.end()) racks[it->second] += nodes_[n].gpu_cap;
      if (auto it = labels.find("topology.kubernetes.io/zone"); it != labels.end()) zones[it->second] += nodes_[n].gpu_cap;
      max_node_units_ = std::max(max_node_units_, nodes_[n].gpu_cap);
      max_node_cpu_ = std::max(max_node_cpu_, nodes_[n].cpu_cap);
      max_node_mem_ = std::max(max_node_mem_, nodes_[n].mem_cap);
    }
    min_rack_units_ = racks.empty() ? 0 : INT64_MAX;
    for (const auto& [k, v] : racks) min_rack_units_ = std::min(min_rack_units_, v);
    min_zone_units_ = zones.empty() ? 0 : INT64_MAX;
    for (const auto& [k, v] : zones) min_zone_units_ = std::min(min_zone_units_, v);
  }

  // DrawFailure: node failures are a Poisson process of `per_day` failures per simulated day
  // cluster-wide (exponential gaps, a uniformly drawn node), drawn one at a time while work is
  // left: after each failure the next one is drawn as long as a job is still to arrive or
  // running, so failures cover the whole run (not only the arrivals), and a run whose remaining
  // work can never start still ends. No failure comes after the last submit plus the sum of all
  // job durations (the work run back to back), so jobs that keep being hit finish in the end.
  // A repair follows each failure after repair_seconds.
  void DrawFailure(size_t next_arrival, size_t job_count) {
    if (options_.failures.per_day <= 0 || failure_pending_ || nodes_.empty()) return;
    if (next_arrival >= job_count && running_jobs_ == 0) return;
    if (failure_horizon_ < 0) {
      failure_horizon_ = trace_.jobs.empty() ? 0 : trace_.jobs.back().submit_seconds;
      for (const TraceJob& j : trace_.jobs) failure_horizon_ = std::min(failure_horizon_ + j.duration_seconds, INT64_MAX / 4);
    }
    const double mean_gap = 86400.0 / options_.failures.per_day;
    const double gap = std::min(-std::log(rng_.Unit()) * mean_gap, 1e15);  // a tiny perDay: no overflow
    failure_clock_ = std::max(failure_clock_ + static_cast<int64_t>(std::llround(gap)), now_);
    if (failure_clock_ > failure_horizon_) return;
    const auto node = static_cast<int32_t>(rng_.Below(nodes_.size()));
    failures_.push({failure_clock_, node, false});
    failures_.push({failure_clock_ + options_.failures.repair_seconds, node, true});
    failure_pending_ = true;
  }

  // Fits: whether a pod of job `j` fits some node when the cluster is empty.
  [[nodiscard]] bool Fits(const TraceJob& j) const {
    if (j.TotalGpu() > total_units_) return false;
    const int64_t g = std::max(j.gpu_per_pod, j.last_pod_gpu);
    for (size_t n = 0; n < nodes_.size(); ++n) {
      const NodeState& s = nodes_[n];
      if (s.gpu_cap < g || s.cpu_cap < j.cpu_milli_per_pod || s.mem_cap < j.memory_bytes_per_pod) continue;
      if (j.gpu_models.empty()) return true;
      const auto& labels = node_objs_[n].meta.labels;
      auto it = labels.find(kGpuModelLabel);
      if (it != labels.end() && std::find(j.gpu_models.begin(), j.gpu_models.end(), it->second) != j.gpu_models.end()) {
        return true;
      }
    }
    return false;
  }

  void Arrive(int32_t j) {
    const TraceJob& tj = trace_.jobs[j];
    JobRun& r = jobs_[j];
    if (!Fits(tj)) {
      r.state = JobState::kRejected;
      ++result_.rejected;
      result_.rejected_jobs.push_back(j);
      return;
    }
    r.state = JobState::kPending;
    r.pod_node.assign(tj.pod_count, kNoNode);
    if (options_.preemption) r.pod_slot.assign(tj.pod_count, -1);
    if (options_.policy == Policy::kGangTopology && tj.pod_count > 1) {
      const int64_t demand = tj.TotalGpu();
      if (min_rack_units_ > 0 && demand <= min_rack_units_) {
        r.topology_key = "topology.wasched.io/rack";
      } else if (min_zone_units_ > 0 && demand <= min_zone_units_) {
        r.topology_key = "topology.kubernetes.io/zone";
      }
    }
    std::string shape = fmt::format("{}/{}/{}/{}/{}", tj.gpu_per_pod, tj.cpu_milli_per_pod, tj.memory_bytes_per_pod,
                                    fmt::join(tj.gpu_models, "|"), r.topology_key ? r.topology_key : "");
    if (options_.policy != Policy::kBasic) shape += fmt::format("/{}/{}", tj.pod_count, tj.last_pod_gpu);
    r.shape = shape_ids_.emplace(std::move(shape), static_cast<int32_t>(shape_ids_.size())).first->second;
    if (failed_shape_.size() < shape_ids_.size()) failed_shape_.resize(shape_ids_.size(), 0);
    const int64_t min_pod = std::min(tj.gpu_per_pod, tj.last_pod_gpu);
    const auto [cls, added] = class_ids_.try_emplace({r.shape, tj.TotalGpu(), min_pod}, static_cast<int32_t>(classes_.size()));
    if (added) classes_.push_back(PendingClass{r.shape, tj.TotalGpu(), min_pod, {}});
    r.pending_class = cls->second;
    AddPending(j);
    arrived_.push_back(j);
    dirty_ = true;
  }

  // Compile: the Job and what the Job controller creates for it (job_objects.h), once per job,
  // when the job is first offered to the scheduler: the objects depend only on the job, and a
  // long backlog then holds no objects (a smaller live heap keeps malloc fast).
  void Compile(int32_t j) {
    JobRun& r = jobs_[j];
    r.compiled = true;
    JobObjects o = CompileJob(trace_.jobs[j], trace_.gpu_resource,
                              {.policy = options_.policy, .preemption = options_.preemption, .topology_key = r.topology_key});
    for (int32_t i = 0; i < static_cast<int32_t>(o.pods.size()); ++i) {
      pod_index_.emplace(api::NamespacedName(o.pods[i].meta), PodRef{j, i});
    }
    r.pods = std::move(o.pods);
    if (o.pod_group) r.group = std::make_unique<api::PodGroup>(std::move(*o.pod_group));
  }

  // Release: drops a finished job's objects.
  void Release(int32_t j) {
    JobRun& r = jobs_[j];
    for (const api::Pod& p : r.pods) pod_index_.erase(api::NamespacedName(p.meta));
    std::vector<api::Pod>().swap(r.pods);  // frees the buffer too
    r.group.reset();
  }

  void AddPending(int32_t j) {
    const std::pair<int32_t, int32_t> key{-trace_.jobs[j].priority, j};
    pending_.insert(key);
    classes_[jobs_[j].pending_class].members.insert(key);
  }

  void RemovePending(int32_t j) {
    const std::pair<int32_t, int32_t> key{-trace_.jobs[j].priority, j};
    pending_.erase(key);
    classes_[jobs_[j].pending_class].members.erase(key);
  }

  void FreePod(int32_t j, int32_t i) {
    const TraceJob& tj = trace_.jobs[j];
    JobRun& r = jobs_[j];
    const int32_t n = r.pod_node[i];
    NodeState& s = nodes_[n];
    CountFree(s, -1);
    s.gpu_free += PodGpu(tj, i);
    CountFree(s, +1);
    s.cpu_free += tj.cpu_milli_per_pod;
    s.mem_free += tj.memory_bytes_per_pod;
    s.dirty = true;
    freed_ = true;
    r.pod_node[i] = kNoNode;
    if (options_.preemption) RemoveRunningPod(r.pod_slot[i]), r.pod_slot[i] = -1;
  }

  // RemoveRunningPod: swap-remove from the running region (preemption mode), fixing the moved
  // pod's slot.
  void RemoveRunningPod(int32_t slot) {
    const auto last = static_cast<int32_t>(running_region_) - 1;
    if (slot != last) {
      objects_.pods[slot] = std::move(objects_.pods[last]);
      const PodRef moved = pod_index_.at(api::NamespacedName(objects_.pods[slot].meta));
      jobs_[moved.job].pod_slot[moved.pod] = slot;
    }
    objects_.pods.pop_back();
    --running_region_;
  }

  void ReleaseAll(int32_t j) {
    JobRun& r = jobs_[j];
    for (int32_t i = 0; i < static_cast<int32_t>(r.pod_node.size()); ++i) {
      if (r.pod_node[i] != kNoNode) FreePod(j, i);
    }
    r.bound = 0;
    r.bound_units = 0;
  }

  void Complete(int32_t j, int64_t t) {
    JobRun& r = jobs_[j];
    busy_units_ -= r.bound_units;
    ReleaseAll(j);
    r.state = JobState::kDone;
    r.end = t;
    Release(j);
    --running_jobs_;
    ++result_.completed;
    last_completion_ = t;
    Progress(t);
    dirty_ = true;
  }

  // Restart: the job loses its pods (eviction or node failure) and queues again.
  void Restart(int32_t j) {
    JobRun& r = jobs_[j];
    if (r.state == JobState::kRunning) {
      busy_units_ -= r.bound_units;
      --running_jobs_;
      ++r.generation;  // its completion event is stale now
      r.start = -1;
      AddPending(j);
    } else {
      partial_units_ -= r.bound_units;
    }
    ReleaseAll(j);
    r.state = JobState::kPending;
    ++result_.restarts;
    dirty_ = true;
  }

  void ApplyFailure(const FailureEvent& f, int64_t t) {
    NodeState& s = nodes_[f.node];
    if (f.repair) {
      if (!s.up) {
        s.up = true;
        CountFree(s, +1);
        NodeObject(f.node).unschedulable = false;
        dirty_ = true;
        freed_ = true;
      }
      return;
    }
    if (!s.up) return;
    ++result_.node_failures;
    CountFree(s, -1);
    s.up = false;
    NodeObject(f.node).unschedulable = true;
    std::vector<int32_t> victims;
    for (auto [neg_prio, j] : pending_) {
      for (int32_t n : jobs_[j].pod_node) {
        if (n == f.node) { victims.push_back(j); break; }
      }
    }
    for (int32_t j : running_list_) {
      if (jobs_[j].state != JobState::kRunning) continue;
      for (int32_t n : jobs_[j].pod_node) {
        if (n == f.node) { victims.push_back(j); break; }
      }
    }
    std::sort(victims.begin(), victims.end());
    victims.erase(std::unique(victims.begin(), victims.end()), victims.end());
    for (int32_t j : victims) Restart(j);
  }

  void RefreshAggregatePods() {
    if (options_.preemption) return;
    for (size_t n = 0; n < nodes_.size(); ++n) {
      NodeState& s = nodes_[n];
      if (!s.dirty) continue;
      s.dirty = false;
      auto& req = agg_pods_[n].containers[0].requests;
      const int64_t gpu = s.gpu_cap - s.gpu_free;
      if (gpu > 0) req[trace_.gpu_resource] = gpu; else req.erase(trace_.gpu_resource);
      req[api::kResourceCPU] = s.cpu_cap - s.cpu_free;
      req[api::kResourceMemory] = s.mem_cap - s.mem_free;
    }
  }

  // ScheduleOnce: hands the pending queue to Schedule in windows (queue order, at most
  // kWindowPods pods and about twice the free GPUs each) until the queue is exhausted or no GPU
  // is free. A unit whose shape already failed at this instant is not offered again (capacity
  // only shrinks within an instant, so it would fail again), which keeps windows short without
  // starving later, smaller units: the outcome equals one pass over the whole queue.
  void ScheduleOnce(int64_t t) {
    // Without freed capacity since the last call, the units that call left pending still cannot
    // bind (every node's free capacity only shrank): only the new arrivals need a try.
    const bool only_fresh = !freed_ && !options_.preemption && last_call_done_;
    std::vector<std::pair<int32_t, int32_t>> fresh;
    if (only_fresh) {
      for (int32_t j : arrived_) {
        if (jobs_[j].state == JobState::kPending) fresh.emplace_back(-trace_.jobs[j].priority, j);
      }
      std::sort(fresh.begin(), fresh.end());
    }
    arrived_.clear();
    freed_ = false;
    for (int32_t shape : failed_list_) failed_shape_[shape] = 0;
    failed_list_.clear();
    std::optional<std::pair<int32_t, int32_t>> resume;  // last unit offered (preemption)
    size_t fresh_pos = 0;
    // The merge over pending classes (without preemption): a min-heap of (next member, class).
    merge_.clear();
    if (!only_fresh && !options_.preemption) {
      for (size_t c = 0; c < classes_.size(); ++c) {
        if (!classes_[c].members.empty()) merge_.push_back({*classes_[c].members.begin(), static_cast<int32_t>(c)});
      }
      std::make_heap(merge_.begin(), merge_.end(), std::greater<>());
    }
    const bool gang = options_.policy != Policy::kBasic;
    while (true) {
      const int64_t free_units = free_up_units_;
      window_.clear();
      int64_t cumulative = 0;
      int pods = 0;
      int64_t min_pod_gpu = INT64_MAX;
      const int64_t budget = options_.preemption ? total_units_ : 2 * free_units;
      bool truncated = false;
      auto consider = [&](int32_t j) -> bool {
        const TraceJob& tj = trace_.jobs[j];
        const JobRun& r = jobs_[j];
        if (r.state != JobState::kPending) return true;
        const int64_t demand = tj.TotalGpu() - r.bound_units;
        const bool gang = options_.policy != Policy::kBasic;
        if (!options_.preemption) {
          if (gang ? demand > free_units : (demand > 0 && std::min(tj.gpu_per_pod, tj.last_pod_gpu) > free_units)) return true;
          if (failed_shape_[r.shape] != 0) return true;
        }
        window_.push_back(j);
        cumulative += demand;
        pods += tj.pod_count - r.bound;
        min_pod_gpu = std::min(min_pod_gpu, r.pod_node.back() == kNoNode ? std::min(tj.gpu_per_pod, tj.last_pod_gpu) : tj.gpu_per_pod);
        if (pods >= kWindowPods || (cumulative > budget && demand > 0)) {
          truncated = true;
          return false;
        }
        return true;
      };
      if (only_fresh) {
        for (; fresh_pos < fresh.size();) {
          if (!consider(fresh[fresh_pos++].second)) break;
        }
      } else if (options_.preemption) {
        auto it = resume ? pending_.upper_bound(*resume) : pending_.begin();
        for (; it != pending_.end(); ++it) {
          resume = *it;
          if (!consider(it->second)) break;
        }
      } else {
        // Pending order, class by class: a class whose shape failed at this instant, or whose
        // every member is too large for the free GPUs, is dropped for the rest of the instant
        // (both only grow within an instant); `consider` would skip each of its members. A
        // pending gang holds no pod (all-or-nothing, minCount = its pods), so its demand is the
        // class's total; a basic job's pods each need at least the class's smallest pod.
        while (!merge_.empty()) {
          std::pop_heap(merge_.begin(), merge_.end(), std::greater<>());
          const auto [key, c] = merge_.back();
          merge_.pop_back();
          const PendingClass& pc = classes_[c];
          if (failed_shape_[pc.shape] != 0) continue;
          if (gang ? pc.total_gpu > free_units : (pc.min_pod_gpu > 0 && pc.min_pod_gpu > free_units)) continue;
          const bool more = consider(key.second);
          if (auto next = pc.members.upper_bound(key); next != pc.members.end()) {
            merge_.push_back({*next, c});
            std::push_heap(merge_.begin(), merge_.end(), std::greater<>());
          }
          if (!more) break;
        }
      }
      if (window_.empty()) break;
      CallScheduler(t, min_pod_gpu);
      // The window's units left pending mark their shape as failed for this instant.
      for (int32_t j : window_) {
        if (jobs_[j].state == JobState::kPending && failed_shape_[jobs_[j].shape] == 0) {
          failed_shape_[jobs_[j].shape] = 1;
          failed_list_.push_back(jobs_[j].shape);
        }
      }
      if (!truncated || options_.preemption) break;
    }
  }

  void CallScheduler(int64_t t, int64_t min_pod_gpu) {
    RefreshAggregatePods();
    // Nodes: in preemption mode all (running pods are real); otherwise only the up nodes with
    // room for the smallest pod of the window, each with its aggregate pod when it holds any.
    // Full nodes cannot take a pod, so leaving them out changes no Filter or Score outcome.
    if (!options_.preemption) {
      included_.clear();
      for (size_t n = 0; n < nodes_.size(); ++n) {
        const NodeState& s = nodes_[n];
        if (!s.up || s.gpu_free < min_pod_gpu || (min_pod_gpu == 0 && s.cpu_free <= 0)) continue;
        included_.push_back(static_cast<int32_t>(n));
        objects_.nodes.push_back(std::move(node_objs_[n]));
        if (s.gpu_free < s.gpu_cap || s.cpu_free < s.cpu_cap) objects_.pods.push_back(std::move(agg_pods_[n]));
      }
      running_region_ = objects_.pods.size();
      if (included_.empty()) {
        last_call_done_ = true;
        return;
      }
    }
    // The window's unbound pods and PodGroups move in for the call and back after it.
    call_pods_.clear();
    call_groups_.clear();
    for (int32_t j : window_) {
      JobRun& r = jobs_[j];
      if (!r.compiled) Compile(j);
      for (int32_t i = 0; i < static_cast<int32_t>(r.pod_node.size()); ++i) {
        if (r.pod_node[i] != kNoNode) continue;
        objects_.pods.push_back(std::move(r.pods[i]));
        call_pods_.push_back({j, i});
      }
      if (r.group) {
        objects_.pod_groups.push_back(std::move(*r.group));
        call_groups_.push_back(j);
      }
    }
    clock_.SetTime(sched::Duration(t * 1000));
    ++result_.scheduler_calls;
    sched::ScheduleResult res = sched::Schedule(objects_, clock_options_);
    last_call_done_ = true;
    for (size_t k = 0; k < call_pods_.size(); ++k) {
      jobs_[call_pods_[k].job].pods[call_pods_[k].pod] = std::move(objects_.pods[running_region_ + k]);
    }
    for (size_t k = 0; k < call_groups_.size(); ++k) *jobs_[call_groups_[k]].group = std::move(objects_.pod_groups[k]);
    objects_.pod_groups.clear();
    objects_.pods.resize(running_region_);
    if (!options_.preemption) {
      // Move the nodes and aggregate pods back to the store.
      size_t pod = 0;
      for (size_t k = 0; k < included_.size(); ++k) {
        const int32_t n = included_[k];
        const NodeState& s = nodes_[n];
        node_objs_[n] = std::move(objects_.nodes[k]);
        if (s.gpu_free < s.gpu_cap || s.cpu_free < s.cpu_cap) agg_pods_[n] = std::move(objects_.pods[pod++]);
      }
      objects_.nodes.clear();
      objects_.pods.clear();
      running_region_ = 0;
    }
    // Evictions first: the victim's whole job restarts.
    for (const sched::Eviction& e : res.evictions) {
      const auto victim = pod_index_.find(e.pod);
      if (victim == pod_index_.end()) continue;  // an aggregate pod
      ++result_.evictions;
      if (jobs_[victim->second.job].bound > 0) Restart(victim->second.job);
    }
    touched_.clear();
    for (const sched::Binding& b : res.bindings) {
      const auto pod = pod_index_.find(b.pod);
      auto it = node_index_.find(b.node);
      if (pod == pod_index_.end() || it == node_index_.end()) continue;
      if (options_.on_binding) options_.on_binding(b, t);
      Bind(pod->second.job, pod->second.pod, it->second, t);
      touched_.push_back(pod->second.job);
    }
    std::sort(touched_.begin(), touched_.end());
    touched_.erase(std::unique(touched_.begin(), touched_.end()), touched_.end());
    for (int32_t j : touched_) {
      JobRun& r = jobs_[j];
      if (r.state == JobState::kPending && r.bound == trace_.jobs[j].pod_count) Start(j, t);
    }
  }

  // Bind: pod i of job j runs on node n from time t (the simulated kubelet accepts it at once:
  // status.startTime = t, which preemption orders victims by).
  void Bind(int32_t j, int32_t i, int32_t n, int64_t t) {
    const TraceJob& tj = trace_.jobs[j];
    JobRun& r = jobs_[j];
    if (r.pod_node[i] != kNoNode) return;
    const int64_t g = PodGpu(tj, i);
    NodeState& s = nodes_[n];
    CountFree(s, -1);
    s.gpu_free -= g;
    CountFree(s, +1);
    s.cpu_free -= tj.cpu_milli_per_pod;
    s.mem_free -= tj.memory_bytes_per_pod;
    s.dirty = true;
    r.pod_node[i] = n;
    ++r.bound;
    r.bound_units += g;
    partial_units_ += g;
    if (options_.preemption) {
      api::Pod p = r.pods[i];
      p.node_name = node_objs_[n].meta.name;
      p.start_time = t;
      r.pod_slot[i] = static_cast<int32_t>(objects_.pods.size());
      objects_.pods.push_back(std::move(p));
      ++running_region_;
    }
  }

  void Start(int32_t j, int64_t t) {
    JobRun& r = jobs_[j];
    partial_units_ -= r.bound_units;
    busy_units_ += r.bound_units;
    r.state = JobState::kRunning;
    if (r.start < 0 || true) r.start = t;
    if (first_start_[j] < 0) first_start_[j] = t;
    RemovePending(j);
    ++running_jobs_;
    running_list_.push_back(j);
    completions_.push({t + trace_.jobs[j].duration_seconds, j, r.generation});
    Progress(t);
  }

  void Progress(int64_t t) {
    EndStall(t);
    if (running_list_.size() > 4 * static_cast<size_t>(running_jobs_) + 1024) {
      std::erase_if(running_list_, [&](int32_t j) { return jobs_[j].state != JobState::kRunning; });
    }
  }

  // UpdateStall: at the end of every event instant (the state then holds until the next one):
  // the stall condition is work pending and some GPU free (on an up node) or held by a partially
  // bound job. A stall span starts at the first instant the condition holds after the last
  // progress, and ends at the next progress (Progress: a job starts or finishes), at the first
  // instant the condition no longer holds, or at the end of the run (Finish).
  void UpdateStall(int64_t t) {
    bool stalled = false;
    if (!pending_.empty()) {
      stalled = partial_units_ > 0 || free_up_nodes_ > 0;
    }
    if (!stalled) {
      EndStall(t);
    } else if (stall_start_ < 0) {
      stall_start_ = t;
    }
  }

  // EndStall: closes the current stall span at `t`; a span of at least kDeadlockSeconds is one
  // deadlock episode of t - start seconds.
  void EndStall(int64_t t) {
    if (stall_start_ < 0) return;
    if (t - stall_start_ >= kDeadlockSeconds) {
      ++result_.deadlock_episodes;
      result_.deadlock_seconds += t - stall_start_;
    }
    stall_start_ = -1;
  }

  // Bucket: the sparse entry of timeseries bucket `b` (buckets only grow with time).
  SparseBucket& Bucket(int64_t b) {
    if (samples_.empty() || samples_.back().bucket != b) samples_.push_back(SparseBucket{.bucket = b});
    return samples_.back();
  }

  // Advance: integrates the GPU counters over [now_, t) into the totals and the buckets. Only the
  // first and the last (partial) bucket of the span get an entry; the whole buckets between are at
  // the constant level and are filled in by Finish. O(1).
  void Advance(int64_t t) {
    if (t <= now_) return;
    const double busy = static_cast<double>(busy_units_), partial = static_cast<double>(partial_units_);
    busy_integral_ += busy * static_cast<double>(t - now_);
    partial_integral_ += partial * static_cast<double>(t - now_);
    const int64_t step = options_.sample_seconds;
    const int64_t first = now_ / step, last = t / step;
    const int64_t first_end = std::min(t, (first + 1) * step);
    SparseBucket& a = Bucket(first);
    a.busy += busy * static_cast<double>(first_end - now_);
    a.partial += partial * static_cast<double>(first_end - now_);
    a.level_busy = busy_units_;
    a.level_partial = partial_units_;
    if (last > first && t > last * step) {
      SparseBucket& b = Bucket(last);
      b.busy += busy * static_cast<double>(t - last * step);
      b.partial += partial * static_cast<double>(t - last * step);
    }
    now_ = t;
  }

  void RecordCounts(int64_t t) {
    SparseBucket& b = Bucket(t / options_.sample_seconds);
    b.pending_jobs = static_cast<int64_t>(pending_.size());
    b.running_jobs = running_jobs_;
    b.counted = true;
    b.level_busy = busy_units_;
    b.level_partial = partial_units_;
  }

  // BuildTimeseries: the dense series from the sparse buckets: whole buckets between entries are
  // at the previous entry's level, counts are carried forward. When the run spans more than
  // kMaxTimeseriesBuckets buckets, k consecutive buckets are merged into one (averages; counts at
  // the merged bucket's end), so the series stays bounded whatever the simulated span.
  std::vector<Sample> BuildTimeseries() const {
    std::vector<Sample> out;
    if (samples_.empty()) return out;
    const int64_t step = options_.sample_seconds;
    const double dstep = static_cast<double>(step), unit = static_cast<double>(trace_.units_per_gpu);
    const int64_t total = samples_.back().bucket + 1;
    const int64_t merge = (total + kMaxTimeseriesBuckets - 1) / kMaxTimeseriesBuckets;
    out.reserve(static_cast<size_t>((total + merge - 1) / merge));
    Sample carry, acc;
    int64_t in_acc = 0;
    auto emit = [&](Sample s) {
      if (merge == 1) {
        out.push_back(s);
        return;
      }
      if (in_acc == 0) acc = Sample{.start_seconds = s.start_seconds};
      acc.busy_gpus += s.busy_gpus / static_cast<double>(merge);
      acc.partial_gpus += s.partial_gpus / static_cast<double>(merge);
      acc.pending_jobs = s.pending_jobs;
      acc.running_jobs = s.running_jobs;
      if (++in_acc == merge) out.push_back(acc), in_acc = 0;
    };
    int64_t level_busy = 0, level_partial = 0;
    int64_t next = 0;
    for (const SparseBucket& e : samples_) {
      for (; next < e.bucket; ++next) {  // whole buckets at the constant level
        Sample s;
        s.start_seconds = next * step;
        s.busy_gpus = 0.0 + static_cast<double>(level_busy) * dstep;
        s.partial_gpus = 0.0 + static_cast<double>(level_partial) * dstep;
        s.busy_gpus /= dstep * unit;
        s.partial_gpus /= dstep * unit;
        s.pending_jobs = carry.pending_jobs;
        s.running_jobs = carry.running_jobs;
        carry = s;
        emit(s);
      }
      Sample s;
      s.start_seconds = e.bucket * step;
      s.busy_gpus = e.busy / (dstep * unit);
      s.partial_gpus = e.partial / (dstep * unit);
      s.pending_jobs = e.counted ? e.pending_jobs : carry.pending_jobs;
      s.running_jobs = e.counted ? e.running_jobs : carry.running_jobs;
      carry = s;
      emit(s);
      level_busy = e.level_busy;
      level_partial = e.level_partial;
      next = e.bucket + 1;
    }
    if (in_acc > 0) {
      // The last merged bucket is partial: average over the buckets it has.
      acc.busy_gpus *= static_cast<double>(merge) / static_cast<double>(in_acc);
      acc.partial_gpus *= static_cast<double>(merge) / static_cast<double>(in_acc);
      out.push_back(acc);
    }
    return out;
  }

  SimResult Finish() {
    SimResult& r = result_;
    // A stall still on when no event is left is permanent: the pending work can never start (no
    // arrival, completion, failure or repair remains). It counts as an episode lasting until the
    // run's end, defined as the last event plus kDeadlockSeconds (the first instant the detector
    // would have fired for a stall that began at the last event).
    if (stall_start_ >= 0) EndStall(now_ + kDeadlockSeconds);
    r.policy = PolicyName(options_.policy);
    r.preemption = options_.preemption;
    r.jobs = static_cast<int64_t>(trace_.jobs.size());
    r.total_gpus = static_cast<double>(total_units_) / static_cast<double>(trace_.units_per_gpu);
    r.makespan_seconds = r.completed > 0 ? last_completion_ : now_;
    const double unit = static_cast<double>(trace_.units_per_gpu);
    r.busy_gpu_hours = busy_integral_ / unit / 3600.0;
    r.partial_gpu_hours = partial_integral_ / unit / 3600.0;
    if (r.makespan_seconds > 0 && total_units_ > 0) {
      const double denom = static_cast<double>(total_units_) * static_cast<double>(r.makespan_seconds);
      r.gpu_utilization = std::min(1.0, busy_integral_ / denom);
      r.gpu_allocation = std::min(1.0, (busy_integral_ + partial_integral_) / denom);
    }
    std::vector<int64_t> delays, completions;
    std::map<std::string, std::vector<int64_t>> by_size;
    for (size_t j = 0; j < jobs_.size(); ++j) {
      const JobRun& jr = jobs_[j];
      const TraceJob& tj = trace_.jobs[j];
      if (jr.state == JobState::kPending) ++r.unfinished;
      if (first_start_[j] < 0) continue;
      const int64_t d = first_start_[j] - tj.submit_seconds;
      delays.push_back(d);
      const int64_t gpus = (tj.TotalGpu() + trace_.units_per_gpu - 1) / trace_.units_per_gpu;
      by_size[SizeClass(gpus)].push_back(d);
      if (jr.state == JobState::kDone) completions.push_back(jr.end - tj.submit_seconds);
    }
    r.queue_delay = ComputePercentiles(std::move(delays));
    for (auto& [k, v] : by_size) r.queue_delay_by_size[k] = ComputePercentiles(std::move(v));
    r.completion_time = ComputePercentiles(std::move(completions));
    r.timeseries = BuildTimeseries();
    return std::move(result_);
  }

  const Trace& trace_;
  const SimOptions& options_;
  std::vector<JobRun> jobs_;
  std::vector<int64_t> first_start_ = std::vector<int64_t>(trace_.jobs.size(), -1);
  std::vector<NodeState> nodes_;
  std::unordered_map<std::string, int32_t> node_index_;
  api::ObjectSet objects_;
  size_t running_region_ = 0;
  sched::FakeClock clock_;
  sched::SchedulerOptions clock_options_;
  std::set<std::pair<int32_t, int32_t>> pending_;  // (-priority, job index): queue order
  std::vector<int32_t> running_list_;
  std::priority_queue<Completion, std::vector<Completion>, std::greater<>> completions_;
  std::priority_queue<FailureEvent, std::vector<FailureEvent>, std::greater<>> failures_;
  SplitMix64 rng_{1};
  int64_t failure_clock_ = 0;     // time of the last drawn failure
  int64_t failure_horizon_ = -1;  // no failure after this time (computed on first use)
  bool failure_pending_ = false;  // a drawn failure has not happened yet
  std::vector<int32_t> window_, touched_, included_, arrived_;
  std::vector<api::Node> node_objs_;  // the store; moved into objects_ for a call
  std::vector<api::Pod> agg_pods_;    // per node: one bound pod holding what runs there
  bool freed_ = true;                 // capacity was freed since the last call
  bool last_call_done_ = false;
  std::vector<char> failed_shape_;       // per shape id: failed at the current instant
  std::vector<int32_t> failed_list_;     // the shape ids set in failed_shape_
  std::unordered_map<std::string, int32_t> shape_ids_;
  std::map<std::tuple<int32_t, int64_t, int64_t>, int32_t> class_ids_;  // (shape, total, min pod)
  std::vector<PendingClass> classes_;
  std::vector<std::pair<std::pair<int32_t, int32_t>, int32_t>> merge_;
  struct PodRef {
    int32_t job;
    int32_t pod;
  };
  std::unordered_map<std::string, PodRef> pod_index_;  // "sim/<pod name>" of compiled jobs
  std::vector<PodRef> call_pods_;                      // pods moved into the current call
  std::vector<int32_t> call_groups_;                   // jobs whose PodGroup moved in
  int64_t total_units_ = 0, max_node_units_ = 0, max_node_cpu_ = 0, max_node_mem_ = 0;
  int64_t min_rack_units_ = 0, min_zone_units_ = 0;
  int64_t busy_units_ = 0, partial_units_ = 0;
  int64_t free_up_units_ = 0;  // Σ gpu_free over up nodes (CountFree)
  int64_t free_up_nodes_ = 0;  // up nodes with gpu_free > 0 (CountFree)
  int64_t running_jobs_ = 0;
  int64_t now_ = 0, last_completion_ = 0;
  int64_t stall_start_ = -1;  // start of the current stall span (UpdateStall), -1 = none
  bool dirty_ = false;
  double busy_integral_ = 0, partial_integral_ = 0;
  std::vector<SparseBucket> samples_;  // increasing bucket order
  SimResult result_;
};

}  // namespace

tl::expected<Policy, std::string> ParsePolicy(const std::string& name) {
  if (name == "basic") return Policy::kBasic;
  if (name == "gang") return Policy::kGang;
  if (name == "gang-topology") return Policy::kGangTopology;
  return tl::unexpected(fmt::format("--policy: unknown policy \"{}\" (want basic, gang or gang-topology)", name));
}

const char* PolicyName(Policy policy) {
  switch (policy) {
    case Policy::kBasic: return "basic";
    case Policy::kGang: return "gang";
    case Policy::kGangTopology: return "gang-topology";
  }
  return "";
}

tl::expected<NodeFailures, std::string> ParseNodeFailures(const std::string& spec) {
  NodeFailures f;
  std::stringstream ss(spec);
  std::string item;
  std::set<std::string> seen;
  while (std::getline(ss, item, ',')) {
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    const std::string key = item.substr(0, eq == std::string::npos ? item.size() : eq);
    if ((key == "perDay" || key == "repair") && !seen.insert(key).second) {
      return tl::unexpected(fmt::format("--node-failures: {} given twice", key));
    }
    std::string value = eq == std::string::npos ? "" : item.substr(eq + 1);
    if (key == "perDay") {
      auto v = ParseDouble(value);
      if (!v || *v < 0 || *v > kMaxFailuresPerDay) {
        return tl::unexpected(fmt::format("--node-failures: perDay={}: want a number in [0, {}]", value, kMaxFailuresPerDay));
      }
      f.per_day = *v;
    } else if (key == "repair") {
      int64_t mult = 1;
      if (!value.empty() && (value.back() == 's' || value.back() == 'm' || value.back() == 'h')) {
        mult = value.back() == 'h' ? 3600 : value.back() == 'm' ? 60 : 1;
        value.pop_back();
      }
      auto v = ParseInt(value);
      if (!v || *v < 1 || *v * mult > kMaxSpanSeconds) {
        return tl::unexpected(fmt::format("--node-failures: repair={}: want a duration in [1s, {}s] such as 3600, 30m or 2h",
                                          item.substr(eq + 1), kMaxSpanSeconds));
      }
      f.repair_seconds = *v * mult;
    } else {
      return tl::unexpected(fmt::format("--node-failures: \"{}\": want perDay=N,repair=DURATION", item));
    }
  }
  return f;
}

SimResult Simulate(const Trace& trace, const std::vector<api::Node>& nodes, const SimOptions& options) {
  Engine engine(trace, nodes, options);
  return engine.Run();
}

}  // namespace wasched::sim
