// File: api/node.cc
//
// core/v1 Node helpers: the wire names of TaintEffect (core/v1 types.go constants).
#include "api/node.h"

namespace wasched::api {

const char* TaintEffectName(TaintEffect effect) {
  switch (effect) {
    case TaintEffect::kNoSchedule: return "NoSchedule";
    case TaintEffect::kPreferNoSchedule: return "PreferNoSchedule";
    case TaintEffect::kNoExecute: return "NoExecute";
  }
  return "NoSchedule";
}

}  // namespace wasched::api
