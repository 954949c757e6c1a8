// File: sched/gang/group_tree.cc
//
// GroupTree (see group_tree.h). Runtime hierarchy problems come from
// validation::FindInvalidHierarchies (KEP-6012 §4.6 rules live there only).
#include "sched/gang/group_tree.h"

#include <algorithm>
#include <tuple>

#include "validation/hierarchy_validation.h"

namespace wasched::sched {
namespace {

using NameKey = std::pair<std::string_view, std::string_view>;  // views into the objects

TreeIndex Lookup(const std::vector<std::pair<NameKey, TreeIndex>>& sorted, const NameKey& key) {
  auto it = std::lower_bound(sorted.begin(), sorted.end(), key,
                             [](const auto& e, const NameKey& k) { return e.first < k; });
  return it != sorted.end() && it->first == key ? it->second : kNoTreeNode;
}

}  // namespace

GroupTree::GroupTree(const api::ObjectSet& objects) {
  pod_group_count_ = static_cast<int32_t>(objects.pod_groups.size());
  nodes_.reserve(objects.pod_groups.size() + objects.composite_pod_groups.size());
  for (const api::PodGroup& pg : objects.pod_groups) {
    GroupTreeNode n;
    n.pod_group = &pg;
    n.key = api::NamespacedName(pg.meta);
    n.is_gang = pg.scheduling_policy.gang.has_value();
    n.quorum = api::MinCount(pg.scheduling_policy);
    if (pg.scheduling_constraints && !pg.scheduling_constraints->topology.empty()) {
      n.topology_key = pg.scheduling_constraints->topology.front().key;
    }
    pg_by_name_.push_back({{pg.meta.namespace_, pg.meta.name}, static_cast<TreeIndex>(nodes_.size())});
    nodes_.push_back(std::move(n));
  }
  for (const api::CompositePodGroup& c : objects.composite_pod_groups) {
    GroupTreeNode n;
    n.is_composite = true;
    n.composite = &c;
    n.key = api::NamespacedName(c.meta);
    n.is_gang = c.scheduling_policy.gang.has_value();
    n.quorum = n.is_gang ? c.scheduling_policy.gang->min_group_count : 1;
    if (c.scheduling_constraints && !c.scheduling_constraints->topology.empty()) {
      n.topology_key = c.scheduling_constraints->topology.front().key;
    }
    cpg_by_name_.push_back({{c.meta.namespace_, c.meta.name}, static_cast<TreeIndex>(nodes_.size())});
    nodes_.push_back(std::move(n));
  }
  // Duplicate names (invalid input) keep the first in input order: stable sort, first wins.
  auto by_key = [](const auto& a, const auto& b) { return a.first < b.first; };
  std::stable_sort(pg_by_name_.begin(), pg_by_name_.end(), by_key);
  std::stable_sort(cpg_by_name_.begin(), cpg_by_name_.end(), by_key);

  // Parent links.
  auto meta_of = [&](TreeIndex i) -> const api::ObjectMeta& {
    return nodes_[i].is_composite ? nodes_[i].composite->meta : nodes_[i].pod_group->meta;
  };
  auto parent_name = [&](TreeIndex i) -> const std::optional<std::string>& {
    return nodes_[i].is_composite ? nodes_[i].composite->parent_composite_pod_group_name
                                  : nodes_[i].pod_group->parent_composite_pod_group_name;
  };
  std::vector<std::string> missing(nodes_.size());
  for (TreeIndex i = 0; i < size(); ++i) {
    const auto& pn = parent_name(i);
    if (!pn) continue;
    TreeIndex p = Lookup(cpg_by_name_, {meta_of(i).namespace_, *pn});
    if (p == kNoTreeNode) {
      missing[i] = *pn;
    } else {
      nodes_[i].parent = p;
      nodes_[p].children.push_back(i);
    }
  }
  for (auto& n : nodes_) {
    std::stable_sort(n.children.begin(), n.children.end(), [&](TreeIndex a, TreeIndex b) {
      const auto& ma = meta_of(a);
      const auto& mb = meta_of(b);
      return std::make_tuple(ma.creation_timestamp.value_or(0), std::cref(ma.name), a) <
             std::make_tuple(mb.creation_timestamp.value_or(0), std::cref(mb.name), b);
    });
  }

  // Roots and depths: climb until a node already resolved, a root or a cycle, then resolve the
  // whole chain from its top: O(G) in all (issue 20 item 22: a 30,000-level chain climbed from
  // every node was O(G²)). A chain that reaches a cycle is cyclic; one that reaches a node with
  // a missing parent waits with it.
  enum : char { kUnknown = 0, kOnChain = 1, kResolved = 2 };
  std::vector<TreeIndex> chain;
  std::vector<char> state(nodes_.size(), kUnknown);
  for (TreeIndex i = 0; i < size(); ++i) {
    if (state[i] == kResolved) continue;
    chain.clear();
    TreeIndex top = i;
    while (state[top] == kUnknown) {
      state[top] = kOnChain;
      chain.push_back(top);
      if (nodes_[top].parent == kNoTreeNode) break;
      top = nodes_[top].parent;
    }
    // Now either `top` is the chain's last node (a root or a missing parent), an earlier node
    // of this chain (a cycle), or a node resolved before.
    bool cyclic = false;
    std::string missing_parent;
    TreeIndex root = kNoTreeNode;
    int32_t depth = 0;  // depth of the node above chain.back()
    if (state[top] == kResolved) {
      const GroupTreeNode& above = nodes_[top];
      cyclic = above.cyclic;
      missing_parent = above.missing_parent;
      root = above.root;
      depth = above.depth;
    } else if (top != chain.back() || nodes_[top].parent != kNoTreeNode) {
      cyclic = true;
    } else if (!missing[top].empty()) {
      missing_parent = missing[top];
    } else {
      root = top;
    }
    for (auto c = chain.rbegin(); c != chain.rend(); ++c) {
      GroupTreeNode& n = nodes_[*c];
      state[*c] = kResolved;
      if (cyclic) {
        n.cyclic = true;
      } else if (!missing_parent.empty()) {
        n.missing_parent = missing_parent;
      } else {
        n.root = root;
        n.depth = ++depth;
      }
    }
  }
  for (TreeIndex i = 0; i < size(); ++i) {
    if (nodes_[i].root == i) roots_.push_back(i);
  }

  // Runtime hierarchy validation (KEP-6012): every node of a refused tree carries the message.
  // Its rules are a cycle or a CompositePodGroup deeper than kMaxSchedulingTreeDepth, which the
  // links above already show when CompositePodGroup names are unique (both then follow the same
  // parent links, root at depth 1): only then is the validation skipped (it builds maps of the
  // whole forest: 6% of the CompositePodGroup shape). Duplicate names (invalid input) always run
  // it, as its walk may reach a group twice.
  bool may_be_refused = false;
  for (size_t i = 1; i < cpg_by_name_.size() && !may_be_refused; ++i) {
    may_be_refused = cpg_by_name_[i - 1].first == cpg_by_name_[i].first;
  }
  for (const GroupTreeNode& n : nodes_) {
    if (may_be_refused) break;
    may_be_refused = n.is_composite && (n.cyclic || n.depth > validation::kMaxSchedulingTreeDepth);
  }
  if (!may_be_refused) return;
  for (const validation::HierarchyProblem& p : validation::FindInvalidHierarchies(objects)) {
    for (const api::CompositePodGroup* c : p.composite_pod_groups) {
      nodes_[CompositeOf(static_cast<int32_t>(c - objects.composite_pod_groups.data()))].problem =
          p.message;
    }
    for (const api::PodGroup* pg : p.pod_groups) {
      nodes_[LeafOf(static_cast<int32_t>(pg - objects.pod_groups.data()))].problem = p.message;
    }
  }
}

TreeIndex GroupTree::FindPodGroup(std::string_view ns, std::string_view name) const {
  return Lookup(pg_by_name_, {ns, name});
}

TreeIndex GroupTree::FindComposite(std::string_view ns, std::string_view name) const {
  return Lookup(cpg_by_name_, {ns, name});
}

void GroupTree::Preorder(TreeIndex from, std::vector<TreeIndex>& out) const {
  if (nodes_[from].children.empty()) {  // a standalone PodGroup or a leaf: no stack to allocate
    out.push_back(from);
    return;
  }
  // Iterative with an explicit stack; a cycle cannot be reached from a root.
  const size_t begin = out.size();
  std::vector<TreeIndex> stack{from};
  while (!stack.empty()) {
    TreeIndex t = stack.back();
    stack.pop_back();
    out.push_back(t);
    const auto& ch = nodes_[t].children;
    for (auto it = ch.rbegin(); it != ch.rend(); ++it) stack.push_back(*it);
    if (out.size() - begin > nodes_.size()) return;  // defensive against a cycle
  }
}

void GroupTree::Leaves(TreeIndex from, std::vector<TreeIndex>& out) const {
  // Preorder's walk, keeping only the PodGroups: appended to `out` and then compacted in place.
  const size_t begin = out.size();
  Preorder(from, out);
  out.erase(std::remove_if(out.begin() + static_cast<std::ptrdiff_t>(begin), out.end(),
                           [&](TreeIndex t) { return nodes_[t].is_composite; }),
            out.end());
}

}  // namespace wasched::sched
