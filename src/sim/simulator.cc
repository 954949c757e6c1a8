// File: sim/simulator.cc
#include "sim/simulator.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <queue>
#include <set>
#include <sstream>
#include <unordered_map>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <optional>

#include "sched/queue/clock.h"
#include "sched/scheduler.h"
#include "sim/csv.h"

namespace wasched::sim {
namespace {

constexpr int32_t kNoNode = -1;
constexpr const char* kNamespace = "sim";

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
  std::string shape;                   // pods' requests, constraints (basic: one pod's)
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
};

// SplitMix64: a portable seeded generator (std distributions differ across libraries).
struct SplitMix64 {
  uint64_t state;
  uint64_t Next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  uint64_t Below(uint64_t n) { return n == 0 ? 0 : Next() % n; }
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
        agg_pods_.push_back(std::move(p));
        nodes_[n].dirty = true;
      }
    }
    running_region_ = objects_.pods.size();
    clock_options_.clock = &clock_;
  }

  SimResult Run() {
    GenerateFailures();
    const size_t job_count = trace_.jobs.size();
    size_t next_arrival = 0;
    size_t next_failure = 0;
    int last_progress_pct = -1;
    while (true) {
      int64_t t = INT64_MAX;
      if (next_arrival < job_count) t = trace_.jobs[next_arrival].submit_seconds;
      while (!completions_.empty() && completions_.top().generation != jobs_[completions_.top().job].generation) {
        completions_.pop();
      }
      if (!completions_.empty()) t = std::min(t, completions_.top().time);
      if (next_failure < failures_.size() && (t != INT64_MAX || AnyWork())) t = std::min(t, failures_[next_failure].time);
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
      while (next_failure < failures_.size() && failures_[next_failure].time == t) {
        ApplyFailure(failures_[next_failure], t);
        ++next_failure;
      }
      while (next_arrival < job_count && trace_.jobs[next_arrival].submit_seconds == t) {
        Arrive(static_cast<int32_t>(next_arrival));
        ++next_arrival;
      }
      if (dirty_ && !pending_.empty()) ScheduleOnce(t);
      dirty_ = false;
      CheckDeadlock(t);
      RecordCounts(t);
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

  void GenerateFailures() {
    if (options_.failures.per_day <= 0 || trace_.jobs.empty() || nodes_.empty()) return;
    SplitMix64 rng{options_.seed};
    const int64_t horizon = std::max<int64_t>(1, trace_.jobs.back().submit_seconds);
    const auto count = static_cast<int64_t>(std::llround(options_.failures.per_day * horizon / 86400.0));
    for (int64_t k = 0; k < count; ++k) {
      const auto at = static_cast<int64_t>(rng.Below(static_cast<uint64_t>(horizon)));
      const auto node = static_cast<int32_t>(rng.Below(nodes_.size()));
      failures_.push_back({at, node, false});
      failures_.push_back({at + options_.failures.repair_seconds, node, true});
    }
    std::stable_sort(failures_.begin(), failures_.end(), [](const FailureEvent& a, const FailureEvent& b) {
      return std::tie(a.time, a.repair, a.node) < std::tie(b.time, b.repair, b.node);
    });
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
    r.shape = fmt::format("{}/{}/{}/{}/{}", tj.gpu_per_pod, tj.cpu_milli_per_pod, tj.memory_bytes_per_pod,
                          fmt::join(tj.gpu_models, "|"), r.topology_key ? r.topology_key : "");
    if (options_.policy != Policy::kBasic) r.shape += fmt::format("/{}/{}", tj.pod_count, tj.last_pod_gpu);
    pending_.emplace(-tj.priority, j);
    arrived_.push_back(j);
    dirty_ = true;
  }

  void FreePod(int32_t j, int32_t i) {
    const TraceJob& tj = trace_.jobs[j];
    JobRun& r = jobs_[j];
    const int32_t n = r.pod_node[i];
    NodeState& s = nodes_[n];
    s.gpu_free += PodGpu(tj, i);
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
      const auto [mj, mi] = ParsePodName(objects_.pods[slot].meta.name);
      jobs_[mj].pod_slot[mi] = slot;
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
      pending_.emplace(-trace_.jobs[j].priority, j);
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
        NodeObject(f.node).unschedulable = false;
        dirty_ = true;
        freed_ = true;
      }
      return;
    }
    if (!s.up) return;
    ++result_.node_failures;
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

  static std::pair<int32_t, int32_t> ParsePodName(std::string_view name) {
    // "j<job>-<pod>"
    int32_t j = 0, i = 0;
    const size_t dash = name.find('-');
    std::from_chars(name.data() + 1, name.data() + dash, j);
    std::from_chars(name.data() + dash + 1, name.data() + name.size(), i);
    return {j, i};
  }

  api::Pod MakePod(int32_t j, int32_t i, int64_t t) const {
    const TraceJob& tj = trace_.jobs[j];
    api::Pod p;
    p.meta.name = fmt::format("j{}-{}", j, i);
    p.meta.namespace_ = kNamespace;
    p.meta.uid = p.meta.name;
    p.meta.creation_timestamp = tj.submit_seconds;
    api::Container c;
    c.name = "c";
    c.requests[trace_.gpu_resource] = PodGpu(tj, i);
    c.requests[api::kResourceCPU] = tj.cpu_milli_per_pod;
    c.requests[api::kResourceMemory] = tj.memory_bytes_per_pod;
    p.containers.push_back(std::move(c));
    p.priority = tj.priority;
    if (!options_.preemption) p.preemption_policy = api::PreemptionPolicy::kNever;
    if (!tj.gpu_models.empty()) {
      api::NodeAffinity a;
      a.required.emplace();
      api::NodeSelectorTerm term;
      term.match_expressions.push_back({kGpuModelLabel, api::NodeSelectorOperator::kIn, tj.gpu_models});
      a.required->push_back(std::move(term));
      p.node_affinity = std::move(a);
    }
    if (options_.policy != Policy::kBasic && tj.pod_count > 1) p.pod_group_name = fmt::format("j{}", j);
    return p;
  }

  api::PodGroup MakePodGroup(int32_t j) const {
    const TraceJob& tj = trace_.jobs[j];
    api::PodGroup g;
    g.meta.name = fmt::format("j{}", j);
    g.meta.namespace_ = kNamespace;
    g.meta.uid = g.meta.name;
    g.meta.creation_timestamp = tj.submit_seconds;
    g.api_version = "scheduling.k8s.io/v1beta1";
    g.scheduling_policy.gang = api::GangSchedulingPolicy{tj.pod_count};
    g.priority = tj.priority;
    if (!options_.preemption) g.preemption_policy = api::PreemptionPolicy::kNever;
    if (jobs_[j].topology_key != nullptr) {
      g.scheduling_constraints.emplace();
      g.scheduling_constraints->topology.push_back({jobs_[j].topology_key});
    }
    return g;
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
    failed_shapes_.clear();
    std::optional<std::pair<int32_t, int32_t>> resume;  // last unit offered
    size_t fresh_pos = 0;
    while (true) {
      int64_t free_units = 0;
      for (const NodeState& s : nodes_) free_units += s.up ? s.gpu_free : 0;
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
          if (failed_shapes_.contains(r.shape)) return true;
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
      } else {
        auto it = resume ? pending_.upper_bound(*resume) : pending_.begin();
        for (; it != pending_.end(); ++it) {
          resume = *it;
          if (!consider(it->second)) break;
        }
      }
      if (window_.empty()) break;
      CallScheduler(t, min_pod_gpu);
      // The window's units left pending mark their shape as failed for this instant.
      for (int32_t j : window_) {
        if (jobs_[j].state == JobState::kPending) failed_shapes_.insert(jobs_[j].shape);
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
    objects_.pod_groups.clear();
    for (int32_t j : window_) {
      const JobRun& r = jobs_[j];
      for (int32_t i = 0; i < static_cast<int32_t>(r.pod_node.size()); ++i) {
        if (r.pod_node[i] == kNoNode) objects_.pods.push_back(MakePod(j, i, t));
      }
      if (options_.policy != Policy::kBasic && trace_.jobs[j].pod_count > 1) objects_.pod_groups.push_back(MakePodGroup(j));
    }
    clock_.SetTime(sched::Duration(t * 1000));
    ++result_.scheduler_calls;
    sched::ScheduleResult res = sched::Schedule(objects_, clock_options_);
    last_call_done_ = true;
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
      const std::string_view name = std::string_view(e.pod).substr(std::string_view(kNamespace).size() + 1);
      if (!name.starts_with("j")) continue;
      const auto [j, i] = ParsePodName(name);
      ++result_.evictions;
      if (jobs_[j].bound > 0) Restart(j);
    }
    touched_.clear();
    for (const sched::Binding& b : res.bindings) {
      const std::string_view name = std::string_view(b.pod).substr(std::string_view(kNamespace).size() + 1);
      const auto [j, i] = ParsePodName(name);
      auto it = node_index_.find(b.node);
      if (it == node_index_.end()) continue;
      Bind(j, i, it->second);
      touched_.push_back(j);
    }
    std::sort(touched_.begin(), touched_.end());
    touched_.erase(std::unique(touched_.begin(), touched_.end()), touched_.end());
    for (int32_t j : touched_) {
      JobRun& r = jobs_[j];
      if (r.state == JobState::kPending && r.bound == trace_.jobs[j].pod_count) Start(j, t);
    }
  }

  void Bind(int32_t j, int32_t i, int32_t n) {
    const TraceJob& tj = trace_.jobs[j];
    JobRun& r = jobs_[j];
    if (r.pod_node[i] != kNoNode) return;
    const int64_t g = PodGpu(tj, i);
    NodeState& s = nodes_[n];
    s.gpu_free -= g;
    s.cpu_free -= tj.cpu_milli_per_pod;
    s.mem_free -= tj.memory_bytes_per_pod;
    s.dirty = true;
    r.pod_node[i] = n;
    ++r.bound;
    r.bound_units += g;
    partial_units_ += g;
    if (options_.preemption) {
      api::Pod p = MakePod(j, i, 0);
      p.node_name = node_objs_[n].meta.name;
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
    pending_.erase({-trace_.jobs[j].priority, j});
    ++running_jobs_;
    running_list_.push_back(j);
    completions_.push({t + trace_.jobs[j].duration_seconds, j, r.generation});
    Progress(t);
  }

  void Progress(int64_t t) {
    if (in_deadlock_) {
      result_.deadlock_seconds += t - last_progress_;
      in_deadlock_ = false;
    }
    last_progress_ = t;
    if (running_list_.size() > 4 * static_cast<size_t>(running_jobs_) + 1024) {
      std::erase_if(running_list_, [&](int32_t j) { return jobs_[j].state != JobState::kRunning; });
    }
  }

  void CheckDeadlock(int64_t t) {
    if (pending_.empty() || in_deadlock_) return;
    int64_t free_units = 0;
    for (const NodeState& s : nodes_) free_units += s.up ? s.gpu_free : 0;
    if ((free_units > 0 || partial_units_ > 0) && t - last_progress_ >= kDeadlockSeconds) {
      in_deadlock_ = true;
      ++result_.deadlock_episodes;
    }
  }

  // Advance: integrates the GPU counters over [now_, t) into the totals and the buckets.
  void Advance(int64_t t) {
    if (t <= now_) return;
    const double busy = static_cast<double>(busy_units_), partial = static_cast<double>(partial_units_);
    busy_integral_ += busy * static_cast<double>(t - now_);
    partial_integral_ += partial * static_cast<double>(t - now_);
    const int64_t step = options_.sample_seconds;
    int64_t a = now_;
    while (a < t) {
      const auto bucket = static_cast<size_t>(a / step);
      const int64_t b = std::min(t, static_cast<int64_t>(bucket + 1) * step);
      if (samples_.size() <= bucket) samples_.resize(bucket + 1);
      samples_[bucket].busy_gpus += busy * static_cast<double>(b - a);
      samples_[bucket].partial_gpus += partial * static_cast<double>(b - a);
      a = b;
    }
    now_ = t;
  }

  void RecordCounts(int64_t t) {
    const auto bucket = static_cast<size_t>(t / options_.sample_seconds);
    if (samples_.size() <= bucket) samples_.resize(bucket + 1);
    samples_[bucket].pending_jobs = static_cast<int64_t>(pending_.size());
    samples_[bucket].running_jobs = running_jobs_;
    if (counted_.size() <= bucket) counted_.resize(bucket + 1, 0);
    counted_[bucket] = 1;
  }

  SimResult Finish() {
    SimResult& r = result_;
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
    // Bucket averages; counts carried forward through buckets without events.
    const double step = static_cast<double>(options_.sample_seconds);
    Sample carry;
    for (size_t b = 0; b < samples_.size(); ++b) {
      Sample& s = samples_[b];
      s.start_seconds = static_cast<int64_t>(b) * options_.sample_seconds;
      s.busy_gpus /= step * unit;
      s.partial_gpus /= step * unit;
      if (b >= counted_.size() || counted_[b] == 0) {
        s.pending_jobs = carry.pending_jobs;
        s.running_jobs = carry.running_jobs;
      }
      carry = s;
    }
    r.timeseries = std::move(samples_);
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
  std::vector<FailureEvent> failures_;
  std::vector<int32_t> window_, touched_, included_, arrived_;
  std::vector<api::Node> node_objs_;  // the store; moved into objects_ for a call
  std::vector<api::Pod> agg_pods_;    // per node: one bound pod holding what runs there
  bool freed_ = true;                 // capacity was freed since the last call
  bool last_call_done_ = false;
  std::set<std::string> failed_shapes_;  // shapes that failed at the current instant
  int64_t total_units_ = 0, max_node_units_ = 0, max_node_cpu_ = 0, max_node_mem_ = 0;
  int64_t min_rack_units_ = 0, min_zone_units_ = 0;
  int64_t busy_units_ = 0, partial_units_ = 0;
  int64_t running_jobs_ = 0;
  int64_t now_ = 0, last_completion_ = 0, last_progress_ = 0;
  bool in_deadlock_ = false;
  bool dirty_ = false;
  double busy_integral_ = 0, partial_integral_ = 0;
  std::vector<Sample> samples_;
  std::vector<char> counted_;  // bucket had an event
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
  while (std::getline(ss, item, ',')) {
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    const std::string key = item.substr(0, eq == std::string::npos ? item.size() : eq);
    std::string value = eq == std::string::npos ? "" : item.substr(eq + 1);
    if (key == "perDay") {
      auto v = ParseDouble(value);
      if (!v || *v < 0 || *v > 1e6) return tl::unexpected(fmt::format("--node-failures: perDay={}: want a number ≥ 0", value));
      f.per_day = *v;
    } else if (key == "repair") {
      int64_t mult = 1;
      if (!value.empty() && (value.back() == 's' || value.back() == 'm' || value.back() == 'h')) {
        mult = value.back() == 'h' ? 3600 : value.back() == 'm' ? 60 : 1;
        value.pop_back();
      }
      auto v = ParseInt(value);
      if (!v || *v < 1 || *v > int64_t{1} << 40) {
        return tl::unexpected(fmt::format("--node-failures: repair={}: want a duration such as 3600, 30m or 2h", item.substr(eq + 1)));
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
