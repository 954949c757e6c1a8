// File: validation/hierarchy_validation.cc
//
// FindInvalidHierarchies (see hierarchy_validation.h). Rules from KEP-6012 and the 1.37
// scheduler integration test described in spec/upstream-cases.md G04–G08.
#include "validation/hierarchy_validation.h"

#include <fmt/format.h>

#include <map>
#include <optional>
#include <set>
#include <utility>

namespace wasched::validation {
namespace {

using Key = std::pair<std::string, std::string>;  // (namespace, name)

Key KeyOf(const api::ObjectMeta& meta) { return {meta.namespace_, meta.name}; }

bool IsAll(const std::optional<api::DisruptionMode>& mode) { return mode && mode->all; }

// Tree: the groups under one root (or one cycle), with each group's depth.
struct Tree {
  std::vector<std::pair<const api::CompositePodGroup*, int>> composites;
  std::vector<std::pair<const api::PodGroup*, int>> pod_groups;
  bool cyclic = false;
};

class Checker {
 public:
  explicit Checker(const api::ObjectSet& objects) : objects_(objects) {
    for (const api::CompositePodGroup& g : objects.composite_pod_groups) {
      composites_.emplace(KeyOf(g.meta), &g);
    }
    for (const api::CompositePodGroup& g : objects.composite_pod_groups) {
      if (g.parent_composite_pod_group_name) {
        child_composites_[{g.meta.namespace_, *g.parent_composite_pod_group_name}].push_back(&g);
      }
    }
    for (const api::PodGroup& g : objects.pod_groups) {
      if (g.parent_composite_pod_group_name) {
        child_pod_groups_[{g.meta.namespace_, *g.parent_composite_pod_group_name}].push_back(&g);
      }
    }
  }

  std::vector<HierarchyProblem> Run() {
    std::vector<HierarchyProblem> found;
    std::set<const api::CompositePodGroup*> seen;
    for (std::size_t i = 0; i < objects_.composite_pod_groups.size(); ++i) {
      const api::CompositePodGroup* g = &objects_.composite_pod_groups[i];
      if (seen.count(g) > 0) continue;
      std::optional<Tree> tree = TreeOf(g, &seen);
      if (!tree) continue;  // parent missing: waits at PreEnqueue (its chain is in `seen`)
      for (const auto& [c, depth] : tree->composites) seen.insert(c);
      if (std::optional<std::string> why = Problem(*tree)) {
        HierarchyProblem p;
        for (const auto& [c, depth] : tree->composites) p.composite_pod_groups.push_back(c);
        for (const auto& [pg, depth] : tree->pod_groups) p.pod_groups.push_back(pg);
        p.message = std::move(*why);
        found.push_back(std::move(p));
      }
    }
    return found;
  }

 private:
  // TreeOf: the tree containing `g`: climb to its root (or detect a cycle), then walk down.
  // When a parent is missing, the climbed chain goes into `waiting` (not climbed again).
  std::optional<Tree> TreeOf(const api::CompositePodGroup* g,
                             std::set<const api::CompositePodGroup*>* waiting) {
    std::set<const api::CompositePodGroup*> chain;
    const api::CompositePodGroup* top = g;
    while (top->parent_composite_pod_group_name) {
      chain.insert(top);
      auto it = composites_.find({top->meta.namespace_, *top->parent_composite_pod_group_name});
      if (it == composites_.end() || waiting->count(it->second) > 0) {
        waiting->insert(chain.begin(), chain.end());
        return std::nullopt;
      }
      if (chain.count(it->second) > 0) {  // a cycle: every CPG on it, no root
        Tree tree;
        tree.cyclic = true;
        const api::CompositePodGroup* c = it->second;
        do {
          tree.composites.emplace_back(c, 0);
          if (auto pgs = child_pod_groups_.find(KeyOf(c->meta)); pgs != child_pod_groups_.end()) {
            for (const api::PodGroup* pg : pgs->second) tree.pod_groups.emplace_back(pg, 0);
          }
          c = composites_.at({c->meta.namespace_, *c->parent_composite_pod_group_name});
        } while (c != it->second);
        return tree;
      }
      top = it->second;
    }
    Tree tree;
    Walk(top, &tree);
    return tree;
  }

