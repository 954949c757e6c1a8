// File: kube/cluster_snapshot.h
//
// One consistent-enough read of everything scheduling looks at: a paged list of each of
// SchedulingResources(), as the list responses' JSON texts, for codec::LoadTextsAndPaths
// (`wasched schedule --kubeconfig`). Read-only: nothing is written to the cluster.
#pragma once

#include <string>
#include <vector>

#include <tl/expected.hpp>

#include "codec/loader.h"
#include "kube/api_client.h"
#include "kube/kube_error.h"

namespace wasched::kube {

// ClusterSnapshot: the list pages, each named "<server> <apiVersion> <resource>[ page N]" for
// error messages, and warnings (an API group/version the server does not serve).
struct ClusterSnapshot {
  std::vector<codec::NamedText> texts;
  std::vector<std::string> warnings;
};

// ReadCluster: lists every resource. A 404 for a non-core resource (its API group or version is
// off on that server, e.g. scheduling.k8s.io/v1alpha3 without --runtime-config) is a warning
// and that kind is read as empty; every other failure is returned (the first one). O(objects).
[[nodiscard]] tl::expected<ClusterSnapshot, KubeError> ReadCluster(ApiClient& client,
                                                                  int64_t page_size = 500);

}  // namespace wasched::kube
