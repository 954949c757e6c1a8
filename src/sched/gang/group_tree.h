// File: sched/gang/group_tree.h
//
// GroupTree: the PodGroup / CompositePodGroup hierarchy of one scheduler run (KEP-6012;
// spec/was-v1.37.md §2.4–2.5, §4.1, §4.4). PodGroups link to their parent CompositePodGroup by
// spec.parentCompositePodGroupName, CompositePodGroups to theirs likewise, within a namespace.
// The queue's unit is the root of a tree: a standalone PodGroup or a root CompositePodGroup.
//
// Indexing: tree node i < pod_groups.size() is objects.pod_groups[i] (so a scheduler
// GroupIndex is also its tree index); node pod_groups.size() + j is
// objects.composite_pod_groups[j].
//
// Children order (upstream processes children "in pre-sorted order"; the key is not published,
// choice documented here): creation timestamp, then name, PodGroups and CompositePodGroups
// mixed. Deterministic for any input order.
//
// Broken chains: a node whose ancestor chain names a CompositePodGroup that is not in the input
// has `root == kNoTreeNode` and `missing_parent` set (PreEnqueue holds it); nodes on a cycle have
// `cyclic` set and no root. Trees refused by runtime hierarchy validation (§4.6; reused from
// validation::FindInvalidHierarchies) carry `problem` on every node of the tree.
//
//   GroupTree tree(objects);
//   for (TreeIndex r : tree.roots()) { if (tree.node(r).problem.empty()) tree.Preorder(r, out); }
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "api/object_set.h"
#include "sched/framework/pod_info.h"

namespace wasched::sched {

using TreeIndex = int32_t;
inline constexpr TreeIndex kNoTreeNode = -1;

// GroupTreeNode: one PodGroup (leaf) or CompositePodGroup (inner node).
struct GroupTreeNode {
  bool is_composite = false;
  const api::PodGroup* pod_group = nullptr;             // when !is_composite
  const api::CompositePodGroup* composite = nullptr;    // when is_composite
  std::string key;                  // "ns/name"
  TreeIndex parent = kNoTreeNode;   // kNoTreeNode for a root or a broken chain
  TreeIndex root = kNoTreeNode;     // root of its tree; kNoTreeNode when missing_parent / cyclic
  int32_t depth = 1;                // root = 1 (valid only when root is set)
  std::vector<TreeIndex> children;  // CompositePodGroups only; creation, then name
  // quorum: minCount (PodGroup) or minGroupCount (CompositePodGroup); 1 for basic.
  int32_t quorum = 1;
  bool is_gang = false;
  std::string topology_key;         // schedulingConstraints.topology[0].key, "" when none
  std::string missing_parent;       // name of the first absent CompositePodGroup on the chain
  bool cyclic = false;
  std::string problem;              // runtime hierarchy validation message, "" when valid
  std::vector<PodIndex> members;    // leaf member pods (filled by the caller: AddMember)
};

class GroupTree {
 public:
  // GroupTree: links every group of `objects` (which must outlive the tree).
  // O(G log G + G × depth) for G groups.
  explicit GroupTree(const api::ObjectSet& objects);

  [[nodiscard]] int32_t size() const { return static_cast<int32_t>(nodes_.size()); }
  [[nodiscard]] const GroupTreeNode& node(TreeIndex i) const { return nodes_[i]; }
  [[nodiscard]] TreeIndex LeafOf(int32_t pod_group_index) const { return pod_group_index; }
  [[nodiscard]] TreeIndex CompositeOf(int32_t cpg_index) const { return pod_group_count_ + cpg_index; }
  // FindPodGroup / FindComposite: tree index of the named group or kNoTreeNode. O(log G).
  [[nodiscard]] TreeIndex FindPodGroup(std::string_view ns, std::string_view name) const;
  [[nodiscard]] TreeIndex FindComposite(std::string_view ns, std::string_view name) const;

  // roots: every node that is the root of a complete tree (standalone PodGroups included),
  // in tree-index order.
  [[nodiscard]] const std::vector<TreeIndex>& roots() const { return roots_; }

  // Preorder: `from` and its descendants, parents before children, children in order.
  void Preorder(TreeIndex from, std::vector<TreeIndex>& out) const;
  // Leaves: the PodGroups under `from` (itself when a leaf), in preorder.
  void Leaves(TreeIndex from, std::vector<TreeIndex>& out) const;

  // AddMember: records pod p as a member of leaf `leaf` (pods in the caller's order).
  void AddMember(TreeIndex leaf, PodIndex p) { nodes_[leaf].members.push_back(p); }

 private:
  std::vector<GroupTreeNode> nodes_;
  int32_t pod_group_count_ = 0;
  std::vector<TreeIndex> roots_;
  // (namespace, name) → index, sorted; views into the objects.
  std::vector<std::pair<std::pair<std::string_view, std::string_view>, TreeIndex>> pg_by_name_;
  std::vector<std::pair<std::pair<std::string_view, std::string_view>, TreeIndex>> cpg_by_name_;
};

}  // namespace wasched::sched
