// File: validation/core_validation.cc
//
// core/v1 Pod and Node rules (see core_validation.h). Upstream: kubernetes/kubernetes
// pkg/apis/core/validation/validation.go and pkg/apis/core/helper/helpers.go.
#include "validation/core_validation.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <utility>

#include "api/quantity.h"
#include "validation/names.h"
#include "validation/object_meta_validation.h"

namespace wasched::validation {
namespace {

constexpr std::string_view kHugePagesPrefix = "hugepages-";
constexpr std::string_view kRequestsPrefix = "requests.";
constexpr std::string_view kDefaultNamespacePrefix = "kubernetes.io/";

// helpers.go standardContainerResources.
constexpr std::string_view kStandardContainerResources[] = {"cpu", "memory",
                                                            "ephemeral-storage"};
// helpers.go standardResources.
constexpr std::string_view kStandardResources[] = {
    "cpu",
    "memory",
    "ephemeral-storage",
    "requests.cpu",
    "requests.memory",
    "requests.ephemeral-storage",
    "limits.cpu",
    "limits.memory",
    "limits.ephemeral-storage",
    "pods",
    "resourcequotas",
    "services",
    "replicationcontrollers",
    "secrets",
    "configmaps",
    "persistentvolumeclaims",
    "storage",
    "requests.storage",
    "services.nodeports",
    "services.loadbalancers",
};
// helpers.go integerResources.
constexpr std::string_view kIntegerResources[] = {
    "pods",    "resourcequotas", "services",           "replicationcontrollers",
    "secrets", "configmaps",     "persistentvolumeclaims", "services.nodeports",
    "services.loadbalancers",
};

constexpr const char* kNonNegativeDetail = "must be greater than or equal to 0";  // IsNegativeErrorMsg
constexpr const char* kNotIntegerDetail = "must be an integer";  // isNotIntegerErrorMsg

template <std::size_t N>
bool OneOf(std::string_view name, const std::string_view (&set)[N]) {
  return std::find(std::begin(set), std::end(set), name) != std::end(set);
}

bool HasSlash(std::string_view name) { return name.find('/') != std::string_view::npos; }

void Append(ErrorList* errs, ErrorList more) {
  for (FieldError& e : more) errs->push_back(std::move(e));
}

// AmountText: a quantity as the error shows it: as written when it was not a whole number of
// units of a resource counted in whole units (the amount is rounded up), else rendered from the
// canonical amount (exact for cpu's millicores).
std::string AmountText(const std::string& name, int64_t amount,
                       const std::map<std::string, std::string>& non_integer) {
  if (auto it = non_integer.find(name); it != non_integer.end() && !api::IsMilliResource(name)) {
    return it->second;
  }
  return api::FormatAmount(name, amount);
}

// ValidateResourceQuantityValue: non-negative, and whole for integer resources.
void ValidateQuantity(const std::string& name, int64_t amount,
                      const std::map<std::string, std::string>& non_integer,
                      const std::string& path, ErrorList* errs) {
  if (amount < 0) {
    errs->push_back(Invalid(path, Quote(api::FormatAmount(name, amount)), kNonNegativeDetail));
  }
  if (IsIntegerResourceName(name)) {
    if (auto it = non_integer.find(name); it != non_integer.end()) {
      errs->push_back(Invalid(path, Quote(it->second), kNotIntegerDetail));
    }
  }
}

// ResourceListEntries: limits- or requests-style entries (name, quantity value) at
// `<path>[<name>]`.
void ValidateResourceList(const api::ResourceList& list,
                          const std::map<std::string, std::string>& non_integer,
                          const std::string& path, ErrorList* errs) {
  for (const auto& [name, amount] : list) {
    const std::string entry = fmt::format("{}[{}]", path, name);
    Append(errs, ValidateContainerResourceName(name, entry));
    ValidateQuantity(name, amount, non_integer, entry, errs);
  }
}

// GoToleration: Go's %#v of core.Toleration, as upstream prints a whole toleration.
std::string GoToleration(const api::Toleration& t) {
  return fmt::format(
      "core.Toleration{{Key:{}, Operator:{}, Value:{}, Effect:{}, TolerationSeconds:{}}}",
      Quote(t.key), Quote(t.op == api::TolerationOperator::kExists ? "Exists" : "Equal"),
      Quote(t.value), Quote(t.effect ? api::TaintEffectName(*t.effect) : ""),
      t.toleration_seconds ? fmt::format("&{}", *t.toleration_seconds) : "(*int64)(nil)");
}

// GoTaint: Go's %#v of core.Taint (timeAdded is not kept).
std::string GoTaint(const api::Taint& t) {
  return fmt::format("core.Taint{{Key:{}, Value:{}, Effect:{}, TimeAdded:(*v1.Time)(nil)}}",
                     Quote(t.key), Quote(t.value), Quote(api::TaintEffectName(t.effect)));
}

std::string Join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (const std::string& p : parts) {
    if (!out.empty()) out += sep;
    out += p;
  }
  return out;
}

}  // namespace