  // Walk: the tree under `root`, preorder, iterative (a chain of any length neither copies a
  // path per level nor recurses; issue 20 item 22). Each group has one parent and cycles were
  // found while climbing, so every group is reached once. O(groups of the tree).
  void Walk(const api::CompositePodGroup* root, Tree* tree) {
    std::vector<std::pair<const api::CompositePodGroup*, int>> stack = {{root, 1}};
    while (!stack.empty()) {
      const auto [g, depth] = stack.back();
      stack.pop_back();
      tree->composites.emplace_back(g, depth);
      const Key key = KeyOf(g->meta);
      if (auto it = child_pod_groups_.find(key); it != child_pod_groups_.end()) {
        for (const api::PodGroup* pg : it->second) tree->pod_groups.emplace_back(pg, depth + 1);
      }
      if (auto it = child_composites_.find(key); it != child_composites_.end()) {
        for (auto c = it->second.rbegin(); c != it->second.rend(); ++c) {
          stack.emplace_back(*c, depth + 1);
        }
      }
    }
  }

  std::optional<std::string> Problem(const Tree& tree) const {
    if (tree.cyclic) {
      return fmt::format("the CompositePodGroup hierarchy of {} is cyclic",
                         api::NamespacedName(tree.composites.front().first->meta));
    }
    for (const auto& [c, depth] : tree.composites) {
      if (depth >= api::kWorkloadMaxTreeDepth) {
        return fmt::format("CompositePodGroup {} is at depth {}; the maximum hierarchy depth is {}",
                           api::NamespacedName(c->meta), depth, api::kWorkloadMaxTreeDepth);
      }
    }
    for (const auto& [pg, depth] : tree.pod_groups) {
      if (depth > api::kWorkloadMaxTreeDepth) {
        return fmt::format("PodGroup {} is at depth {}; the maximum hierarchy depth is {}",
                           api::NamespacedName(pg->meta), depth, api::kWorkloadMaxTreeDepth);
      }
    }
    const api::CompositePodGroup* root = tree.composites.front().first;
    const std::string workload = root->workload_ref ? root->workload_ref->workload_name : "";
    auto other_workload = [&](const std::optional<api::WorkloadReference>& ref) {
      return (ref ? ref->workload_name : "") != workload;
    };
    for (const auto& [c, depth] : tree.composites) {
      if (other_workload(c->workload_ref)) {
        return fmt::format("the hierarchy of CompositePodGroup {} spans several Workloads",
                           api::NamespacedName(root->meta));
      }
    }
    for (const auto& [pg, depth] : tree.pod_groups) {
      if (other_workload(pg->workload_ref)) {
        return fmt::format("the hierarchy of CompositePodGroup {} spans several Workloads",
                           api::NamespacedName(root->meta));
      }
    }
    for (const auto& [c, depth] : tree.composites) {
      const Key key = KeyOf(c->meta);
      auto pgs = child_pod_groups_.find(key);
      if (c->scheduling_policy.gang && pgs != child_pod_groups_.end()) {
        for (const api::PodGroup* pg : pgs->second) {
          if (pg->scheduling_policy.basic) {
            return fmt::format("Gang CompositePodGroup {} has the Basic child PodGroup {}",
                               api::NamespacedName(c->meta), api::NamespacedName(pg->meta));
          }
        }
      }
      if (!IsAll(c->disruption_mode)) continue;
      if (pgs != child_pod_groups_.end()) {
        for (const api::PodGroup* pg : pgs->second) {
          if (!IsAll(pg->disruption_mode)) {
            return fmt::format(
                "CompositePodGroup {} has disruption mode all but its child PodGroup {} has single",
                api::NamespacedName(c->meta), api::NamespacedName(pg->meta));
          }
        }
      }
      if (auto cs = child_composites_.find(key); cs != child_composites_.end()) {
        for (const api::CompositePodGroup* child : cs->second) {
          if (!IsAll(child->disruption_mode)) {
            return fmt::format(
                "CompositePodGroup {} has disruption mode all but its child CompositePodGroup {} "
                "has single",
                api::NamespacedName(c->meta), api::NamespacedName(child->meta));
          }
        }
      }
    }
    return std::nullopt;
  }

  const api::ObjectSet& objects_;
  std::map<Key, const api::CompositePodGroup*> composites_;
  std::map<Key, std::vector<const api::CompositePodGroup*>> child_composites_;
  std::map<Key, std::vector<const api::PodGroup*>> child_pod_groups_;
};

}  // namespace

std::vector<HierarchyProblem> FindInvalidHierarchies(const api::ObjectSet& objects) {
  return Checker(objects).Run();
}

}  // namespace wasched::validation
