#include "sched/framework/status.h"

namespace wasched::sched {

const char* CodeName(Code c) {
  switch (c) {
    case Code::kSuccess: return "Success";
    case Code::kError: return "Error";
    case Code::kUnschedulable: return "Unschedulable";
    case Code::kUnschedulableAndUnresolvable: return "UnschedulableAndUnresolvable";
    case Code::kWait: return "Wait";
    case Code::kSkip: return "Skip";
    case Code::kPending: return "Pending";
  }
  return "Error";
}

std::string Status::Message() const {
  std::string out;
  for (const auto& r : reasons_) {
    if (r.empty()) continue;
    if (!out.empty()) out += ", ";
    out += r;
  }
  return out;
}

}  // namespace wasched::sched
