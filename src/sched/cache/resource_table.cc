#include "sched/cache/resource_table.h"

namespace wasched::sched {

ResourceTable::ResourceTable() {
  for (const char* n : {"cpu", "memory", "pods", "ephemeral-storage"}) Intern(n);
}

ResourceId ResourceTable::Intern(std::string_view name) {
  auto it = ids_.find(std::string(name));
  if (it != ids_.end()) return it->second;
  auto id = static_cast<ResourceId>(names_.size());
  names_.emplace_back(name);
  ids_.emplace(names_.back(), id);
  return id;
}

ResourceId ResourceTable::Find(std::string_view name) const {
  auto it = ids_.find(std::string(name));
  return it == ids_.end() ? -1 : it->second;
}

}  // namespace wasched::sched
