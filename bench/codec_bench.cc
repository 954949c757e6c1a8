// File: bench/codec_bench.cc
//
// Google Benchmark runs of the manifest loader (codec::LoadString) on `List` documents of n Pods
// with kubectl-like ignored fields (env, volumes, status), the shape `kubectl get pods -o
// json|yaml` writes. Reports bytes/s and items/s (objects); `Complexity` fits the time to n, so a
// per-object cost that grows with the document (issue 18: the repeated-key walk sized its visited
// set to the whole document for every object) shows as a fit worse than O(n).
//
//   BM_LoadJsonList/items:N   one JSON `List`
//   BM_LoadYamlList/items:N   the same List as one YAML document (flow style per item)
//
// The text is built before the timed loop.
#include <string>

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "codec/loader.h"

namespace wasched {
namespace {

// PodJson: one running Pod as `kubectl get -o json` writes it (abridged).
std::string PodJson(int i) {
  return fmt::format(
      R"({{"apiVersion": "v1", "kind": "Pod", "metadata": {{"name": "p-{0}", "namespace": "ns-{1}", )"
      R"("labels": {{"app": "a-{1}"}}, "uid": "u-{0}"}}, "spec": {{"nodeName": "node-{1}", )"
      R"("containers": [{{"name": "main", "image": "registry.k8s.io/pause:3.10", "env": )"
      R"([{{"name": "A", "value": "1"}}, {{"name": "B", "value": "2"}}], "resources": {{"requests": )"
      R"({{"cpu": "100m", "memory": "128Mi"}}}}, "volumeMounts": [{{"name": "v", "mountPath": "/v"}}]}}], )"
      R"("volumes": [{{"name": "v", "configMap": {{"name": "c", "defaultMode": 420}}}}]}}, )"
      R"("status": {{"phase": "Running", "podIP": "10.0.0.{2}", "conditions": [{{"type": "Ready", )"
      R"("status": "True"}}, {{"type": "PodScheduled", "status": "True"}}]}}}})",
      i, i % 50, i % 250);
}

std::string ListOf(int n, bool json) {
  std::string text = json ? R"({"apiVersion": "v1", "kind": "List", "items": [)"
                          : "apiVersion: v1\nkind: List\nitems:\n";
  for (int i = 0; i < n; ++i) {
    if (json) {
      if (i > 0) text += ", ";
      text += PodJson(i);
    } else {
      text += "- " + PodJson(i) + "\n";
    }
  }
  if (json) text += "]}\n";
  return text;
}

void RunLoad(benchmark::State& state, bool json) {
  const int n = static_cast<int>(state.range(0));
  const std::string text = ListOf(n, json);
  size_t pods = 0;
  for (auto _ : state) {
    auto loaded = codec::LoadString(text, json ? "pods.json" : "pods.yaml");
    if (!loaded) {
      state.SkipWithError("the generated List did not load");
      return;
    }
    pods = loaded->objects.pods.size();
    benchmark::DoNotOptimize(loaded);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(text.size()));
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(pods));
  state.SetComplexityN(n);
}

void BM_LoadJsonList(benchmark::State& state) { RunLoad(state, true); }
void BM_LoadYamlList(benchmark::State& state) { RunLoad(state, false); }

BENCHMARK(BM_LoadJsonList)->ArgName("items")->RangeMultiplier(4)->Range(256, 16384)->Complexity()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LoadYamlList)->ArgName("items")->RangeMultiplier(4)->Range(256, 4096)->Complexity()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace wasched
