// File: validation/dra_validation.cc
//
// DRA validation and references (see dra_validation.h).
#include "validation/dra_validation.h"

#include <fmt/format.h>

#include <map>
#include <set>
#include <string>

#include "dra/cel/program.h"
#include "validation/field_errors.h"
#include "validation/names.h"

namespace wasched::validation::internal {
namespace {

using NameSet = std::set<std::pair<std::string, std::string>>;  // (namespace, name)

class Errors {
 public:
  Errors(ErrorCollector* out, const api::ObjectMeta& meta, std::string label, KindRank rank,
         size_t index, ErrorCollector* warnings = nullptr)
      : out_(out), warnings_(warnings), meta_(meta), label_(std::move(label)), rank_(rank),
        index_(index) {}
  void Add(FieldError e) { out_->Add(meta_, label_, rank_, index_, std::move(e)); }
  // Warn: a wasched limitation, not an API error (dropped when there is no warnings collector).
  void Warn(FieldError e) {
    if (warnings_ != nullptr) warnings_->Add(meta_, label_, rank_, index_, std::move(e));
  }

 private:
  ErrorCollector* out_;
  ErrorCollector* warnings_;
  const api::ObjectMeta& meta_;
  std::string label_;
  KindRank rank_;
  size_t index_;
};

FieldError NotFound(std::string path, std::string_view value) {
  return FieldError{FieldErrorType::kNotFound, std::move(path), Quote(value), "", ""};
}

// Upstream resource.k8s.io limits (staging/src/k8s.io/api/resource/v1/types.go).
constexpr size_t kDriverNameMaxLength = 63;            // DriverNameMaxLength
constexpr size_t kDeviceMaxIdLength = 32;              // DeviceMaxIDLength
constexpr size_t kDeviceRequestsMaxSize = 32;          // DeviceRequestsMaxSize (resource/v1)
constexpr size_t kFirstAvailableDeviceRequestMaxSize = 8;  // FirstAvailableDeviceRequestMaxSize
constexpr size_t kDeviceMaxDomainLength = 63;          // DeviceMaxDomainLength
constexpr size_t kDeviceAttributeMaxValueLength = 64;  // DeviceAttributeMaxValueLength

// TooLongBytes: field.TooLong: "may not be more than N bytes", value omitted.
FieldError TooLongBytes(std::string path, size_t max) {
  return FieldError{FieldErrorType::kTooLong, std::move(path), "",
                    fmt::format("may not be more than {} bytes", max), ""};
}

// DriverNameErrors: upstream corevalidation.ValidateCSIDriverName (resource's validateDriverName):
// ≤ 63 bytes, a DNS-1123 subdomain once lower-cased. `path` is reported as given.
void DriverNameErrors(Errors& e, const std::string& path, std::string_view name) {
  if (name.size() > kDriverNameMaxLength) e.Add(TooLongBytes(path, kDriverNameMaxLength));
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  for (std::string& msg : Dns1123SubdomainErrors(lower)) e.Add(Invalid(path, Quote(name), msg));
}

// PoolNameErrors: upstream validatePoolName: required, ≤ 253 bytes, each `/`-separated part a
// DNS-1123 subdomain.
void PoolNameErrors(Errors& e, const std::string& path, std::string_view name) {
  if (name.empty()) {
    e.Add(Required(path));
    return;
  }
  if (name.size() > kDns1123SubdomainMaxLength) {
    e.Add(TooLongBytes(path, kDns1123SubdomainMaxLength));
  }
  size_t start = 0;
  while (true) {
    const size_t slash = name.find('/', start);
    const std::string_view part =
        name.substr(start, slash == std::string_view::npos ? std::string_view::npos
                                                             : slash - start);
    for (std::string& msg : Dns1123SubdomainErrors(part)) e.Add(Invalid(path, Quote(part), msg));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
}

// CIdentifierErrors: upstream validateCIdentifier: ≤ 32 bytes, `[A-Za-z_][A-Za-z0-9_]*`.
void CIdentifierErrors(Errors& e, const std::string& path, std::string_view id) {
  if (id.size() > kDeviceMaxIdLength) e.Add(TooLongBytes(path, kDeviceMaxIdLength));
  bool ok = !id.empty() && !(id[0] >= '0' && id[0] <= '9');
  for (char c : id) {
    ok = ok && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                c == '_');
  }
  if (!ok) {
    e.Add(Invalid(path, Quote(id),
                  RegexError("a valid C identifier must start with alphabetic character or '_', "
                             "followed by a string of alphanumeric characters or '_'",
                             "[A-Za-z_][A-Za-z0-9_]*", {"my_name", "MY_NAME", "MyName"})));
  }
}

// QualifiedNameErrors: upstream validateQualifiedName of attribute and capacity keys, reported at
// the map's path: `<C identifier>` or `<driver-name domain>/<C identifier>` (a second slash is
// accepted, as upstream's TODO notes).
void AttributeKeyErrors(Errors& e, const std::string& map_path, std::string_view key) {
  const size_t slash = key.find('/');
  if (slash == std::string_view::npos) {
    CIdentifierErrors(e, map_path, key);
    return;
  }
  const std::string_view domain = key.substr(0, slash);
  std::string_view id = key.substr(slash + 1);
  if (id.find('/') != std::string_view::npos) return;  // a/b/c: upstream accepts it unchecked
  if (domain.empty()) {
    e.Add(Invalid(map_path, Quote(""), "the domain must not be empty"));
  } else {
    DriverNameErrors(e, map_path, domain);
  }
  if (id.empty()) {
    e.Add(Invalid(map_path, Quote(""), "the name must not be empty"));
  } else {
    CIdentifierErrors(e, map_path, id);
  }
}

// KeyPath: upstream fldPath.Key(truncateIfTooLong(key, 63 + 1 + 32)): `path[key]`, a longer key
// shortened to its head, "..." and its tail.
std::string KeyPath(const std::string& path, std::string_view key) {
  constexpr size_t kMax = kDeviceMaxDomainLength + 1 + kDeviceMaxIdLength;
  std::string out = path;
  out.push_back('[');
  if (key.size() <= kMax) {
    out.append(key);
  } else {
    const size_t remaining = kMax - 3;
    out.append(key.substr(0, (remaining + 1) / 2));
    out.append("...");
    out.append(key.substr(key.size() - remaining / 2));
  }
  out.push_back(']');
  return out;
}

void ValidateSelectors(Errors& e, const std::vector<api::DeviceSelector>& selectors,
                       const std::string& path) {
  for (size_t i = 0; i < selectors.size(); ++i) {
    const std::string p = Child(Child(Index(path, i), "cel"), "expression");
    const std::string& expr = selectors[i].cel_expression;
    if (expr.empty()) {
      e.Add(Required(p));
      continue;
    }
    // Upstream validateCELSelector: TooLong without the value, not compiled.
    if (expr.size() > dra::cel::kMaxLength) {
      e.Add(FieldError{FieldErrorType::kTooLong, p, "",
                       fmt::format("may not be more than {} bytes", dra::cel::kMaxLength), ""});
      continue;
    }
    auto program = dra::cel::Program::Compile(expr);
    if (program) continue;
    if (program.error().unsupported) {
      // Valid CEL outside wasched's subset (QA1 finding 11): the API server would store it, so it
      // is no input error; the pods whose claims depend on it stay pending as Unsupported
      // (MarkPodsWithUnsupportedSelectors).
      e.Warn(FieldError{FieldErrorType::kNotSupported, p, Quote(expr),
                        program.error().message + "; pods whose claims use it are not scheduled",
                        ""});
    } else {
      e.Add(Invalid(p, Quote(expr), program.error().message));
    }
  }
}

void ValidateExact(Errors& e, const api::ExactDeviceRequest& r, const std::string& path,
                   const std::set<std::string>* classes) {
  const std::string cls = Child(path, "deviceClassName");
  if (r.device_class_name.empty()) {
    e.Add(Required(cls));
  } else if (classes != nullptr && !classes->contains(r.device_class_name)) {
    // A reference, not a field rule: the API server accepts the claim (observed on v1.37.2, the
    // dra-example-driver manifests of the differential suite), and allocation waits for the class.
    e.Warn(FieldError{FieldErrorType::kNotFound, cls, Quote(r.device_class_name),
                      "no DeviceClass of this name in the input; the API server accepts the "
                      "claim, and pods that use it stay pending until the DeviceClass exists",
                      ""});
  }
  ValidateSelectors(e, r.selectors, Child(path, "selectors"));
  // Upstream validateDeviceAllocationMode.
  if (r.allocation_mode == api::DeviceAllocationMode::kExactCount && r.count <= 0) {
    e.Add(Invalid(Child(path, "count"), std::to_string(r.count), "must be greater than zero"));
  }
  // Upstream validateDeviceAllocationMode (pkg/apis/resource/validation/validation.go).
  if (r.allocation_mode == api::DeviceAllocationMode::kAll && r.count_specified) {
    e.Add(Invalid(Child(path, "count"), std::to_string(r.count),
                  "must not be specified when allocationMode is 'All'"));
  }
  if (r.admin_access) {
    e.Add(FieldError{FieldErrorType::kNotSupported, Child(path, "adminAccess"), "true",
                     "adminAccess is not supported by wasched", ""});
  }
}

// `classes`: the DeviceClasses of the input, or nullptr when no pod uses the claim (then a
// missing class is not an error: the API server does not require it to exist).
void ValidateClaimSpec(Errors& e, const api::ResourceClaimSpec& spec, const std::string& path,
                       const std::set<std::string>* classes) {
  const std::string requests = Child(Child(path, "devices"), "requests");
  // validateSet's size check short-circuits the list (DOS protection, validation.go).
  if (spec.requests.size() > kDeviceRequestsMaxSize) {
    e.Add(TooMany(requests, spec.requests.size(), kDeviceRequestsMaxSize));
    return;
  }
  std::set<std::string> names;
  for (size_t i = 0; i < spec.requests.size(); ++i) {
    const api::DeviceRequest& r = spec.requests[i];
    const std::string p = Index(requests, i);
    if (r.name.empty()) {
      e.Add(Required(Child(p, "name")));
    } else if (!names.insert(r.name).second) {
      e.Add(Duplicate(Child(p, "name"), Quote(r.name)));
    }
    const bool has_exact = r.exactly.has_value();
    const bool has_first = !r.first_available.empty();
    if (has_exact == has_first) {
      e.Add(Invalid(p, "", has_exact ? "exactly one of `exactly` or `firstAvailable` is required, "
                                       "not both"
                                     : "exactly one of `exactly` or `firstAvailable` is required"));
      continue;
    }
    if (has_exact) ValidateExact(e, *r.exactly, Child(p, "exactly"), classes);
    if (r.first_available.size() > kFirstAvailableDeviceRequestMaxSize) {
      e.Add(TooMany(Child(p, "firstAvailable"), r.first_available.size(),
                    kFirstAvailableDeviceRequestMaxSize));
      continue;
    }
    std::set<std::string> sub_names;
    for (size_t j = 0; j < r.first_available.size(); ++j) {
      const std::string sp = Index(Child(p, "firstAvailable"), j);
      const api::ExactDeviceRequest& s = r.first_available[j];
      if (s.name.empty()) {
        e.Add(Required(Child(sp, "name")));
      } else if (!sub_names.insert(s.name).second) {
        e.Add(Duplicate(Child(sp, "name"), Quote(s.name)));
      }
      ValidateExact(e, s, sp, classes);
    }
  }
  if (spec.requests.empty()) e.Add(Required(requests));
  for (size_t i = 0; i < spec.constraints.size(); ++i) {
    e.Add(FieldError{FieldErrorType::kNotSupported,
                     Index(Child(Child(path, "devices"), "constraints"), i), "",
                     "device constraints (matchAttribute, distinctAttribute) are not supported "
                     "by wasched",
                     ""});
  }
}

// ValidateClaimRefs: entries {name, resourceClaimName | resourceClaimTemplateName} (pod and
// PodGroup spec.resourceClaims) must be unique, one-of, and resolve in `ns`.
template <typename Entry>
void ValidateClaimRefs(Errors& e, const std::vector<Entry>& entries, const std::string& path,
                       const std::string& ns, const NameSet& claims, const NameSet& templates,
                       std::set<std::string>* names, bool check_shape) {
  for (size_t i = 0; i < entries.size(); ++i) {
    const Entry& c = entries[i];
    const std::string p = Index(path, i);
    if (check_shape && c.name.empty()) {
      e.Add(Required(Child(p, "name")));
    } else if (!names->insert(c.name).second && check_shape) {
      e.Add(Duplicate(Child(p, "name"), Quote(c.name)));
    }
    const bool by_name = c.resource_claim_name.has_value() && !c.resource_claim_name->empty();
    const bool by_template =
        c.resource_claim_template_name.has_value() && !c.resource_claim_template_name->empty();
    if (by_name == by_template) {
      if (check_shape) e.Add(Invalid(p, "", "must specify one of: `resourceClaimName`, "
                           "`resourceClaimTemplateName`"));
      continue;
    }
    if (by_name && !claims.contains({ns, *c.resource_claim_name})) {
      e.Add(NotFound(Child(p, "resourceClaimName"), *c.resource_claim_name));
    }
    if (by_template && !templates.contains({ns, *c.resource_claim_template_name})) {
      e.Add(NotFound(Child(p, "resourceClaimTemplateName"), *c.resource_claim_template_name));
    }
  }
}

void ValidateContainerClaims(Errors& e, const std::vector<api::Container>& containers,
                             const char* field, const std::set<std::string>& names) {
  for (size_t i = 0; i < containers.size(); ++i) {
    const std::vector<api::ResourceClaimRequest>& claims = containers[i].claims;
    for (size_t j = 0; j < claims.size(); ++j) {
      const std::string p = Index(
          Child(Child(Index(fmt::format("spec.{}", field), i), "resources"), "claims"), j);
      if (claims[j].name.empty()) {
        e.Add(Required(Child(p, "name")));
      } else if (!names.contains(claims[j].name)) {
        e.Add(FieldError{FieldErrorType::kNotFound, Child(p, "name"), Quote(claims[j].name),
                         "must be one of the names in pod.spec.resourceClaims", ""});
      }
    }
  }
}

}  // namespace

void AppendDraErrors(const api::ObjectSet& objects, const FeatureGates& gates,
                     ErrorCollector* out, ErrorCollector* warnings) {
  std::set<std::string> classes;
  for (const api::DeviceClass& c : objects.device_classes) classes.insert(c.meta.name);
  NameSet claims;
  for (const api::ResourceClaim& c : objects.resource_claims) {
    claims.emplace(c.meta.namespace_, c.meta.name);
  }
  NameSet templates;
  for (const api::ResourceClaimTemplate& t : objects.resource_claim_templates) {
    templates.emplace(t.meta.namespace_, t.meta.name);
  }

  std::set<std::string> class_seen;
  for (size_t i = 0; i < objects.device_classes.size(); ++i) {
    const api::DeviceClass& c = objects.device_classes[i];
    Errors e(out, c.meta, ObjectLabel("DeviceClass", c.meta), kRankDeviceClass, i, warnings);
    // Upstream ValidateDeviceClass: ValidateObjectMeta with a DNS-1123 subdomain name.
    if (!c.meta.name.empty()) {
      for (FieldError& f : LongName("metadata.name", c.meta.name)) e.Add(std::move(f));
    }
    if (!class_seen.insert(c.meta.name).second) {
      e.Add(Duplicate("metadata.name", Quote(c.meta.name)));
    }
    ValidateSelectors(e, c.selectors, "spec.selectors");
  }

  std::set<std::string> slice_seen;
  std::set<std::string> published;  // "driver/pool/device"
  for (size_t i = 0; i < objects.resource_slices.size(); ++i) {
    const api::ResourceSlice& s = objects.resource_slices[i];
    Errors e(out, s.meta, ObjectLabel("ResourceSlice", s.meta), kRankResourceSlice, i);
    if (!slice_seen.insert(s.meta.name).second) {
      e.Add(Duplicate("metadata.name", Quote(s.meta.name)));
    }
    if (s.driver.empty()) {
      e.Add(Required("spec.driver"));
    } else {
      DriverNameErrors(e, "spec.driver", s.driver);
    }
    PoolNameErrors(e, "spec.pool.name", s.pool.name);
    if (s.pool.generation < 0) {
      e.Add(Invalid("spec.pool.generation", std::to_string(s.pool.generation),
                    "must be greater than or equal to 0"));
    }
    if (s.pool.resource_slice_count <= 0) {
      e.Add(Invalid("spec.pool.resourceSliceCount", std::to_string(s.pool.resource_slice_count),
                    "must be greater than zero"));
    }
    const int selections = static_cast<int>(!s.node_name.empty()) +
                           static_cast<int>(s.node_selector.has_value()) +
                           static_cast<int>(s.all_nodes) +
                           static_cast<int>(s.per_device_node_selection);
    if (selections != 1) {
      e.Add(Invalid("spec", "",
                    "exactly one of `nodeName`, `nodeSelector`, `allNodes`, "
                    "`perDeviceNodeSelection` is required"));
    }
    std::set<std::string> names;
    for (size_t j = 0; j < s.devices.size(); ++j) {
      const std::string p = Index("spec.devices", j);
      const api::Device& d = s.devices[j];
      if (d.name.empty()) {
        e.Add(Required(Child(p, "name")));
      } else if (!names.insert(d.name).second) {
        e.Add(Duplicate(Child(p, "name"), Quote(d.name)));
      } else {
        // Upstream validateDeviceName: a DNS-1123 label (so no quote, newline or control byte
        // reaches a table or a claim's allocation).
        for (FieldError& f : ShortName(Child(p, "name"), d.name)) e.Add(std::move(f));
      }
      const std::string attributes = Child(p, "attributes");
      for (const auto& [key, attribute] : d.attributes) {
        AttributeKeyErrors(e, attributes, key);
        using Kind = api::DeviceAttribute::Kind;
        if ((attribute.kind == Kind::kString || attribute.kind == Kind::kVersion) &&
            attribute.string_value.size() > kDeviceAttributeMaxValueLength) {
          e.Add(TooLongBytes(
              Child(KeyPath(attributes, key), attribute.kind == Kind::kString ? "string" : "version"),
              kDeviceAttributeMaxValueLength));
        }
      }
      const std::string capacity = Child(p, "capacity");
      for (const auto& entry : d.capacity) AttributeKeyErrors(e, capacity, entry.first);
      published.insert(s.driver + "/" + s.pool.name + "/" + s.devices[j].name);
    }
  }

  NameSet used_claims;
  NameSet used_templates;
  for (const api::Pod& pod : objects.pods) {
    for (const api::PodResourceClaim& c : pod.resource_claims) {
      if (c.resource_claim_name) used_claims.emplace(pod.meta.namespace_, *c.resource_claim_name);
      if (c.resource_claim_template_name) {
        used_templates.emplace(pod.meta.namespace_, *c.resource_claim_template_name);
      }
    }
  }
  for (size_t i = 0; i < objects.resource_claims.size(); ++i) {
    const api::ResourceClaim& c = objects.resource_claims[i];
    Errors e(out, c.meta, ObjectLabel("ResourceClaim", c.meta), kRankResourceClaim, i, warnings);
    ValidateClaimSpec(e, c.spec, "spec",
                      used_claims.contains({c.meta.namespace_, c.meta.name}) ? &classes : nullptr);
    if (!c.allocation) continue;
    Errors w(warnings, c.meta, ObjectLabel("ResourceClaim", c.meta), kRankResourceClaim, i);
    for (size_t j = 0; j < c.allocation->size(); ++j) {
      const api::DeviceRequestAllocationResult& r = (*c.allocation)[j];
      const std::string p = Index("status.allocation.devices.results", j);
      if (r.driver.empty() || r.pool.empty() || r.device.empty()) {
        e.Add(Required(r.driver.empty() ? Child(p, "driver")
                       : r.pool.empty() ? Child(p, "pool") : Child(p, "device")));
      } else if (!published.contains(r.driver + "/" + r.pool + "/" + r.device)) {
        w.Add(FieldError{FieldErrorType::kNotFound, p,
                         Quote(r.driver + "/" + r.pool + "/" + r.device),
                         "no ResourceSlice in the input publishes this device", ""});
      }
    }
  }
  for (size_t i = 0; i < objects.resource_claim_templates.size(); ++i) {
    const api::ResourceClaimTemplate& t = objects.resource_claim_templates[i];
    Errors e(out, t.meta, ObjectLabel("ResourceClaimTemplate", t.meta),
             kRankResourceClaimTemplate, i, warnings);
    ValidateClaimSpec(e, t.spec, "spec.spec",
                      used_templates.contains({t.meta.namespace_, t.meta.name}) ? &classes
                                                                                 : nullptr);
  }

  for (size_t i = 0; i < objects.pods.size(); ++i) {
    const api::Pod& pod = objects.pods[i];
    bool any_container_claim = false;
    for (const auto& c : pod.containers) any_container_claim |= !c.claims.empty();
    for (const auto& c : pod.init_containers) any_container_claim |= !c.claims.empty();
    if (pod.resource_claims.empty() && !any_container_claim) continue;
    Errors e(out, pod.meta, ObjectLabel("Pod", pod.meta), kRankPod, i);
    std::set<std::string> names;
    ValidateClaimRefs(e, pod.resource_claims, "spec.resourceClaims", pod.meta.namespace_, claims,
                      templates, &names, /*check_shape=*/true);
    ValidateContainerClaims(e, pod.containers, "containers", names);
    ValidateContainerClaims(e, pod.init_containers, "initContainers", names);
  }
  // PodGroup spec.resourceClaims are not resolved here: the API server does not require the
  // claim or template to exist, and a member pod's identical entry is checked as the pod's.
  (void)gates;
}

}  // namespace wasched::validation::internal

