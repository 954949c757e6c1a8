// File: fuzz/fuzz_validation.cc
//
// libFuzzer target: bytes → codec::LoadString → validation::ValidateCreate and
// validation::ValidateForSchedule, with every gate on and again with every gate off after
// cli::ApplyFeatureGates drops the disabled fields (the `validate` / `schedule` pipeline).
#include <cstddef>
#include <cstdint>

#include "cli/feature_gates.h"
#include "codec/loader.h"
#include "fuzz_input.h"
#include "validation/api_validation.h"
#include "validation/object_set_validation.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace wasched;
  auto loaded = codec::LoadString(fuzz::Text(data, size), "fuzz.yaml");
  if (!loaded) {
    fuzz::CheckErrors(loaded.error());
    return 0;
  }
  const FeatureGates all_on;
  (void)validation::ValidateCreate(loaded->objects, all_on);
  InputErrors warnings;
  (void)validation::ValidateForSchedule(loaded->objects, all_on, &warnings);

  FeatureGates all_off;
  all_off.generic_workload = false;
  all_off.topology_aware_workload_scheduling = false;
  all_off.dra_workload_resource_claims = false;
  all_off.composite_pod_group = false;
  all_off.workload_with_job = false;
  all_off.pod_group_preemption_policy = false;
  api::ObjectSet objects = std::move(loaded->objects);
  (void)cli::ApplyFeatureGates(all_off, &objects);
  (void)validation::ValidateForSchedule(objects, all_off, &warnings);
  return 0;
}
