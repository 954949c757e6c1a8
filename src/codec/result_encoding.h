// File: codec/result_encoding.h
//
// Encodes a ScheduleResult as the fixed `wasched.io/v1alpha1 ScheduleResult` document of
// design.md, as JSON (2-space indent, keys in the contract's order, trailing newline) or YAML.
// Byte-identical for equal results.
#pragma once

#include <string>

#include "sched/schedule_result.h"

namespace wasched::codec {

[[nodiscard]] std::string EncodeScheduleResultJson(const sched::ScheduleResult& result);
[[nodiscard]] std::string EncodeScheduleResultYaml(const sched::ScheduleResult& result);

}  // namespace wasched::codec