bool IsHugePageResourceName(std::string_view name) { return name.starts_with(kHugePagesPrefix); }

bool IsNativeResource(std::string_view name) {
  return !HasSlash(name) || name.find(kDefaultNamespacePrefix) != std::string_view::npos;
}

bool IsExtendedResourceName(std::string_view name) {
  if (IsNativeResource(name) || name.starts_with(kRequestsPrefix)) return false;
  return QualifiedNameErrors(std::string(kRequestsPrefix) + std::string(name)).empty();
}

bool IsOvercommitAllowed(std::string_view name) {
  return IsNativeResource(name) && !IsHugePageResourceName(name);
}

bool IsIntegerResourceName(std::string_view name) {
  return OneOf(name, kIntegerResources) || IsExtendedResourceName(name);
}

bool IsStandardContainerResourceName(std::string_view name) {
  return OneOf(name, kStandardContainerResources) || IsHugePageResourceName(name);
}

bool IsStandardResourceName(std::string_view name) {
  // helpers.go IsQuotaHugePageResourceName: `hugepages-` or `requests.hugepages-`.
  return OneOf(name, kStandardResources) || IsHugePageResourceName(name) ||
         name.starts_with("requests.hugepages-");
}

ErrorList ValidateContainerResourceName(std::string_view name, const std::string& path) {
  // validateResourceName: qualified name, then standard-or-fully-qualified.
  ErrorList errs;
  for (std::string& msg : QualifiedNameErrors(name)) {
    errs.push_back(Invalid(path, Quote(name), std::move(msg)));
  }
  if (errs.empty() && !HasSlash(name) && !IsStandardResourceName(name)) {
    errs.push_back(
        Invalid(path, Quote(name), "must be a standard resource type or fully qualified"));
  }
  // validateContainerResourceName.
  if (!HasSlash(name)) {
    if (!IsStandardContainerResourceName(name)) {
      errs.push_back(Invalid(path, Quote(name), "must be a standard resource for containers"));
    }
  } else if (!IsNativeResource(name) && !IsExtendedResourceName(name)) {
    errs.push_back(
        Invalid(path, Quote(name), "doesn't follow extended resource name standard"));
  }
  return errs;
}

ErrorList ValidateResourceRequirements(const api::Container& c, const std::string& path) {
  ErrorList errs;
  const std::string lim_path = Child(path, "limits");
  const std::string req_path = Child(path, "requests");
  ValidateResourceList(c.limits, c.non_integer_limits, lim_path, &errs);
  for (const auto& [name, amount] : c.requests) {
    const std::string entry = fmt::format("{}[{}]", req_path, name);
    Append(&errs, ValidateContainerResourceName(name, entry));
    ValidateQuantity(name, amount, c.non_integer_requests, entry, &errs);
    auto limit = c.limits.find(name);
    if (limit != c.limits.end()) {
      const std::string request_text = Quote(AmountText(name, amount, c.non_integer_requests));
      const std::string limit_text = AmountText(name, limit->second, c.non_integer_limits);
      if (amount != limit->second && !IsOvercommitAllowed(name)) {
        errs.push_back(Invalid(req_path, request_text,
                               fmt::format("must be equal to {} limit of {}", name, limit_text)));
      } else if (amount > limit->second) {
        errs.push_back(Invalid(
            req_path, request_text,
            fmt::format("must be less than or equal to {} limit of {}", name, limit_text)));
      }
    } else if (!IsOvercommitAllowed(name)) {
      errs.push_back(Required(lim_path, "Limit must be set for non overcommitable resources"));
    }
  }
  return errs;
}

