// File: perf/load_shapes.h
//
// The Load shapes of `wasched bench` (issue 18): how fast a cluster dump loads. A generated dump
// the size of a large cluster (5,000 Nodes, 150,000 Pods of which 120,000 run with
// kubectl-like status, env and volumes, 1,000 PodGroups of 8 pending gang pods, the other pods
// pending) at 1×, 0.1× and 0.01×, in the two forms kubectl writes:
//   Load/JsonList_…        one JSON `List` (`kubectl get -o json`, compact as the API server
//                          sends it)
//   Load/YamlDocuments_…   one YAML document per object (`---` between them)
// Each run loads the dump from a file through codec::LoadPaths (read + parse + decode; what
// `wasched schedule -f` does before validation). Reported: MB/s and objects/s (thread CPU
// time), the parser alone on the same bytes (simdjson walking every value / libyaml's events)
// and our time over the parser's, and the peak resident memory of a child process that loads
// the file, above the file's size. A correct run decodes every generated Node, Pod and PodGroup
// (`bound` = objects decoded). Tiny scale: 1/100 of each size, counts only (CI).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "perf/shapes.h"

namespace wasched::perf {

// DumpForm: the two forms of a generated dump.
enum class DumpForm { kJsonList, kYamlDocuments };

// DumpSize: objects of a generated dump; `running` of `pods` are bound to nodes with status,
// `pod_groups` PodGroups (gang, minCount 8) hold 8 of the pending pods each.
struct DumpSize {
  int nodes = 0;
  int pods = 0;
  int running = 0;
  int pod_groups = 0;
  [[nodiscard]] int64_t objects() const { return int64_t{nodes} + pods + pod_groups; }
};

// DumpSizeAt: the large cluster above times `scale` (1, 0.1, 0.01, …), at least one of each.
[[nodiscard]] DumpSize DumpSizeAt(double scale);

// GenerateDump: the dump text; deterministic. O(size); about 2.6 KB per running pod.
[[nodiscard]] std::string GenerateDump(const DumpSize& size, DumpForm form);

// LoadShapes: the six Load shapes (JSON then YAML; 1×, 0.1×, 0.01×).
[[nodiscard]] std::vector<Shape> LoadShapes();

}  // namespace wasched::perf
