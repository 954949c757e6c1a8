// File: validation/error_collector.cc
#include "validation/error_collector.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <utility>

namespace wasched::validation::internal {
namespace {

// FileRanks: the input order of files, reconstructed from the per-kind vectors (each one is a
// subsequence of the input order): a topological merge, ties broken by first appearance.
class FileRanks {
 public:
  void AddSequence(const std::vector<const std::string*>& files) {
    const std::string* prev = nullptr;
    for (const std::string* f : files) {
      Intern(*f);
      if (prev != nullptr && *prev != *f) edges_[id_[*prev]].insert(id_[*f]);
      prev = f;
    }
  }

  // Compute: assigns each file its rank. O(F log F + E).
  void Compute() {
    const std::size_t n = names_.size();
    std::vector<int> indegree(n, 0);
    for (const auto& [from, tos] : edges_) {
      for (std::size_t to : tos) ++indegree[to];
    }
    std::set<std::size_t> ready;  // by first appearance
    std::vector<bool> done(n, false);
    for (std::size_t i = 0; i < n; ++i) {
      if (indegree[i] == 0) ready.insert(i);
    }
    rank_.assign(n, 0);
    for (std::size_t next_rank = 0; next_rank < n; ++next_rank) {
      std::size_t pick;
      if (!ready.empty()) {
        pick = *ready.begin();
        ready.erase(ready.begin());
      } else {  // a cycle (the same file read twice): take the earliest remaining
        pick = static_cast<std::size_t>(std::find(done.begin(), done.end(), false) - done.begin());
      }
      done[pick] = true;
      rank_[pick] = next_rank;
      auto it = edges_.find(pick);
      if (it == edges_.end()) continue;
      for (std::size_t to : it->second) {
        if (!done[to] && --indegree[to] == 0) ready.insert(to);
      }
    }
  }

  std::size_t Rank(const std::string& file) const {
    auto it = id_.find(file);
    return it == id_.end() ? 0 : rank_[it->second];
  }

 private:
  void Intern(const std::string& f) {
    if (id_.emplace(f, names_.size()).second) names_.push_back(f);
  }
  std::map<std::string, std::size_t> id_;
  std::vector<std::string> names_;
  std::map<std::size_t, std::set<std::size_t>> edges_;
  std::vector<std::size_t> rank_;
};

template <typename T>
std::vector<const std::string*> FilesOf(const std::vector<T>& objects) {
  std::vector<const std::string*> files;
  files.reserve(objects.size());
  for (const T& o : objects) files.push_back(&o.meta.source.file);
  return files;
}

}  // namespace

std::string ObjectLabel(std::string_view kind, const api::ObjectMeta& meta) {
  if (meta.name.empty()) return std::string(kind);
  return fmt::format("{} {}", kind, api::NamespacedName(meta));
}

void ErrorCollector::Add(const api::ObjectMeta& meta, const std::string& object, KindRank rank,
                         std::size_t index, FieldError error) {
  Entry e;
  e.document = meta.source.document;
  e.kind_rank = rank;
  e.index = index;
  e.seq = entries_.size();
  e.error.source = meta.source;
  e.error.object = object;
  e.error.error = std::move(error);
  entries_.push_back(std::move(e));
}

void ErrorCollector::AddAll(const api::ObjectMeta& meta, const std::string& object,
                            KindRank rank, std::size_t index, ErrorList errors) {
  for (FieldError& e : errors) Add(meta, object, rank, index, std::move(e));
}

InputErrors ErrorCollector::Finish(const api::ObjectSet& objects) && {
  // Input order: file (as read), document, then kind and index for objects of one List.
  FileRanks ranks;
  ranks.AddSequence(FilesOf(objects.priority_classes));
  ranks.AddSequence(FilesOf(objects.nodes));
  ranks.AddSequence(FilesOf(objects.workloads));
  ranks.AddSequence(FilesOf(objects.composite_pod_groups));
  ranks.AddSequence(FilesOf(objects.pod_groups));
  ranks.AddSequence(FilesOf(objects.pods));
  ranks.AddSequence(FilesOf(objects.jobs));
  ranks.AddSequence(FilesOf(objects.pod_disruption_budgets));
  ranks.AddSequence(FilesOf(objects.device_classes));
  ranks.AddSequence(FilesOf(objects.resource_slices));
  ranks.AddSequence(FilesOf(objects.resource_claims));
  ranks.AddSequence(FilesOf(objects.resource_claim_templates));
  ranks.AddSequence(FilesOf(objects.deployments));
  ranks.AddSequence(FilesOf(objects.replica_sets));
  ranks.AddSequence(FilesOf(objects.stateful_sets));
  ranks.AddSequence(FilesOf(objects.job_sets));
  ranks.AddSequence(FilesOf(objects.leader_worker_sets));
  ranks.Compute();
  std::vector<std::pair<std::size_t, Entry*>> order;
  order.reserve(entries_.size());
  for (Entry& e : entries_) order.emplace_back(ranks.Rank(e.error.source.file), &e);
  std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
    return std::tie(a.first, a.second->document, a.second->kind_rank, a.second->index,
                    a.second->seq) < std::tie(b.first, b.second->document, b.second->kind_rank,
                                              b.second->index, b.second->seq);
  });
  InputErrors out;
  out.reserve(order.size());
  for (auto& [rank, e] : order) out.push_back(std::move(e->error));
  entries_.clear();
  return out;
}

}  // namespace wasched::validation::internal
