#include "sched/cache/snapshot.h"

#include <cassert>

#include "sched/plugins/dynamic_resources/dynamic_resources.h"

namespace wasched::sched {

void Snapshot::Assume(PodIndex p, NodeIndex n) {
  PodInfo& pi = pods_[p];
  assert(pi.node == kNoNode && "Assume of a pod that is already placed");
  pi.node = n;
  nodes_.Add(n, pi.requests, pi.nonzero_cpu, pi.nonzero_memory, +1);
  log_.push_back(p);
  if (dra_ != nullptr) dra_->Assume(*pi.pod, n);
}

void Snapshot::RevertTo(size_t mark) {
  while (log_.size() > mark) {
    PodInfo& pi = pods_[log_.back()];
    if (dra_ != nullptr) dra_->Unassume(*pi.pod);
    nodes_.Add(pi.node, pi.requests, pi.nonzero_cpu, pi.nonzero_memory, -1);
    pi.node = kNoNode;
    log_.pop_back();
  }
}

void Snapshot::Commit() {
  log_.clear();
  if (dra_ != nullptr) dra_->CommitAssumed();
}

void Snapshot::Remove(PodIndex p) {
  PodInfo& pi = pods_[p];
  assert(pi.node != kNoNode && "Remove of an unplaced pod");
  nodes_.Add(pi.node, pi.requests, pi.nonzero_cpu, pi.nonzero_memory, -1);
  pi.node = kNoNode;
}

void Snapshot::Restore(PodIndex p, NodeIndex n) {
  PodInfo& pi = pods_[p];
  assert(pi.node == kNoNode && "Restore of a placed pod");
  pi.node = n;
  nodes_.Add(n, pi.requests, pi.nonzero_cpu, pi.nonzero_memory, +1);
}

}  // namespace wasched::sched
