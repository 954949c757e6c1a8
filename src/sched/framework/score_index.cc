#include "sched/framework/score_index.h"

namespace wasched::sched {

void ScoreIndex::Build(const std::vector<int64_t>& scores) {
  positions_ = static_cast<int32_t>(scores.size());
  leaves_ = 1;
  while (leaves_ < positions_) leaves_ *= 2;
  score_.assign(static_cast<size_t>(leaves_), -1);
  for (int32_t i = 0; i < positions_; ++i) score_[i] = scores[i];
  best_.assign(static_cast<size_t>(2 * leaves_), 0);
  for (int32_t i = 0; i < leaves_; ++i) best_[leaves_ + i] = i;
  for (int32_t i = leaves_ - 1; i >= 1; --i) best_[i] = Better(best_[2 * i], best_[2 * i + 1]);
}

void ScoreIndex::Set(int32_t pos, int64_t score) {
  score_[pos] = score;
  for (int32_t i = (leaves_ + pos) / 2; i >= 1; i /= 2) {
    best_[i] = Better(best_[2 * i], best_[2 * i + 1]);
  }
}

int32_t ScoreIndex::BestPos() const {
  if (positions_ == 0) return -1;
  int32_t b = best_[1];
  return score_[b] < 0 ? -1 : b;
}

}  // namespace wasched::sched
