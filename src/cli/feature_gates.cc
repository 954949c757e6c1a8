// File: cli/feature_gates.cc
//
// Dropping disabled fields as the registry strategies' dropDisabledFields (pkg/api/pod,
// pkg/api/job, pkg/registry/scheduling/*).
#include "cli/feature_gates.h"

#include <fmt/format.h>

#include <cstddef>
#include <utility>

namespace wasched::cli {
namespace {

bool ClearTemplates(std::vector<api::PodGroupTemplate>& templates, bool constraints, bool claims,
                    bool preemption) {
  bool changed = false;
  for (api::PodGroupTemplate& t : templates) {
    if (constraints && t.scheduling_constraints) {
      t.scheduling_constraints.reset();
      changed = true;
    }
    if (claims && !t.resource_claims.empty()) {
      t.resource_claims.clear();
      changed = true;
    }
    if (preemption && t.preemption_policy) {
      t.preemption_policy.reset();
      changed = true;
    }
  }
  return changed;
}

bool ClearCompositeTemplates(std::vector<api::CompositePodGroupTemplate>& templates,
                             bool constraints, bool claims, bool preemption) {
  bool changed = false;
  for (api::CompositePodGroupTemplate& t : templates) {
    if (constraints && t.scheduling_constraints) {
      t.scheduling_constraints.reset();
      changed = true;
    }
    if (preemption && t.preemption_policy) {
      t.preemption_policy.reset();
      changed = true;
    }
    changed |= ClearTemplates(t.pod_group_templates, constraints, claims, preemption);
    changed |=
        ClearCompositeTemplates(t.composite_pod_group_templates, constraints, claims, preemption);
  }
  return changed;
}

// ClearGroupField: drops the chosen gated fields of every object (workload templates included) and
// returns how many objects changed.
int ClearGroupField(api::ObjectSet* objects, bool constraints, bool claims, bool preemption) {
  int changed_objects = 0;
  for (api::Workload& w : objects->workloads) {
    bool a = ClearTemplates(w.pod_group_templates, constraints, claims, preemption);
    bool b =
        ClearCompositeTemplates(w.composite_pod_group_templates, constraints, claims, preemption);
    changed_objects += (a || b) ? 1 : 0;
  }
  for (api::PodGroup& g : objects->pod_groups) {
    bool changed = false;
    if (constraints && g.scheduling_constraints) {
      g.scheduling_constraints.reset();
      changed = true;
    }
    if (claims && !g.resource_claims.empty()) {
      g.resource_claims.clear();
      changed = true;
    }
    if (preemption && g.preemption_policy) {
      g.preemption_policy.reset();
      changed = true;
    }
    changed_objects += changed ? 1 : 0;
  }
  for (api::CompositePodGroup& g : objects->composite_pod_groups) {
    bool changed = false;
    if (constraints && g.scheduling_constraints) {
      g.scheduling_constraints.reset();
      changed = true;
    }
    if (preemption && g.preemption_policy) {
      g.preemption_policy.reset();
      changed = true;
    }
    changed_objects += changed ? 1 : 0;
  }
  return changed_objects;
}

}  // namespace

std::vector<std::string> ApplyFeatureGates(const FeatureGates& gates, api::ObjectSet* objects) {
  std::vector<std::string> warnings;
  if (!gates.generic_workload) {
    int pods = 0;
    for (api::Pod& p : objects->pods) {
      if (p.pod_group_name) {
        p.pod_group_name.reset();
        ++pods;
      }
      p.scheduling_group_set = false;
    }
    const std::size_t groups = objects->workloads.size() + objects->pod_groups.size() +
                               objects->composite_pod_groups.size();
    if (groups > 0) {
      warnings.push_back(fmt::format(
          "feature gate GenericWorkload is off: ignored {} Workload(s), {} PodGroup(s) and {} "
          "CompositePodGroup(s)",
          objects->workloads.size(), objects->pod_groups.size(),
          objects->composite_pod_groups.size()));
    }
    if (pods > 0) {
      warnings.push_back(fmt::format(
          "feature gate GenericWorkload is off: dropped spec.schedulingGroup of {} pod(s); they "
          "are scheduled one by one",
          pods));
    }
    objects->workloads.clear();
    objects->pod_groups.clear();
    objects->composite_pod_groups.clear();
  }
  if (!gates.composite_pod_group) {
    // A CompositePodGroup gate left at its default turns off with its dependencies
    // (util/feature_gates.h): say why.
    const std::string why =
        !gates.topology_aware_workload_scheduling && gates.generic_workload
            ? " (it depends on TopologyAwareWorkloadScheduling, which is off)"
            : "";
    int changed = 0;
    for (api::Workload& w : objects->workloads) {
      if (!w.composite_pod_group_templates.empty()) {
        w.composite_pod_group_templates.clear();
        ++changed;
      }
    }
    for (api::PodGroup& g : objects->pod_groups) {
      if (g.parent_composite_pod_group_name) {
        g.parent_composite_pod_group_name.reset();
        ++changed;
      }
    }
    if (!objects->composite_pod_groups.empty()) {
      warnings.push_back(
          fmt::format("feature gate CompositePodGroup is off{}: ignored {} CompositePodGroup(s)",
                      why, objects->composite_pod_groups.size()));
      objects->composite_pod_groups.clear();
    }
    if (changed > 0) {
      warnings.push_back(
          fmt::format("feature gate CompositePodGroup is off{}: dropped compositePodGroupTemplates / "
                      "parentCompositePodGroupName from {} object(s)",
                      why, changed));
    }
  }
  if (!gates.topology_aware_workload_scheduling) {
    int n = ClearGroupField(objects, /*constraints=*/true, false, false);
    if (n > 0) {
      warnings.push_back(fmt::format(
          "feature gate TopologyAwareWorkloadScheduling is off: dropped schedulingConstraints "
          "from {} object(s)",
          n));
    }
  }
  if (!gates.dra_workload_resource_claims) {
    int n = ClearGroupField(objects, false, /*claims=*/true, false);
    if (n > 0) {
      warnings.push_back(fmt::format(
          "feature gate DRAWorkloadResourceClaims is off: dropped resourceClaims from {} "
          "object(s)",
          n));
    }
  }
  if (!gates.workload_with_job) {
    int n = 0;
    for (api::Job& job : objects->jobs) {
      if (job.scheduling) {
        job.scheduling.reset();
        ++n;
      }
    }
    if (n > 0) {
      warnings.push_back(fmt::format(
          "feature gate WorkloadWithJob is off: dropped spec.scheduling from {} Job(s)", n));
    }
  }
  if (!gates.pod_group_preemption_policy) {
    int n = ClearGroupField(objects, false, false, /*preemption=*/true);
    if (n > 0) {
      warnings.push_back(fmt::format(
          "feature gate PodGroupPreemptionPolicy is off: dropped preemptionPolicy from {} "
          "object(s)",
          n));
    }
  }
  return warnings;
}

}  // namespace wasched::cli
