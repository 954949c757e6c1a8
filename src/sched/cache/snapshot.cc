#include "sched/cache/snapshot.h"

#include <algorithm>
#include <cassert>

#include "sched/plugins/dynamic_resources/dynamic_resources.h"

namespace wasched::sched {

NodePodList::NodePodList(NodePodList&& o) noexcept : size_(o.size_), cap_(o.cap_) {
  if (cap_ > kInline) {
    heap_ = o.heap_;
  } else {
    std::copy(o.inline_, o.inline_ + size_, inline_);
  }
  o.size_ = 0;
  o.cap_ = kInline;
}

NodePodList& NodePodList::operator=(NodePodList&& o) noexcept {
  if (this == &o) return *this;
  if (cap_ > kInline) delete[] heap_;
  size_ = o.size_;
  cap_ = o.cap_;
  if (cap_ > kInline) {
    heap_ = o.heap_;
  } else {
    std::copy(o.inline_, o.inline_ + size_, inline_);
  }
  o.size_ = 0;
  o.cap_ = kInline;
  return *this;
}

void NodePodList::Push(PodIndex p) {
  if (size_ == cap_) {
    const int32_t cap = cap_ * 2;
    auto* grown = new PodIndex[static_cast<size_t>(cap)];
    const PodIndex* from = cap_ > kInline ? heap_ : inline_;
    std::copy(from, from + size_, grown);
    if (cap_ > kInline) delete[] heap_;
    heap_ = grown;
    cap_ = cap;
  }
  (cap_ > kInline ? heap_ : inline_)[size_++] = p;
}

void NodePodList::Erase(PodIndex p) {
  PodIndex* data = cap_ > kInline ? heap_ : inline_;
  for (int32_t i = size_; i-- > 0;) {
    if (data[i] == p) {
      data[i] = data[size_ - 1];
      --size_;
      return;
    }
  }
}

void Snapshot::Place(PodIndex p, NodeIndex n) {
  PodInfo& pi = pods_[p];
  pi.node = n;
  nodes_.Add(n, pi.requests, pi.nonzero_cpu, pi.nonzero_memory, +1);
  on_node_[n].Push(p);
  changed_[version_ % kChangeWindow] = p;
  ++version_;
}

void Snapshot::Unplace(PodIndex p) {
  PodInfo& pi = pods_[p];
  nodes_.Add(pi.node, pi.requests, pi.nonzero_cpu, pi.nonzero_memory, -1);
  // Newest first: an undo removes the pod assumed last, at the back of its node's list.
  on_node_[pi.node].Erase(p);
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
