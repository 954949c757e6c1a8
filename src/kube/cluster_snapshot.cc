// File: kube/cluster_snapshot.cc
#include "kube/cluster_snapshot.h"

#include <fmt/format.h>

#include "kube/list_watch.h"
#include "kube/resource_type.h"

namespace wasched::kube {

tl::expected<ClusterSnapshot, KubeError> ReadCluster(ApiClient& client, int64_t page_size) {
  ClusterSnapshot snapshot;
  for (const ResourceType& type : SchedulingResources()) {
    auto list = ListAll(client, type, page_size);
    if (!list) {
      if (list.error().kind == KubeErrorKind::kNotFound && !type.group.empty()) {
        snapshot.warnings.push_back(fmt::format(
            "the API server {} does not serve {} {}; none read", client.server(),
            type.ApiVersion(), type.resource));
        continue;
      }
      return tl::unexpected(list.error());
    }
    for (size_t i = 0; i < list->pages.size(); ++i) {
      std::string name = fmt::format("{} {} {}", client.server(), type.ApiVersion(), type.resource);
      if (list->pages.size() > 1) name += fmt::format(" page {}", i + 1);
      snapshot.texts.push_back(codec::NamedText{std::move(name), std::move(list->pages[i])});
    }
  }
  return snapshot;
}

}  // namespace wasched::kube
