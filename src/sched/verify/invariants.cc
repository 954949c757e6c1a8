// Verification-mode invariants (see invariants.h). Messages name the object and the numbers, so a
// failing property test or an aborted run says what broke without a debugger.
#include "sched/verify/invariants.h"

#include <algorithm>
#include <tuple>

#include <fmt/format.h>

#include "util/saturating.h"

namespace wasched::sched::verify {
namespace {

bool DisruptionAll(const GroupTreeNode& n) {
  const auto& mode = n.is_composite ? n.composite->disruption_mode : n.pod_group->disruption_mode;
  return mode.has_value() && mode->all;
}

// UnitRoot: the highest group at or above t with `disruptionMode: all`, or kNoTreeNode (the
// group's pods are single-pod victim units). Bounded by the tree depth (cycles: parent unset).
TreeIndex UnitRoot(const GroupTree& tree, TreeIndex t) {
  TreeIndex unit = kNoTreeNode;
  for (int depth = 0; t != kNoTreeNode && depth <= tree.size(); ++depth) {
    if (DisruptionAll(tree.node(t))) unit = t;
    t = tree.node(t).parent;
  }
  return unit;
}

// Subtree: per tree node, facts over the pods of its subtree.
struct SubtreeFacts {
  int32_t placed = 0;
  bool any_bound = false;
  bool any_evicted = false;
};

void SubtreePods(const GroupTree& tree, TreeIndex t, std::vector<PodIndex>& out) {
  std::vector<TreeIndex> leaves;
  tree.Leaves(t, leaves);
  for (TreeIndex l : leaves) {
    for (PodIndex p : tree.node(l).members) out.push_back(p);
  }
}

SubtreeFacts FactsOf(const RunView& v, TreeIndex t) {
  std::vector<PodIndex> pods;
  SubtreePods(v.tree, t, pods);
  SubtreeFacts f;
  for (PodIndex p : pods) {
    f.placed += v.pods[p].node != kNoNode ? 1 : 0;
    f.any_bound = f.any_bound || v.bound_now[p];
    f.any_evicted = f.any_evicted || v.evicted[p];
  }
  return f;
}

// Satisfied: t meets its own quorum now (PodGroup: placed members ≥ minCount; CompositePodGroup:
// satisfied children ≥ minGroupCount). Depth-bounded against malformed chains.
bool Satisfied(const RunView& v, TreeIndex t, int depth) {
  const GroupTreeNode& n = v.tree.node(t);
  if (depth > v.tree.size() || n.cyclic) return false;
  int32_t count = 0;
  if (n.is_composite) {
    for (TreeIndex c : n.children) count += Satisfied(v, c, depth + 1) ? 1 : 0;
  } else {
    for (PodIndex p : n.members) count += v.pods[p].node != kNoNode ? 1 : 0;
  }
  return count >= n.quorum;
}

const char* KindOf(const GroupTreeNode& n) { return n.is_composite ? "CompositePodGroup" : "PodGroup"; }

}  // namespace

void CheckUsage(const RunView& v, std::vector<std::string>& out) {
  std::vector<const api::Node*> sorted;
  sorted.reserve(static_cast<size_t>(v.nodes.size()));
  for (NodeIndex n = 0; n < v.nodes.size(); ++n) sorted.push_back(&v.nodes.node(n));
  ResourceTable fresh_resources = v.resources;
  NodeTable fresh(std::move(sorted), fresh_resources);
  fresh.EnsureResources(v.nodes.resource_count());
  for (const PodInfo& pi : v.pods) {
    if (pi.node != kNoNode) fresh.Add(pi.node, pi.requests, pi.nonzero_cpu, pi.nonzero_memory, 1);
  }
  if (fresh.SameUsage(v.nodes)) return;
  for (NodeIndex n = 0; n < v.nodes.size(); ++n) {
    for (ResourceId r = 0; r < v.nodes.resource_count(); ++r) {
      if (fresh.Requested(r, n) != v.nodes.Requested(r, n)) {
        out.push_back(fmt::format(
            "usage: node {} has {} requested {} incrementally, {} by recomputation from its pods",
            v.nodes.node(n).meta.name, v.resources.Name(r), v.nodes.Requested(r, n),
            fresh.Requested(r, n)));
      }
    }
    if (fresh.NonZeroCPU(n) != v.nodes.NonZeroCPU(n) ||
        fresh.NonZeroMemory(n) != v.nodes.NonZeroMemory(n)) {
      out.push_back(fmt::format(
          "usage: node {} non-zero requested cpu/memory {}/{} incrementally, {}/{} by recomputation",
          v.nodes.node(n).meta.name, v.nodes.NonZeroCPU(n), v.nodes.NonZeroMemory(n),
          fresh.NonZeroCPU(n), fresh.NonZeroMemory(n)));
    }
  }
}

void CheckNoOvercommit(const RunView& v, std::vector<std::string>& out) {
  for (NodeIndex n = 0; n < v.nodes.size(); ++n) {
    if (std::find(v.overcommitted_at_input.begin(), v.overcommitted_at_input.end(), n) !=
        v.overcommitted_at_input.end()) {
      continue;
    }
    for (ResourceId r = 0; r < v.nodes.resource_count(); ++r) {
      if (v.nodes.Requested(r, n) > v.nodes.Allocatable(r, n)) {
        out.push_back(fmt::format("over-commit: node {} has {} requested {} > allocatable {}",
                                  v.nodes.node(n).meta.name, v.resources.Name(r),
                                  v.nodes.Requested(r, n), v.nodes.Allocatable(r, n)));
      }
    }
  }
}

void CheckBindings(const RunView& v, std::vector<std::string>& out) {
  for (size_t p = 0; p < v.pods.size(); ++p) {
    const PodInfo& pi = v.pods[p];
    if (v.bind_count[p] > 1) {
      out.push_back(fmt::format("double booking: pod {} bound {} times in one run", PodKey(pi),
                                static_cast<int>(v.bind_count[p])));
    }
    if (v.evicted[p] && (v.bound_now[p] || pi.node != kNoNode)) {
      out.push_back(fmt::format("double booking: pod {} was evicted (deleted) but is {}", PodKey(pi),
                                v.bound_now[p] ? "bound again" : "still placed"));
    }
    if (v.bound_now[p] && pi.node == kNoNode) {
      out.push_back(fmt::format("binding: pod {} reported bound but has no node", PodKey(pi)));
    }
    if (v.bound_now[p] && pi.running_at_input) {
      out.push_back(fmt::format("double booking: pod {} arrived running but was bound again", PodKey(pi)));
    }
  }
}

void CheckGangAtomicity(const RunView& v, std::vector<std::string>& out) {
  const GroupTree& tree = v.tree;
  std::vector<PodIndex> pods;
  for (TreeIndex t = 0; t < tree.size(); ++t) {
    const GroupTreeNode& n = tree.node(t);
    const SubtreeFacts f = FactsOf(v, t);
    if (!f.any_bound && !f.any_evicted) continue;
    const TreeIndex unit = n.cyclic ? kNoTreeNode : UnitRoot(tree, t);
    // A `single` group that lost pods to preemption may stay below quorum (upstream: each pod is
    // its own victim unit).
    const bool single_victim = f.any_evicted && unit == kNoTreeNode;
    if (!n.is_composite) {
      const auto size = static_cast<int32_t>(n.members.size());
      const bool once = static_cast<size_t>(t) < v.satisfied_once.size() && v.satisfied_once[t] != 0;
      if (f.placed > 0 && f.placed < n.quorum && !single_victim && !once) {
        out.push_back(fmt::format(
            "gang atomicity: PodGroup {} has {} of {} members placed, below minCount {}{}", n.key,
            f.placed, size, n.quorum, f.any_evicted ? " after evictions" : ""));
      }
    } else if (f.any_bound && !single_victim &&
               !(static_cast<size_t>(t) < v.satisfied_once.size() && v.satisfied_once[t] != 0)) {
      int32_t started = 0;
      int32_t satisfied = 0;
      for (TreeIndex c : n.children) {
        started += FactsOf(v, c).placed > 0 ? 1 : 0;
        satisfied += Satisfied(v, c, 1) ? 1 : 0;
      }
      if (started > 0 && satisfied < n.quorum) {
        out.push_back(fmt::format(
            "gang atomicity: CompositePodGroup {} has {} child group(s) with pods placed but only "
            "{} meeting their quorum, below minGroupCount {}",
            n.key, started, satisfied, n.quorum));
      }
    }
  }
  // Victim units are evicted whole: once a pod under an `all` unit was evicted, no pod that
  // arrived running under that unit may still be placed.
  std::vector<char> unit_checked(static_cast<size_t>(tree.size()), 0);
  for (size_t p = 0; p < v.pods.size(); ++p) {
    if (!v.evicted[p] || v.pods[p].group == kNoGroup) continue;
    const TreeIndex unit = UnitRoot(tree, tree.LeafOf(v.pods[p].group));
    if (unit == kNoTreeNode || unit_checked[unit]) continue;
    unit_checked[unit] = 1;
    pods.clear();
    SubtreePods(tree, unit, pods);
    for (PodIndex q : pods) {
      if (v.pods[q].running_at_input && v.pods[q].node != kNoNode) {
        out.push_back(fmt::format(
            "victim unit: {} {} (disruptionMode all) lost pod {} to preemption but its pod {} "
            "still runs",
            KindOf(tree.node(unit)), tree.node(unit).key, PodKey(v.pods[p]), PodKey(v.pods[q])));
      }
    }
  }
}

void CheckTopology(const RunView& v, std::vector<std::string>& out) {
  std::vector<PodIndex> pods;
  for (TreeIndex t = 0; t < v.tree.size(); ++t) {
    const GroupTreeNode& n = v.tree.node(t);
    if (n.topology_key.empty()) continue;
    pods.clear();
    SubtreePods(v.tree, t, pods);
    if (std::none_of(pods.begin(), pods.end(), [&](PodIndex p) { return v.bound_now[p]; })) continue;
    const std::string* first_value = nullptr;
    PodIndex first_pod = -1;
    for (PodIndex p : pods) {
      const NodeIndex node = v.pods[p].node;
      if (node == kNoNode) continue;
      const auto& labels = v.nodes.node(node).meta.labels;
      auto it = labels.find(n.topology_key);
      if (it == labels.end()) {
        out.push_back(fmt::format("topology: {} {} pod {} is on node {} without label {}",
                                  KindOf(n), n.key, PodKey(v.pods[p]), v.nodes.node(node).meta.name,
                                  n.topology_key));
        continue;
      }
      if (first_value == nullptr) {
        first_value = &it->second;
        first_pod = p;
      } else if (*first_value != it->second) {
        out.push_back(fmt::format(
            "topology: {} {} spans several {} domains: pod {} in {}, pod {} in {}", KindOf(n),
            n.key, n.topology_key, PodKey(v.pods[first_pod]), *first_value, PodKey(v.pods[p]), it->second));
        break;
      }
    }
  }
}

void CheckRun(const RunView& v, std::vector<std::string>& out) {
  CheckUsage(v, out);
  CheckNoOvercommit(v, out);
  CheckBindings(v, out);
  CheckGangAtomicity(v, out);
  CheckTopology(v, out);
}

void CheckDevices(std::vector<DeviceUse> uses, std::vector<std::string>& out) {
  std::sort(uses.begin(), uses.end(), [](const DeviceUse& a, const DeviceUse& b) {
    return std::tie(a.device, a.claim) < std::tie(b.device, b.claim);
  });
  for (size_t i = 1; i < uses.size(); ++i) {
    if (uses[i].device == uses[i - 1].device && uses[i].claim != uses[i - 1].claim) {
      out.push_back(fmt::format("dra: device {} allocated to claims {} and {}", uses[i].device,
                                uses[i - 1].claim, uses[i].claim));
    }
  }
}

void CheckDomainSums(const NodeTable& nodes, const DomainSumsView& sums, std::vector<std::string>& out) {
  const plugins::TopologyKeyIndex& index = sums.index;
  const auto resources = static_cast<size_t>(sums.resources);
  std::vector<int64_t> free(resources);
  for (int32_t d = 0; d < index.domain_count(); ++d) {
    int64_t ac = 0, am = 0, rc = 0, rm = 0;
    std::fill(free.begin(), free.end(), 0);
    for (NodeIndex n : index.NodesOf(d)) {
      // Saturating, as the cached sums are (util/saturating.h).
      ac = SaturatingAdd(ac, nodes.Allocatable(kCpu, n));
      am = SaturatingAdd(am, nodes.Allocatable(kMemory, n));
      rc = SaturatingAdd(rc, nodes.NonZeroCPU(n));
      rm = SaturatingAdd(rm, nodes.NonZeroMemory(n));
      for (size_t r = 0; r < resources; ++r) {
        const auto id = static_cast<ResourceId>(r);
        free[r] = SaturatingAdd(
            free[r], std::max<int64_t>(0, SaturatingAdd(nodes.Allocatable(id, n), -nodes.Requested(id, n))));
      }
    }
    const auto di = static_cast<size_t>(d);
    bool same = sums.alloc_cpu[di] == ac && sums.alloc_mem[di] == am && sums.req_cpu[di] == rc &&
                sums.req_mem[di] == rm;
    for (size_t r = 0; r < resources && same; ++r) same = sums.free[di * resources + r] == free[r];
    if (!same) {
      out.push_back(fmt::format(
          "domain sums: {}={}: cached cpu alloc/req {}/{} mem {}/{}, recomputed {}/{} {}/{} (or "
          "free capacity differs)",
          index.key, index.values[di], sums.alloc_cpu[di], sums.req_cpu[di], sums.alloc_mem[di],
          sums.req_mem[di], ac, rc, am, rm));
    }
  }
}

}  // namespace wasched::sched::verify
