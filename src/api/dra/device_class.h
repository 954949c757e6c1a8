// File: api/dra/device_class.h
//
// resource.k8s.io/v1 DeviceClass: a named set of device selectors (CEL) that requests refer to
// with `deviceClassName`. Source: kubernetes/kubernetes staging/src/k8s.io/api/resource/v1/
// types.go (DeviceClassSpec, DeviceSelector, CELDeviceSelector). Pure data; no I/O.
#pragma once

#include <string>
#include <vector>

#include "api/object_meta.h"

namespace wasched::api {

// DeviceSelector: `{cel: {expression}}`, the only selector kind of resource.k8s.io/v1.
struct DeviceSelector {
  std::string cel_expression;
};

// DeviceClass: cluster-scoped. `spec.config` and `spec.extendedResourceName` are read and
// ignored (they do not change which devices are chosen).
struct DeviceClass {
  ObjectMeta meta;
  std::vector<DeviceSelector> selectors;
};

}  // namespace wasched::api
