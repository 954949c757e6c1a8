#include "sched/preemption/victim_unit.h"

#include <algorithm>
#include <cassert>
#include <tuple>

namespace wasched::sched::preemption {

bool MoreImportantUnit(const VictimUnit& a, const VictimUnit& b) {
  if (a.priority != b.priority) return a.priority > b.priority;
  if (a.kind != b.kind) return a.kind > b.kind;
  if (a.pods.size() != b.pods.size()) return a.pods.size() > b.pods.size();
  // No further tie-break (upstream MoreImportantVictim ends at the start time): equal units keep
  // the order the caller listed them in, which a stable sort preserves.
  return a.earliest_start < b.earliest_start;
}

UnitKey VictimUnitIndex::KeyOf(PodIndex p) const {
  int32_t g = pods_[p].group;
  int32_t highest_all = -1;
  for (int depth = 0; g >= 0 && depth < 8; ++depth) {  // depth bound: trees are ≤ 4 deep
    if (groups_[g].disruption_all) highest_all = g;
    g = groups_[g].parent;
  }
  return highest_all >= 0 ? -1 - static_cast<UnitKey>(highest_all) : static_cast<UnitKey>(p);
}

void VictimUnitIndex::CollectRunning(int32_t group, std::vector<PodIndex>* out, int depth) const {
  if (depth > 8) return;
  for (PodIndex p : groups_[group].members) {
    if (pods_[p].node != kNoNode) out->push_back(p);
  }
  for (int32_t child : groups_[group].children) CollectRunning(child, out, depth + 1);
}

VictimUnit VictimUnitIndex::Build(PodIndex p, UnitKey key) {
  VictimUnit u;
  if (key >= 0) {
    const PodInfo& pi = pods_[p];
    u.pods.push_back(p);
    if (pi.group >= 0) {
      const GroupNode& g = groups_[pi.group];
      u.priority = g.priority;
      u.kind = UnitKind::kPodGroup;
      u.group = pi.group;
    } else {
      u.priority = pi.priority;
    }
    u.earliest_start = pi.start;
    return u;
  }
  const auto g = static_cast<int32_t>(-1 - key);
  const GroupNode& node = groups_[g];
  std::vector<PodIndex> running;
  CollectRunning(g, &running, 0);
  std::sort(running.begin(), running.end(), [&](PodIndex a, PodIndex b) {
    return pods_[a].input_order < pods_[b].input_order;
  });
  for (PodIndex q : running) u.pods.push_back(q);
  u.priority = node.priority;
  u.kind = node.composite ? UnitKind::kCompositePodGroup : UnitKind::kPodGroup;
  u.whole_group = true;
  u.group = g;
  u.earliest_start = pods_[u.pods.front()].start;
  for (PodIndex q : u.pods) u.earliest_start = std::min(u.earliest_start, pods_[q].start);
  return u;
}

int32_t VictimUnitIndex::SlotOf(PodIndex p) {
  assert(pods_[p].node != kNoNode && "victim units hold running pods");
  if (pod_slot_.size() < pods_.size()) pod_slot_.resize(pods_.size(), 0);  // pods may be appended
  if (pod_slot_[p] != 0) return pod_slot_[p] - 1;
  const UnitKey key = KeyOf(p);
  int32_t slot = -1;
  if (key < 0) {
    const auto g = static_cast<size_t>(-1 - key);
    if (group_slot_.empty()) group_slot_.assign(groups_.size(), 0);
    if (group_slot_[g] != 0) {
      slot = group_slot_[g] - 1;
    } else {
      units_.push_back(Build(p, key));
      slot = static_cast<int32_t>(units_.size()) - 1;
      group_slot_[g] = slot + 1;
      built_groups_.push_back(static_cast<int32_t>(g));
      for (PodIndex q : units_.back().pods) {
        pod_slot_[q] = slot + 1;
        grouped_.push_back(q);
      }
    }
  } else {
    units_.push_back(Build(p, key));
    slot = static_cast<int32_t>(units_.size()) - 1;
  }
  pod_slot_[p] = slot + 1;
  if (key < 0) grouped_.push_back(p);
  return slot;
}

void VictimUnitIndex::Refresh() {
  for (PodIndex q : grouped_) pod_slot_[q] = 0;
  for (int32_t g : built_groups_) group_slot_[g] = 0;
  grouped_.clear();
  built_groups_.clear();
}

std::string VictimUnitIndex::Label(const VictimUnit& u) const {
  if (u.whole_group) return groups_[u.group].label;
  return "Pod " + PodKey(pods_[u.pods.front()]);
}

const VictimUnit& VictimUnitIndex::UnitOf(PodIndex p) { return units_[SlotOf(p)]; }

std::vector<int32_t> VictimUnitIndex::AllSlots() {
  std::vector<int32_t> slots;
  std::vector<bool> seen;
  for (size_t p = 0; p < pods_.size(); ++p) {
    if (pods_[p].node == kNoNode) continue;
    const int32_t slot = SlotOf(static_cast<PodIndex>(p));
    if (static_cast<size_t>(slot) >= seen.size()) seen.resize(slot + 1, false);
    if (seen[slot]) continue;
    seen[slot] = true;
    slots.push_back(slot);
  }
  return slots;
}

}  // namespace wasched::sched::preemption
