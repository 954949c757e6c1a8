// File: codec/generated_names.cc
//
// Upstream: k8s.io/apiserver/pkg/registry/rest/create.go (BeforeCreate: `if len(name) == 0 &&
// len(generateName) > 0 { name = GenerateName(generateName) }`), pkg/storage/names/generate.go
// (SimpleNameGenerator), and the create handler's retry on AlreadyExists (RetryGenerateName).
#include "codec/generated_names.h"

#include <fmt/format.h>

#include <map>
#include <set>
#include <tuple>

#include "util/name_generation.h"

namespace wasched::codec {

void AssignGeneratedNames(api::ObjectSet* objects, std::vector<std::string>* warnings) {
  int named = 0;
  std::string first;
  api::ForEachKind(*objects, [&](const char* kind, bool, auto& list) {
    bool any = false;
    for (const auto& o : list) any = any || (o.meta.name.empty() && !o.meta.generate_name.empty());
    if (!any) return;
    // Names taken per namespace (cluster-scoped kinds have namespace "").
    std::set<std::pair<std::string, std::string>> taken;
    for (const auto& o : list) {
      if (!o.meta.name.empty()) taken.emplace(o.meta.namespace_, o.meta.name);
    }
    std::map<std::pair<std::string, std::string>, int> ordinal;  // (namespace, generateName)
    for (auto& o : list) {
      api::ObjectMeta& meta = o.meta;
      if (!meta.name.empty() || meta.generate_name.empty()) continue;
      const int n = ordinal[{meta.namespace_, meta.generate_name}]++;
      const std::string seed =
          fmt::format("{}/{}/{}/{}", kind, meta.namespace_, meta.generate_name, n);
      std::string name = GenerateName(meta.generate_name, seed);
      for (int attempt = 1; !taken.emplace(meta.namespace_, name).second; ++attempt) {
        name = GenerateName(meta.generate_name, fmt::format("{}#{}", seed, attempt));
      }
      meta.name = std::move(name);
      if (named++ == 0) {
        first = fmt::format("{} {} from generateName \"{}\"", kind, api::NamespacedName(meta),
                            meta.generate_name);
      }
    }
  });
  if (named > 0) {
    warnings->push_back(fmt::format(
        "named {} object(s) from metadata.generateName with a suffix derived from the input (the "
        "API server picks a random one; first: {})",
        named, first));
  }
}

}  // namespace wasched::codec