namespace wasched::validation {
namespace {

// UnsupportedSelector: "<path>: <message>" of the first selector of `selectors` outside wasched's
// CEL subset, or "".
std::string UnsupportedSelector(const std::vector<api::DeviceSelector>& selectors,
                                const std::string& path) {
  for (size_t i = 0; i < selectors.size(); ++i) {
    const std::string& expr = selectors[i].cel_expression;
    if (expr.empty() || expr.size() > dra::cel::kMaxLength) continue;
    auto program = dra::cel::Program::Compile(expr);
    if (!program && program.error().unsupported) {
      return fmt::format("{}: {}", Child(Child(Index(path, i), "cel"), "expression"),
                         program.error().message);
    }
  }
  return "";
}

// UnsupportedInSpec: the first unsupported selector a claim spec depends on ("" when none):
// its own request selectors, or those of a DeviceClass it requests (`classes`: name → reason).
std::string UnsupportedInSpec(const api::ResourceClaimSpec& spec, const std::string& path,
                              const std::map<std::string, std::string>& classes) {
  const std::string requests = Child(Child(path, "devices"), "requests");
  auto exact = [&](const api::ExactDeviceRequest& r, const std::string& p) {
    auto cls = classes.find(r.device_class_name);
    if (cls != classes.end()) return cls->second;
    return UnsupportedSelector(r.selectors, Child(p, "selectors"));
  };
  for (size_t i = 0; i < spec.requests.size(); ++i) {
    const api::DeviceRequest& r = spec.requests[i];
    const std::string p = Index(requests, i);
    std::string why = r.exactly ? exact(*r.exactly, Child(p, "exactly")) : "";
    for (size_t j = 0; why.empty() && j < r.first_available.size(); ++j) {
      why = exact(r.first_available[j], Index(Child(p, "firstAvailable"), j));
    }
    if (!why.empty()) return why;
  }
  return "";
}

}  // namespace

int MarkPodsWithUnsupportedSelectors(api::ObjectSet* objects) {
  std::map<std::string, std::string> classes;  // DeviceClass name → reason
  for (const api::DeviceClass& c : objects->device_classes) {
    std::string why = UnsupportedSelector(c.selectors, "spec.selectors");
    if (!why.empty()) {
      classes.emplace(c.meta.name, fmt::format("DeviceClass {}: {}", c.meta.name, why));
    }
  }
  std::map<std::pair<std::string, std::string>, std::string> claims;     // (ns, name) → reason
  std::map<std::pair<std::string, std::string>, std::string> templates;  // (ns, name) → reason
  for (const api::ResourceClaim& c : objects->resource_claims) {
    std::string why = UnsupportedInSpec(c.spec, "spec", classes);
    if (!why.empty() && !c.allocation) {  // an allocated claim's selectors were already applied
      if (why.rfind("DeviceClass ", 0) != 0) {
        why = fmt::format("ResourceClaim {}/{}: {}", c.meta.namespace_, c.meta.name, why);
      }
      claims.emplace(std::pair{c.meta.namespace_, c.meta.name}, std::move(why));
    }
  }
  for (const api::ResourceClaimTemplate& t : objects->resource_claim_templates) {
    std::string why = UnsupportedInSpec(t.spec, "spec.spec", classes);
    if (!why.empty()) {
      if (why.rfind("DeviceClass ", 0) != 0) {
        why = fmt::format("ResourceClaimTemplate {}/{}: {}", t.meta.namespace_, t.meta.name, why);
      }
      templates.emplace(std::pair{t.meta.namespace_, t.meta.name}, std::move(why));
    }
  }
  if (claims.empty() && templates.empty()) return 0;
  int marked = 0;
  for (api::Pod& pod : objects->pods) {
    if (!pod.node_name.empty()) continue;
    bool any = false;
    for (size_t i = 0; i < pod.resource_claims.size(); ++i) {
      const api::PodResourceClaim& c = pod.resource_claims[i];
      const std::string* why = nullptr;
      if (c.resource_claim_name) {
        auto it = claims.find({pod.meta.namespace_, *c.resource_claim_name});
        if (it != claims.end()) why = &it->second;
      } else if (c.resource_claim_template_name) {
        auto it = templates.find({pod.meta.namespace_, *c.resource_claim_template_name});
        if (it != templates.end()) why = &it->second;
      }
      if (why == nullptr) continue;
      pod.unsupported_constraints.push_back(
          fmt::format("{} (CEL selector of {})", Index("spec.resourceClaims", i), *why));
      any = true;
    }
    marked += static_cast<int>(any);
  }
  return marked;
}

}  // namespace wasched::validation
