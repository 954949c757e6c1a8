// File: sched/framework/score_index.h
//
// ScoreIndex: a max segment tree over a pod signature's candidate nodes, answering "which node
// scores best right now" in O(1) after O(log P) per changed node. It is how the framework turns
// "filter and score every node for every pod" into arithmetic for equivalent pods: identical pods
// (same node-static constraints and requests) share one index, and only nodes whose usage
// changed since the last query are re-scored (see NodeTable::change_log()).
//
// Leaves hold a score ≥ 0, or -1 for "does not fit". Ties go to the lowest position, which
// matches the framework's scan (lowest node index wins).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace wasched::sched {

class ScoreIndex {
 public:
  // Build: leaves from `scores` (one per position). O(P).
  void Build(const std::vector<int64_t>& scores);
  // Set: one leaf. O(log P).
  void Set(int32_t pos, int64_t score);
  // BestPos: position of the highest score (lowest position on ties), or -1 when every leaf is
  // -1. O(1).
  [[nodiscard]] int32_t BestPos() const;
  [[nodiscard]] int32_t size() const { return positions_; }
  // ScoreAt: the leaf at `pos`. O(1).
  [[nodiscard]] int64_t ScoreAt(int32_t pos) const { return score_[pos]; }

 private:
  [[nodiscard]] int32_t Better(int32_t a, int32_t b) const {
    if (score_[a] != score_[b]) return score_[a] > score_[b] ? a : b;
    return a < b ? a : b;
  }
  int32_t positions_ = 0;
  int32_t leaves_ = 1;           // power of two ≥ positions_
  std::vector<int64_t> score_;   // per leaf (padding leaves hold -1)
  std::vector<int32_t> best_;    // tree of leaf positions, root at 1
};

}  // namespace wasched::sched