ErrorList ValidateTolerations(const std::vector<api::Toleration>& tolerations,
                              const std::string& path) {
  ErrorList errs;
  for (std::size_t i = 0; i < tolerations.size(); ++i) {
    const api::Toleration& t = tolerations[i];
    const std::string item = Index(path, i);
    const bool exists = t.op == api::TolerationOperator::kExists;
    if (!t.key.empty()) {
      for (std::string& msg : QualifiedNameErrors(t.key)) {
        errs.push_back(Invalid(Child(item, "key"), Quote(t.key), std::move(msg)));
      }
    }
    if (t.key.empty() && !exists) {
      errs.push_back(Invalid(Child(item, "operator"), Quote("Equal"),
                             "operator must be Exists when `key` is empty, which means \"match "
                             "all values and all keys\""));
    }
    if (t.toleration_seconds && t.effect != api::TaintEffect::kNoExecute) {
      errs.push_back(Invalid(Child(item, "effect"),
                             Quote(t.effect ? api::TaintEffectName(*t.effect) : ""),
                             "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    if (!exists) {
      if (auto problems = LabelValueErrors(t.value); !problems.empty()) {
        errs.push_back(Invalid(Child(item, "operator"), Quote(t.value), Join(problems, ";")));
      }
    } else if (!t.value.empty()) {
      errs.push_back(Invalid(Child(item, "operator"), GoToleration(t),
                             "value must be empty when `operator` is 'Exists'"));
    }
  }
  return errs;
}

ErrorList ValidateNodeTaints(const std::vector<api::Taint>& taints, const std::string& path) {
  ErrorList errs;
  std::set<std::pair<api::TaintEffect, std::string>> seen;
  for (std::size_t i = 0; i < taints.size(); ++i) {
    const api::Taint& t = taints[i];
    const std::string item = Index(path, i);
    for (std::string& msg : QualifiedNameErrors(t.key)) {
      errs.push_back(Invalid(Child(item, "key"), Quote(t.key), std::move(msg)));
    }
    if (auto problems = LabelValueErrors(t.value); !problems.empty()) {
      errs.push_back(Invalid(Child(item, "value"), Quote(t.value), Join(problems, ";")));
    }
    if (!seen.emplace(t.effect, t.key).second) {
      errs.push_back(FieldError{FieldErrorType::kDuplicate, item, GoTaint(t),
                                "taints must be unique by key and effect pair", ""});
    }
  }
  return errs;
}

ErrorList ValidatePodSpecCore(const api::Pod& pod, PodSpecSource source) {
  constexpr const char* kAsciiSpace = " \t\n\v\f\r";  // strings.TrimSpace's ASCII part
  ErrorList errs;
  if (pod.containers.empty()) errs.push_back(Required("spec.containers"));
  // validateContainerCommon (pkg/apis/core/validation/validation.go): a name that is a DNS-1123
  // label, then the resources; names unique within a list (validateContainers) and across init
  // and regular containers (validateInitContainers); `image` Required when empty (a Pod's
  // image also without leading or trailing whitespace: validateContainerOnlyForPod).
  std::set<std::string_view> regular_names;
  const auto common = [&](const api::Container& c, const std::string& path) {
    if (c.name.empty()) {
      errs.push_back(Required(path + ".name"));
    } else {
      for (std::string& msg : Dns1123LabelErrors(c.name)) {
        errs.push_back(Invalid(path + ".name", Quote(c.name), std::move(msg)));
      }
    }
    if (c.image.empty()) {
      errs.push_back(Required(path + ".image"));
    } else if (source == PodSpecSource::kPod &&
               (c.image.find_first_not_of(kAsciiSpace) != 0 ||
                c.image.find_last_not_of(kAsciiSpace) != c.image.size() - 1)) {
      errs.push_back(Invalid(path + ".image", Quote(c.image),
                             "must not have leading or trailing whitespace"));
    }
    Append(&errs, ValidateResourceRequirements(c, path + ".resources"));
  };
  for (std::size_t i = 0; i < pod.containers.size(); ++i) {
    const std::string path = fmt::format("spec.containers[{}]", i);
    common(pod.containers[i], path);
    if (!regular_names.insert(pod.containers[i].name).second) {
      errs.push_back(FieldError{FieldErrorType::kDuplicate, path + ".name",
                                Quote(pod.containers[i].name), "", ""});
    }
  }
  std::set<std::string_view>& all_names = regular_names;  // init names join the regular ones
  for (std::size_t i = 0; i < pod.init_containers.size(); ++i) {
    const std::string path = fmt::format("spec.initContainers[{}]", i);
    const api::Container& c = pod.init_containers[i];
    common(c, path);
    if (all_names.count(c.name) != 0) {
      errs.push_back(FieldError{FieldErrorType::kDuplicate, path + ".name", Quote(c.name), "", ""});
    } else if (!c.name.empty()) {
      all_names.insert(c.name);
    }
  }
  Append(&errs, ValidateLabels(pod.node_selector, "spec.nodeSelector"));
  // ValidatePodSpec's order: nodeSelector, affinity, …, topologySpreadConstraints, …
  Append(&errs, ValidatePodAffinity(pod, source));
  Append(&errs, ValidateTopologySpreadConstraints(pod, source));
  Append(&errs, ValidateTolerations(pod.tolerations, "spec.tolerations"));
  if (!pod.scheduler_name.empty()) {
    for (std::string& msg : Dns1123SubdomainErrors(pod.scheduler_name)) {
      errs.push_back(Invalid("spec.schedulerName", Quote(pod.scheduler_name), std::move(msg)));
    }
  }
  // ValidatePodSpec (pkg/apis/core/validation/validation.go): spec.nodeName (ValidateNodeName)
  // and spec.priorityClassName (ValidatePriorityClassName) are DNS subdomains (QA2 finding 15).
  if (!pod.node_name.empty()) {
    for (std::string& msg : Dns1123SubdomainErrors(pod.node_name)) {
      errs.push_back(Invalid("spec.nodeName", Quote(pod.node_name), std::move(msg)));
    }
  }
  if (!pod.priority_class_name.empty()) {
    for (std::string& msg : Dns1123SubdomainErrors(pod.priority_class_name)) {
      errs.push_back(
          Invalid("spec.priorityClassName", Quote(pod.priority_class_name), std::move(msg)));
    }
  }
  // validateOverhead: the overhead checked as a container's limits.
  ValidateResourceList(pod.overhead, pod.non_integer_overhead, "spec.overhead", &errs);
  return errs;
}

}  // namespace wasched::validation
