// File: validation/hierarchy_validation.cc
//
// FindInvalidHierarchies (see hierarchy_validation.h): cycles, as v1.37.2's scheduler cache
// (pkg/scheduler/backend/cache/cache.go buildPodGroupStateSnapshotTree), and wasched's own depth
// limit.
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
  // found while climbing, so every group is reached once (a duplicate name is skipped, see
  // below). O(groups of the tree).
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
          // A second CompositePodGroup of an existing name (refused by ValidateForSchedule, but
          // a caller may skip it) is not the one its name resolves to: walking it could loop
          // (root "a" → "b" → the other "a" → "b" …), so only the resolved one is walked.
          if (composites_.at(KeyOf((*c)->meta)) != *c) continue;
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
    // Depth: v1.37.2 refuses no depth (its upward walk stops after kWorkloadMaxTreeDepth
    // levels); wasched refuses only chains beyond kMaxSchedulingTreeDepth, its own limit.
    for (const auto& [c, depth] : tree.composites) {
      if (depth > kMaxSchedulingTreeDepth) {
        return fmt::format(
            "CompositePodGroup {} is at depth {}; wasched schedules hierarchies up to {} levels "
            "deep",
            api::NamespacedName(c->meta), depth, kMaxSchedulingTreeDepth);
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
