#include "sched/cache/snapshot.h"

#include <cassert>

#include "sched/plugins/dynamic_resources/dynamic_resources.h"

namespace wasched::sched {

void Snapshot::Place(PodIndex p, NodeIndex n) {
  PodInfo& pi = pods_[p];
  pi.node = n;
  nodes_.Add(n, pi.requests, pi.nonzero_cpu, pi.nonzero_memory, +1);
  on_node_[n].push_back(p);
  changed_[version_ % kChangeWindow] = p;
  ++version_;
}

void Snapshot::Unplace(PodIndex p) {
  PodInfo& pi = pods_[p];
  nodes_.Add(pi.node, pi.requests, pi.nonzero_cpu, pi.nonzero_memory, -1);
  // Newest first: an undo removes the pod assumed last, at the back of its node's list.
  std::vector<PodIndex>& list = on_node_[pi.node];
  for (size_t i = list.size(); i-- > 0;) {
    if (list[i] == p) {
      list[i] = list.back();
      list.pop_back();
      break;
    }
  }
  pi.node = kNoNode;
  changed_[version_ % kChangeWindow] = p;
  ++version_;
}

void Snapshot::Assume(PodIndex p, NodeIndex n) {
  PodInfo& pi = pods_[p];
  assert(pi.node == kNoNode && "Assume of a pod that is already placed");
  Place(p, n);
  log_.push_back(p);
  if (dra_ != nullptr) dra_->Assume(*pi.pod, n);
}

void Snapshot::RevertTo(size_t mark) {
  while (log_.size() > mark) {
    PodInfo& pi = pods_[log_.back()];
    if (dra_ != nullptr) dra_->Unassume(*pi.pod);
    Unplace(log_.back());
    log_.pop_back();
  }
}

void Snapshot::Commit() {
  log_.clear();
  if (dra_ != nullptr) dra_->CommitAssumed();
}

void Snapshot::Remove(PodIndex p) {
  assert(pods_[p].node != kNoNode && "Remove of an unplaced pod");
  Unplace(p);
}

void Snapshot::Restore(PodIndex p, NodeIndex n) {
  assert(pods_[p].node == kNoNode && "Restore of a placed pod");
  Place(p, n);
}

}  // namespace wasched::sched
