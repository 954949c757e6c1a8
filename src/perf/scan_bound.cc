// File: perf/scan_bound.cc
#include "perf/scan_bound.h"

#include "perf/cpu_time.h"

#include <algorithm>
#include <chrono>
#include <string>
#include <unordered_map>

namespace wasched::perf {
namespace {

int64_t Get(const api::ResourceList& r, const char* name) {
  const auto it = r.find(name);
  return it == r.end() ? 0 : it->second;
}

// Request: the summed container requests of `pod` for one resource (the shapes use no init
// containers or overhead; the baseline does not need the full effective-request rules).
int64_t Request(const api::Pod& pod, const char* name) {
  int64_t sum = 0;
  for (const api::Container& c : pod.containers) sum += Get(c.requests, name);
  return sum;
}

}  // namespace

NodeArrays ToArrays(const std::vector<api::Node>& nodes, const std::vector<api::Pod>* pods) {
  NodeArrays a;
  const size_t n = nodes.size();
  for (auto* v : {&a.cpu_free, &a.memory_free, &a.pods_free, &a.cpu_cap, &a.memory_cap}) v->reserve(n);
  std::unordered_map<std::string, size_t> index;
  for (size_t i = 0; i < n; ++i) {
    const api::Node& node = nodes[i];
    a.cpu_cap.push_back(Get(node.allocatable, "cpu"));
    a.memory_cap.push_back(Get(node.allocatable, "memory"));
    a.cpu_free.push_back(a.cpu_cap.back());
    a.memory_free.push_back(a.memory_cap.back());
    a.pods_free.push_back(Get(node.allocatable, "pods"));
    if (pods != nullptr) index.emplace(node.meta.name, i);
  }
  if (pods == nullptr) return a;
  for (const api::Pod& pod : *pods) {
    if (pod.node_name.empty()) continue;
    const auto it = index.find(pod.node_name);
    if (it == index.end()) continue;
    a.cpu_free[it->second] -= Request(pod, "cpu");
    a.memory_free[it->second] -= Request(pod, "memory");
    a.pods_free[it->second] -= 1;
  }
  return a;
}

int ScanOnce(const NodeArrays& a, int64_t cpu, int64_t memory) {
  int best = -1;
  int64_t best_score = -1;
  const size_t n = a.cpu_free.size();
  for (size_t i = 0; i < n; ++i) {
    const int64_t cpu_left = a.cpu_free[i] - cpu;
    const int64_t memory_left = a.memory_free[i] - memory;
    if (cpu_left < 0 || memory_left < 0 || a.pods_free[i] < 1) continue;
    const int64_t score = cpu_left * 100 / std::max<int64_t>(a.cpu_cap[i], 1) +
                          memory_left * 100 / std::max<int64_t>(a.memory_cap[i], 1);
    if (score > best_score) {
      best_score = score;
      best = static_cast<int>(i);
    }
  }
  return best;
}

double MeasureScanSeconds(const NodeArrays& a, int64_t cpu, int64_t memory) {
  double best = 1e9;
  volatile int sink = 0;
  for (int batch = 0; batch < 5; ++batch) {
    const double start = ThreadCpuSeconds();
    // cpu + i % 2 keeps the compiler from hoisting the scan out of the loop.
    for (int i = 0; i < 200; ++i) sink = sink + ScanOnce(a, cpu + i % 2, memory);
    best = std::min(best, (ThreadCpuSeconds() - start) / 200);
  }
  return best;
}

int64_t NaiveSchedule(const api::ObjectSet& objects) {
  NodeArrays a = ToArrays(objects.nodes, &objects.pods);
  int64_t placed = 0;
  for (const api::Pod& pod : objects.pods) {
    if (!pod.node_name.empty()) continue;
    const int64_t cpu = Request(pod, "cpu");
    const int64_t memory = Request(pod, "memory");
    const int node = ScanOnce(a, cpu, memory);
    if (node < 0) continue;
    a.cpu_free[node] -= cpu;
    a.memory_free[node] -= memory;
    a.pods_free[node] -= 1;
    ++placed;
  }
  return placed;
}

}  // namespace wasched::perf
