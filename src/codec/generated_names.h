// File: codec/generated_names.h
//
// `metadata.generateName` (issue 19): an object read with generateName and no name is named as
// the API server would name it on create — the prefix cut to 58 characters plus 5 characters —
// except that the 5 characters are derived from the input instead of drawn at random
// (util/name_generation.h), so the same input always gives the same names. The seed is
// `<kind>/<namespace>/<generateName>/<n>`, n counting the objects of that kind, namespace and
// generateName in input order; a name another object of the same kind and namespace holds is
// derived again (seed + "#<attempt>"), as the API server retries a colliding generateName.
//
//   std::vector<std::string> warnings;
//   AssignGeneratedNames(&objects, &warnings);   // after every file is decoded
#pragma once

#include <string>
#include <vector>

#include "api/object_set.h"

namespace wasched::codec {

// AssignGeneratedNames: names every object that has a generateName and no name (see the file
// comment). When any was named, one warning says how many and gives the first
// (`Pod default/sample-leader-k2x9b from generateName "sample-leader-"`). Deterministic;
// O(objects).
void AssignGeneratedNames(api::ObjectSet* objects, std::vector<std::string>* warnings);

}  // namespace wasched::codec
