// File: codec/convert.cc
//
// `wasched convert`: texts → YamlTree documents → objects found (Lists expanded) → v1alpha1 and
// v1alpha2 objects rewritten in place → PodGroups generated for 1.35 pods → YAML / JSON stream
// (see codec/convert.h for what is converted and what is reported).
//
// Source shapes: kubernetes/api scheduling/v1alpha1/types.go (release-1.35: Workload
// `spec.podGroups[] {name, policy{basic, gang{minCount}}}`, core/v1 Pod `spec.workloadRef
// {name, podGroup, podGroupReplicaKey}`) and scheduling/v1alpha2/types.go (release-1.36:
// PodGroupTemplate / PodGroupSpec {podGroupTemplateRef, schedulingPolicy, schedulingConstraints,
// resourceClaims, disruptionMode "Pod"|"PodGroup", priorityClassName, priority}, status
// {conditions, resourceClaimStatuses}). Target shapes: spec/was-v1.37.md §1 (renames) and §2.
#include "codec/convert.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "codec/convert_gang.h"
#include "codec/manifest_files.h"
#include "codec/yaml_documents.h"
#include "codec/yaml_reader.h"
#include "codec/yaml_tree.h"

namespace wasched::codec {
namespace {

using internal::ValueKind;
using internal::YamlTree;

constexpr std::string_view kV1alpha1 = "scheduling.k8s.io/v1alpha1";
constexpr std::string_view kV1alpha2 = "scheduling.k8s.io/v1alpha2";
constexpr std::string_view kV1alpha3 = kConvertTargetV1alpha3;
constexpr std::string_view kV1beta1 = kConvertTargetV1beta1;

// kMaxListNesting: Lists inside Lists are expanded up to this depth (as the loader does).
constexpr int kMaxListNesting = 8;

constexpr std::string_view kMissing =
    "required field is missing (a fragment?); the rest is converted, the output will not "
    "validate";

// Fields a generated PodGroup copies from its PodGroupTemplate (controllers copy them the same
// way; spec §2.2 / §2.4).
constexpr std::string_view kTemplateFieldsToCopy[] = {"schedulingPolicy",  "schedulingConstraints",
                                                      "resourceClaims",    "disruptionMode",
                                                      "priorityClassName", "priority",
                                                      "preemptionPolicy"};

// Describe: `string "abc"`, `integer 5`, `object`, … as the loader's type errors say.
std::string Describe(const YamlTree& t) {
  const ValueKind kind = t.Kind();
  switch (kind) {
    case ValueKind::kMap:
    case ValueKind::kList:
    case ValueKind::kNull:
      return internal::ValueKindName(kind);
    case ValueKind::kString:
      return fmt::format("string {}", internal::QuoteValue(t.text));
    default:
      return fmt::format("{} {}", internal::ValueKindName(kind), t.text);
  }
}

bool IsNull(const YamlTree* t) { return t == nullptr || t->Kind() == ValueKind::kNull; }

std::string JoinPath(std::string_view base, std::string_view field) {
  if (base.empty()) return std::string(field);
  if (field.empty()) return std::string(base);
  return fmt::format("{}.{}", base, field);
}

// IsDnsLabelPart / IsDnsSubdomain: upstream IsDNS1123Subdomain (≤ 253 characters, dot-separated
// labels of [a-z0-9-] that start and end alphanumeric).
bool IsAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

bool IsDnsSubdomain(std::string_view s) {
  if (s.empty() || s.size() > 253) return false;
  size_t start = 0;
  while (start <= s.size()) {
    size_t end = s.find('.', start);
    if (end == std::string_view::npos) end = s.size();
    const std::string_view label = s.substr(start, end - start);
    if (label.empty() || !IsAlnum(label.front()) || !IsAlnum(label.back())) return false;
    for (char c : label) {
      if (!IsAlnum(c) && c != '-') return false;
    }
    start = end + 1;
  }
  return true;
}

// PodSpecPaths: where pod specs sit in the kinds convert rewrites `workloadRef` in.
std::vector<std::vector<std::string_view>> PodSpecPaths(std::string_view api_version,
                                                        std::string_view kind) {
  const bool core = api_version == "v1";
  const bool apps = api_version.starts_with("apps/");
  const bool batch = api_version.starts_with("batch/");
  if (core && kind == "Pod") return {{"spec"}};
  if (core && kind == "PodTemplate") return {{"template", "spec"}};
  if ((core && kind == "ReplicationController") ||
      (apps && (kind == "Deployment" || kind == "StatefulSet" || kind == "DaemonSet" ||
                kind == "ReplicaSet")) ||
      (batch && kind == "Job")) {
    return {{"spec", "template", "spec"}};
  }
  if (batch && kind == "CronJob") return {{"spec", "jobTemplate", "spec", "template", "spec"}};
  return {};
}

// ObjectRef: one object of the input (List items included).
struct ObjectRef {
  YamlTree* node = nullptr;        // the object (a map)
  YamlTree* anchor = nullptr;      // generated objects are written after this stream/List element
  YamlTree* typed_list = nullptr;  // a typed list (WorkloadList) the item inherits apiVersion from
  api::SourceRef source;
  int ordinal = 0;          // input order, for sorting reports
  std::string path;         // "" or "items[3]": the object's path in its document
  std::string api_version;  // effective (own, or the typed list's)
  std::string kind;
  std::string name;
  std::string namespace_;  // metadata.namespace, "" when absent
  std::string label;       // "Workload ns/name" (namespace "default" when absent)
};

// GroupMember / GroupPlan: pods (or pod templates) whose 1.35 workloadRef implies one PodGroup.
struct GroupMember {
  const ObjectRef* owner = nullptr;
  std::string spec_path;  // path of the pod spec in the object ("spec", "spec.template.spec")
  std::optional<YamlTree> priority_class_name;
  std::optional<YamlTree> priority;
};

struct GroupPlan {
  std::string namespace_;  // for matching ("default" when absent)
  std::string workload;
  std::string pod_group;
  std::optional<std::string> replica_key;
  std::string name;
  std::vector<GroupMember> members;
};

// Report: an issue or error with its place in input order.
template <typename T>
struct Ordered {
  int ordinal;
  T value;
};

class Converter {
 public:
  explicit Converter(const ConvertOptions& options) : options_(options) {}

  void AddText(const std::string& file, std::string_view text);
  tl::expected<ConvertResult, InputErrors> Finish(InputErrors path_errors,
                                                  std::vector<std::string> warnings);

 private:
  struct Document {
    api::SourceRef source;
    int ordinal = 0;
    YamlTree root;
  };

  // Collection.
  void Collect(YamlTree& node, YamlTree* anchor, bool items_anchor, YamlTree* typed_list,
               const api::SourceRef& source, int ordinal, const std::string& path,
               std::string_view default_api_version, std::string_view default_kind, int depth);

  // Reports.
  void Error(const ObjectRef& o, std::string_view rel, FieldErrorType type, std::string bad_value,
             std::string detail);
  void TypeError(const ObjectRef& o, std::string_view rel, const YamlTree& t,
                 std::string_view expected);
  void Issue(const ObjectRef& o, std::string_view rel, std::string reason);
  // ExpectMap: true for a map; false for null (silently) and other kinds (TypeInvalid).
  bool ExpectMap(const ObjectRef& o, std::string_view rel, const YamlTree& t);
  // ReadString: the string under `key` of `map`; nullopt when absent or null; a TypeInvalid error
  // (and nullopt, with *ok = false) for another kind.
  std::optional<std::string> ReadString(const ObjectRef& o, std::string_view rel,
                                        const YamlTree& map, std::string_view key, bool* ok);
  // DropUnknown: removes (and reports) every entry of `map` whose key is not in `known`.
  void DropUnknown(const ObjectRef& o, std::string_view rel, YamlTree& map,
                   std::initializer_list<std::string_view> known, std::string_view type_name);
  // Require: reports `rel.key` when it is absent or null.
  void Require(const ObjectRef& o, std::string_view rel, const YamlTree& map, std::string_view key);

  // Conversions.
  void ConvertObject(ObjectRef& o);
  void SetApiVersion(ObjectRef& o);
  // WorkloadSpec: the common start of both Workload conversions: new apiVersion, unknown top-level
  // and spec fields of `source` dropped (spec keys outside `spec_keys`); the spec map, or nullptr
  // (reported) when it is missing or not a map.
  YamlTree* WorkloadSpec(ObjectRef& o, std::string_view source,
                         std::initializer_list<std::string_view> spec_keys);
  void ConvertWorkloadV1alpha1(ObjectRef& o);
  void ConvertWorkloadV1alpha2(ObjectRef& o);
  void ConvertPodGroupV1alpha2(ObjectRef& o);
  void ConvertDisruptionMode(const ObjectRef& o, std::string_view rel, YamlTree& parent);
  void ConvertTemplateRef(const ObjectRef& o, YamlTree& spec);
  void ConvertPodSpecs(ObjectRef& o);
  void ConvertPodSpec(ObjectRef& o, YamlTree& spec, const std::string& rel);
  void GeneratePodGroups();
  YamlTree BuildPodGroup(const GroupPlan& plan, const YamlTree& tmpl);

  // Output.
  void InsertGenerated(std::vector<YamlTree>& items);
  std::string WriteOutput();

  ConvertOptions options_;
  std::deque<Document> docs_;
  std::deque<ObjectRef> objects_;
  std::vector<Ordered<InputError>> errors_;
  std::vector<Ordered<ConvertIssue>> issues_;
  std::unordered_set<const YamlTree*> changed_;
  std::vector<GroupPlan> plans_;
  std::map<std::tuple<std::string, std::string, std::string, std::optional<std::string>>, size_t>
      plan_index_;
  std::unordered_map<const YamlTree*, std::vector<YamlTree>> generated_after_;
  int generated_ = 0;
  int next_ordinal_ = 0;
};

void Converter::AddText(const std::string& file, std::string_view text) {
  internal::ForEachDocument(text, [&](internal::ParsedDocument& doc) {
    const api::SourceRef source{file, doc.number};
    const int ordinal = next_ordinal_++;
    if (!doc.error.empty()) {
      errors_.push_back(
          {ordinal,
           InputError{source, "", FieldError{FieldErrorType::kInvalid, "", "", doc.error, ""}}});
      return;
    }
    if (internal::Classify(doc.tape, doc.tape.root()) == ValueKind::kNull) return;  // empty
    // Budget: a document cannot have more nodes than bytes unless aliases repeat them.
    std::optional<YamlTree> tree = internal::TreeFromTape(
        doc.tape, doc.tape.root(), static_cast<int64_t>(doc.text_size) * 2 + 1024);
    if (!tree) {
      errors_.push_back(
          {ordinal, InputError{source, "",
                               FieldError{FieldErrorType::kInvalid, "", "",
                                          "document too large after expanding YAML aliases", ""}}});
      return;
    }
    docs_.push_back(Document{source, ordinal, std::move(*tree)});
  });
}

void Converter::Collect(YamlTree& node, YamlTree* anchor, bool items_anchor, YamlTree* typed_list,
                        const api::SourceRef& source, int ordinal, const std::string& path,
                        std::string_view default_api_version, std::string_view default_kind,
                        int depth) {
  if (node.Kind() == ValueKind::kNull) return;  // a null List item, as the loader skips it
  ObjectRef frame;  // unnamed object, for errors before the object is identified
  frame.source = source;
  frame.ordinal = ordinal;
  frame.path = path;
  if (!node.IsMap()) {
    TypeError(frame, "", node, "object");
    return;
  }
  std::string api_version(default_api_version);
  std::string kind(default_kind);
  bool ok = true;
  if (const YamlTree* v = node.Find("apiVersion"); !IsNull(v)) {
    if (v->IsString()) {
      api_version = v->text;
    } else {
      TypeError(frame, "apiVersion", *v, "string");
      ok = false;
    }
  }
  if (const YamlTree* v = node.Find("kind"); !IsNull(v)) {
    if (v->IsString()) {
      kind = v->text;
    } else {
      TypeError(frame, "kind", *v, "string");
      ok = false;
    }
  }
  if (!ok) return;
  if (api_version.empty() || kind.empty()) {
    if (api_version.empty()) {
      Error(frame, "apiVersion", FieldErrorType::kRequired, "",
            "every object needs apiVersion and kind");
    }
    if (kind.empty()) {
      Error(frame, "kind", FieldErrorType::kRequired, "", "every object needs apiVersion and kind");
    }
    return;
  }

  YamlTree* items = node.Find("items");
  if (kind == "List" || (kind.ends_with("List") && items != nullptr)) {
    if (depth >= kMaxListNesting) {
      Error(frame, "", FieldErrorType::kInvalid, "", "Lists nested too deeply");
      return;
    }
    if (IsNull(items)) return;
    if (!items->IsSeq()) {
      TypeError(frame, "items", *items, "list");
      return;
    }
    const bool generic = kind == "List";
    // A typed list's items may omit apiVersion/kind (API server responses do).
    const std::string item_kind = generic ? "" : kind.substr(0, kind.size() - 4);
    const std::string item_api_version = generic ? "" : api_version;
    for (size_t i = 0; i < items->children.size(); ++i) {
      YamlTree& item = items->children[i];
      const bool item_is_anchor = generic && items_anchor;
      Collect(item, item_is_anchor ? &item : anchor, item_is_anchor, generic ? nullptr : &node,
              source, ordinal, JoinPath(path, fmt::format("items[{}]", i)), item_api_version,
              item_kind, depth + 1);
    }
    return;
  }

  ObjectRef o = frame;
  o.node = &node;
  o.anchor = anchor;
  o.typed_list = node.Find("apiVersion") == nullptr ? typed_list : nullptr;
  o.api_version = api_version;
  o.kind = kind;
  if (const YamlTree* meta = node.Find("metadata"); meta && meta->IsMap()) {
    if (const YamlTree* n = meta->Find("name"); n && n->IsString()) o.name = n->text;
    if (const YamlTree* ns = meta->Find("namespace"); ns && ns->IsString()) o.namespace_ = ns->text;
  }
  o.label = kind;
  if (!o.name.empty()) {
    o.label += fmt::format(" {}/{}", o.namespace_.empty() ? "default" : o.namespace_, o.name);
  }
  objects_.push_back(std::move(o));
}

void Converter::Error(const ObjectRef& o, std::string_view rel, FieldErrorType type,
                      std::string bad_value, std::string detail) {
  errors_.push_back(
      {o.ordinal, InputError{o.source, o.label,
                             FieldError{type, JoinPath(o.path, rel), std::move(bad_value),
                                        std::move(detail), ""}}});
}

void Converter::TypeError(const ObjectRef& o, std::string_view rel, const YamlTree& t,
                          std::string_view expected) {
  Error(o, rel, FieldErrorType::kTypeInvalid, "",
        fmt::format("expected {}, got {}", expected, Describe(t)));
}

void Converter::Issue(const ObjectRef& o, std::string_view rel, std::string reason) {
  issues_.push_back(
      {o.ordinal, ConvertIssue{o.source, o.label, JoinPath(o.path, rel), std::move(reason)}});
}

bool Converter::ExpectMap(const ObjectRef& o, std::string_view rel, const YamlTree& t) {
  if (t.IsMap()) return true;
  if (t.Kind() != ValueKind::kNull) TypeError(o, rel, t, "object");
  return false;
}

std::optional<std::string> Converter::ReadString(const ObjectRef& o, std::string_view rel,
                                                 const YamlTree& map, std::string_view key,
                                                 bool* ok) {
  const YamlTree* v = map.Find(key);
  if (IsNull(v)) return std::nullopt;
  if (!v->IsString()) {
    TypeError(o, JoinPath(rel, key), *v, "string");
    *ok = false;
    return std::nullopt;
  }
  return v->text;
}

void Converter::DropUnknown(const ObjectRef& o, std::string_view rel, YamlTree& map,
                            std::initializer_list<std::string_view> known,
                            std::string_view type_name) {
  if (!map.IsMap()) return;
  std::vector<YamlTree> kept;
  kept.reserve(map.children.size());
  for (size_t i = 0; i < map.MapSize(); ++i) {
    const std::string_view key = map.KeyText(i);
    const bool is_known = map.Key(i).type == internal::YamlType::kScalar &&
                          std::find(known.begin(), known.end(), key) != known.end();
    if (is_known) {
      kept.push_back(std::move(map.children[2 * i]));
      kept.push_back(std::move(map.children[2 * i + 1]));
    } else {
      Issue(o, JoinPath(rel, key),
            fmt::format("not a field of {}; dropped", type_name));
    }
  }
  map.children = std::move(kept);
}

void Converter::Require(const ObjectRef& o, std::string_view rel, const YamlTree& map,
                        std::string_view key) {
  if (IsNull(map.Find(key))) Issue(o, JoinPath(rel, key), std::string(kMissing));
}

void Converter::SetApiVersion(ObjectRef& o) {
  if (YamlTree* own = o.node->Find("apiVersion"); own != nullptr) {
    *own = YamlTree::Plain(options_.target);
  } else if (o.typed_list != nullptr) {
    o.typed_list->Set("apiVersion", YamlTree::Plain(options_.target));
  }
  changed_.insert(o.node);
}

void Converter::ConvertObject(ObjectRef& o) {
  const std::string_view av = o.api_version;
  if (av == kV1alpha1) {
    if (o.kind == "Workload") {
      ConvertWorkloadV1alpha1(o);
    } else if (o.kind != "PriorityClass") {
      Issue(o, "kind", fmt::format("{} has no kind {}; passed through unchanged", av, internal::QuoteValue(o.kind)));
    }
  } else if (av == kV1alpha2) {
    if (o.kind == "Workload") {
      ConvertWorkloadV1alpha2(o);
    } else if (o.kind == "PodGroup") {
      ConvertPodGroupV1alpha2(o);
    } else {
      Issue(o, "kind", fmt::format("{} has no kind {}; passed through unchanged", av, internal::QuoteValue(o.kind)));
    }
  } else if (av == kV1alpha3 || av == kV1beta1) {
    if (av == options_.target) return;  // already there: the object itself
    if (o.kind == "Workload" || o.kind == "PodGroup") {
      // v1alpha3 and v1beta1 Workload / PodGroup are field-identical (spec §2).
      SetApiVersion(o);
    } else if (o.kind == "CompositePodGroup") {
      Issue(o, "apiVersion",
            fmt::format("CompositePodGroup exists only in {}; kept at {}", kV1alpha3, av));
    } else if (!(av == kV1beta1 && o.kind == "PriorityClass")) {
      Issue(o, "kind", fmt::format("{} has no kind {}; passed through unchanged", av, internal::QuoteValue(o.kind)));
    }
  }
}

YamlTree* Converter::WorkloadSpec(ObjectRef& o, std::string_view source,
                                  std::initializer_list<std::string_view> spec_keys) {
  SetApiVersion(o);
  YamlTree& obj = *o.node;
  DropUnknown(o, "", obj, {"apiVersion", "kind", "metadata", "spec"},
              fmt::format("{} Workload", source));
  YamlTree* spec = obj.Find("spec");
  if (IsNull(spec)) {
    Issue(o, "spec", std::string(kMissing));
    return nullptr;
  }
  if (!ExpectMap(o, "spec", *spec)) return nullptr;
  DropUnknown(o, "spec", *spec, spec_keys, fmt::format("{} WorkloadSpec", source));
  return spec;
}

// v1alpha1 Workload (1.35) → podGroupTemplates[] with schedulingPolicy.
void Converter::ConvertWorkloadV1alpha1(ObjectRef& o) {
  constexpr std::string_view kSource = "scheduling.k8s.io/v1alpha1";
  YamlTree* spec = WorkloadSpec(o, kSource, {"controllerRef", "podGroups"});
  if (spec == nullptr) return;
  YamlTree* groups = spec->Find("podGroups");
  spec->RenameKey("podGroups", "podGroupTemplates");
  if (IsNull(groups)) {
    Issue(o, "spec.podGroups", std::string(kMissing));
    return;
  }
  if (!groups->IsSeq()) {
    TypeError(o, "spec.podGroups", *groups, "list");
    return;
  }
  for (size_t i = 0; i < groups->children.size(); ++i) {
    const std::string rel = fmt::format("spec.podGroups[{}]", i);
    YamlTree& group = groups->children[i];
    if (!group.IsMap()) {
      TypeError(o, rel, group, "object");
      continue;
    }
    DropUnknown(o, rel, group, {"name", "policy"}, fmt::format("{} PodGroup", kSource));
    Require(o, rel, group, "name");
    Require(o, rel, group, "policy");
    YamlTree* policy = group.Find("policy");
    group.RenameKey("policy", "schedulingPolicy");
    if (policy != nullptr && ExpectMap(o, rel + ".policy", *policy)) {
      DropUnknown(o, rel + ".policy", *policy, {"basic", "gang"},
                  fmt::format("{} PodGroupPolicy", kSource));
    }
  }
}

// v1alpha2 disruptionMode "Pod" | "PodGroup" → {single: {}} | {all: {}} (spec §1).
void Converter::ConvertDisruptionMode(const ObjectRef& o, std::string_view rel, YamlTree& parent) {
  YamlTree* mode = parent.Find("disruptionMode");
  if (IsNull(mode)) return;
  const std::string path = JoinPath(rel, "disruptionMode");
  if (!mode->IsString()) {
    TypeError(o, path, *mode, "string");
    return;
  }
  std::string_view member;
  if (mode->text == "Pod") {
    member = "single";
  } else if (mode->text == "PodGroup") {
    member = "all";
  } else {
    Error(o, path, FieldErrorType::kNotSupported, internal::QuoteValue(mode->text),
          "supported values: \"Pod\", \"PodGroup\"");
    return;
  }
  YamlTree converted = YamlTree::Map();
  converted.Set(member, YamlTree::Map());
  *mode = std::move(converted);
}

// v1alpha2 Workload (1.36): same shape but for disruptionMode.
void Converter::ConvertWorkloadV1alpha2(ObjectRef& o) {
  constexpr std::string_view kSource = "scheduling.k8s.io/v1alpha2";
  YamlTree* spec = WorkloadSpec(o, kSource, {"controllerRef", "podGroupTemplates"});
  if (spec == nullptr) return;
  YamlTree* templates = spec->Find("podGroupTemplates");
  if (IsNull(templates)) {
    Issue(o, "spec.podGroupTemplates", std::string(kMissing));
    return;
  }
  if (!templates->IsSeq()) {
    TypeError(o, "spec.podGroupTemplates", *templates, "list");
    return;
  }
  for (size_t i = 0; i < templates->children.size(); ++i) {
    const std::string rel = fmt::format("spec.podGroupTemplates[{}]", i);
    YamlTree& t = templates->children[i];
    if (!t.IsMap()) {
      TypeError(o, rel, t, "object");
      continue;
    }
    DropUnknown(o, rel, t,
                {"name", "schedulingPolicy", "schedulingConstraints", "resourceClaims",
                 "disruptionMode", "priorityClassName", "priority"},
                fmt::format("{} PodGroupTemplate", kSource));
    Require(o, rel, t, "name");
    Require(o, rel, t, "schedulingPolicy");
    ConvertDisruptionMode(o, rel, t);
  }
}

// v1alpha2 spec.podGroupTemplateRef.workload{workloadName, podGroupTemplateName} →
// spec.workloadRef{workloadName, templateName}, at the same position.
void Converter::ConvertTemplateRef(const ObjectRef& o, YamlTree& spec) {
  constexpr std::string_view kSource = "scheduling.k8s.io/v1alpha2";
  YamlTree* ref = spec.Find("podGroupTemplateRef");
  if (ref == nullptr) return;
  if (IsNull(ref)) {
    spec.Remove("podGroupTemplateRef");  // null = unset
    return;
  }
  if (!ExpectMap(o, "spec.podGroupTemplateRef", *ref)) return;
  DropUnknown(o, "spec.podGroupTemplateRef", *ref, {"workload"},
              fmt::format("{} PodGroupTemplateReference", kSource));
  YamlTree* workload = ref->Find("workload");
  if (IsNull(workload)) {
    Issue(o, "spec.podGroupTemplateRef",
          "names no template (v1alpha2 requires `workload`); dropped, the PodGroup stays "
          "standalone");
    spec.Remove("podGroupTemplateRef");
    return;
  }
  if (!ExpectMap(o, "spec.podGroupTemplateRef.workload", *workload)) return;
  const std::string rel = "spec.podGroupTemplateRef.workload";
  DropUnknown(o, rel, *workload, {"workloadName", "podGroupTemplateName"},
              fmt::format("{} WorkloadPodGroupTemplateReference", kSource));
  Require(o, rel, *workload, "workloadName");
  Require(o, rel, *workload, "podGroupTemplateName");
  YamlTree converted = std::move(*workload);
  converted.RenameKey("podGroupTemplateName", "templateName");
  *ref = std::move(converted);
  spec.RenameKey("podGroupTemplateRef", "workloadRef");
}

// v1alpha2 PodGroup (1.36).
void Converter::ConvertPodGroupV1alpha2(ObjectRef& o) {
  constexpr std::string_view kSource = "scheduling.k8s.io/v1alpha2";
  SetApiVersion(o);
  YamlTree& obj = *o.node;
  DropUnknown(o, "", obj, {"apiVersion", "kind", "metadata", "spec", "status"},
              fmt::format("{} PodGroup", kSource));
  if (YamlTree* spec = obj.Find("spec"); IsNull(spec)) {
    Issue(o, "spec", std::string(kMissing));
  } else if (ExpectMap(o, "spec", *spec)) {
    DropUnknown(o, "spec", *spec,
                {"podGroupTemplateRef", "schedulingPolicy", "schedulingConstraints",
                 "resourceClaims", "disruptionMode", "priorityClassName", "priority"},
                fmt::format("{} PodGroupSpec", kSource));
    Require(o, "spec", *spec, "schedulingPolicy");
    ConvertTemplateRef(o, *spec);
    ConvertDisruptionMode(o, "spec", *spec);
  }
  YamlTree* status = obj.Find("status");
  if (status == nullptr || !ExpectMap(o, "status", *status)) return;
  DropUnknown(o, "status", *status, {"conditions", "resourceClaimStatuses"},
              fmt::format("{} PodGroupStatus", kSource));
  YamlTree* conditions = status->Find("conditions");
  if (IsNull(conditions)) return;
  if (!conditions->IsSeq()) {
    TypeError(o, "status.conditions", *conditions, "list");
    return;
  }
  // A PodGroupScheduled renamed onto an existing PodGroupInitiallyScheduled would duplicate the
  // list's map key `type`: the existing entry is kept, the renamed one dropped with an issue.
  const auto is_type = [](YamlTree& c, std::string_view name) {
    YamlTree* type = c.IsMap() ? c.Find("type") : nullptr;
    return type != nullptr && type->IsString() && type->text == name;
  };
  bool has_initially = false;
  for (YamlTree& c : conditions->children) has_initially |= is_type(c, "PodGroupInitiallyScheduled");
  std::vector<YamlTree> kept;
  kept.reserve(conditions->children.size());
  for (size_t i = 0; i < conditions->children.size(); ++i) {
    YamlTree& c = conditions->children[i];
    const std::string rel = fmt::format("status.conditions[{}]", i);
    if (!c.IsMap()) {
      TypeError(o, rel, c, "object");
    } else if (is_type(c, "PodGroupScheduled")) {
      if (has_initially) {
        Issue(o, rel,
              "condition PodGroupScheduled becomes PodGroupInitiallyScheduled, which "
              "status.conditions already holds; the existing one is kept, this one dropped");
        continue;
      }
      c.Find("type")->text = "PodGroupInitiallyScheduled";
      has_initially = true;
    }
    kept.push_back(std::move(c));
  }
  conditions->children = std::move(kept);
}

void Converter::ConvertPodSpecs(ObjectRef& o) {
  std::vector<std::pair<YamlTree*, std::string>> specs;
  for (const auto& segments : PodSpecPaths(o.api_version, o.kind)) {
    YamlTree* at = o.node;
    std::string rel;
    for (std::string_view s : segments) {
      at = at != nullptr && at->IsMap() ? at->Find(s) : nullptr;
      rel = JoinPath(rel, s);
    }
    if (at != nullptr && at->IsMap()) specs.emplace_back(at, rel);
  }
  if (o.api_version.starts_with("jobset.x-k8s.io/") && o.kind == "JobSet") {
    // spec.replicatedJobs[i].template.spec.template.spec
    YamlTree* spec = o.node->Find("spec");
    YamlTree* jobs = spec != nullptr && spec->IsMap() ? spec->Find("replicatedJobs") : nullptr;
    if (jobs != nullptr && jobs->IsSeq()) {
      for (size_t i = 0; i < jobs->children.size(); ++i) {
        YamlTree* at = &jobs->children[i];
        for (std::string_view s : {"template", "spec", "template", "spec"}) {
          at = at != nullptr && at->IsMap() ? at->Find(s) : nullptr;
        }
        if (at != nullptr && at->IsMap()) {
          specs.emplace_back(at,
                             fmt::format("spec.replicatedJobs[{}].template.spec.template.spec", i));
        }
      }
    }
  }
  for (auto& [spec, rel] : specs) ConvertPodSpec(o, *spec, rel);
}

// core/v1 (1.35) spec.workloadRef {name, podGroup, podGroupReplicaKey} →
// spec.schedulingGroup.podGroupName, at the same position; the PodGroup is planned.
void Converter::ConvertPodSpec(ObjectRef& o, YamlTree& spec, const std::string& rel) {
  YamlTree* ref = spec.Find("workloadRef");
  if (ref == nullptr) return;
  const std::string ref_path = JoinPath(rel, "workloadRef");
  if (IsNull(ref)) {
    spec.Remove("workloadRef");  // null = unset
    changed_.insert(o.node);
    return;
  }
  if (!ExpectMap(o, ref_path, *ref)) return;
  DropUnknown(o, ref_path, *ref, {"name", "podGroup", "podGroupReplicaKey"},
              "v1 WorkloadReference (1.35)");
  bool ok = true;
  const std::optional<std::string> workload = ReadString(o, ref_path, *ref, "name", &ok);
  const std::optional<std::string> pod_group = ReadString(o, ref_path, *ref, "podGroup", &ok);
  std::optional<std::string> key = ReadString(o, ref_path, *ref, "podGroupReplicaKey", &ok);
  if (!ok) return;
  if (key && key->empty()) key.reset();  // "" = no replica key
  changed_.insert(o.node);
  if (!IsNull(spec.Find("schedulingGroup"))) {
    Issue(o, ref_path,
          "the pod also sets spec.schedulingGroup, which is kept; workloadRef dropped");
    spec.Remove("workloadRef");
    return;
  }
  if (!workload || workload->empty() || !pod_group || pod_group->empty()) {
    Issue(o, JoinPath(ref_path, !workload || workload->empty() ? "name" : "podGroup"),
          "required field is missing; workloadRef dropped, the pod joins no group");
    spec.Remove("workloadRef");
    return;
  }
  std::string name = fmt::format("{}-{}", *workload, *pod_group);
  if (key) name += "-" + *key;

  YamlTree group = YamlTree::Map();
  group.Set("podGroupName", YamlTree::String(name));
  *ref = std::move(group);
  spec.RenameKey("workloadRef", "schedulingGroup");

  const std::string ns = o.namespace_.empty() ? "default" : o.namespace_;
  auto plan_key = std::make_tuple(ns, *workload, *pod_group, key);
  auto [it, inserted] = plan_index_.try_emplace(plan_key, plans_.size());
  if (inserted) plans_.push_back(GroupPlan{ns, *workload, *pod_group, key, name, {}});
  GroupMember member;
  member.owner = &o;
  member.spec_path = rel;
  if (const YamlTree* v = spec.Find("priorityClassName"); !IsNull(v)) {
    member.priority_class_name = *v;
  }
  if (const YamlTree* v = spec.Find("priority"); !IsNull(v)) member.priority = *v;
  plans_[it->second].members.push_back(std::move(member));
}

YamlTree Converter::BuildPodGroup(const GroupPlan& plan, const YamlTree& tmpl) {
  YamlTree pg = YamlTree::Map();
  pg.Set("apiVersion", YamlTree::Plain(options_.target));
  pg.Set("kind", YamlTree::Plain("PodGroup"));
  YamlTree meta = YamlTree::Map();
  meta.Set("name", YamlTree::String(plan.name));
  const ObjectRef& first = *plan.members.front().owner;
  if (!first.namespace_.empty()) meta.Set("namespace", YamlTree::String(first.namespace_));
  pg.Set("metadata", std::move(meta));
  YamlTree spec = YamlTree::Map();
  YamlTree ref = YamlTree::Map();
  ref.Set("workloadName", YamlTree::String(plan.workload));
  ref.Set("templateName", YamlTree::String(plan.pod_group));
  spec.Set("workloadRef", std::move(ref));
  for (std::string_view field : kTemplateFieldsToCopy) {
    if (const YamlTree* v = tmpl.Find(field); !IsNull(v)) spec.Set(field, *v);
  }
  // 1.37 schedules a group only when every pod has the PodGroup's priority: give the PodGroup
  // the pods' common priority when the template sets none.
  if (IsNull(tmpl.Find("priorityClassName")) && IsNull(tmpl.Find("priority"))) {
    const GroupMember& lead = plan.members.front();
    const auto same = [](const std::optional<YamlTree>& a, const std::optional<YamlTree>& b) {
      return a.has_value() == b.has_value() && (!a || internal::SameContent(*a, *b));
    };
    const GroupMember* differing = nullptr;
    for (const GroupMember& m : plan.members) {
      if (!same(m.priority_class_name, lead.priority_class_name) ||
          !same(m.priority, lead.priority)) {
        differing = &m;
        break;
      }
    }
    if (differing != nullptr) {
      Issue(*differing->owner, JoinPath(differing->spec_path, "priorityClassName"),
            fmt::format("the pods of PodGroup {} differ in priorityClassName/priority (1.37 "
                        "schedules a group only when all its pods have the group's priority); "
                        "the PodGroup gets no priority",
                        plan.name));
    } else {
      if (lead.priority_class_name) spec.Set("priorityClassName", *lead.priority_class_name);
      if (lead.priority) spec.Set("priority", *lead.priority);
    }
  }
  pg.Set("spec", std::move(spec));
  return pg;
}

void Converter::GeneratePodGroups() {
  if (plans_.empty()) return;
  // Workloads (after conversion every one has podGroupTemplates) and PodGroups of the input.
  std::map<std::pair<std::string, std::string>, const ObjectRef*> workloads;
  std::set<std::pair<std::string, std::string>> pod_groups;
  for (const ObjectRef& o : objects_) {
    if (!o.api_version.starts_with("scheduling.k8s.io/")) continue;
    const std::string ns = o.namespace_.empty() ? "default" : o.namespace_;
    if (o.kind == "Workload") workloads.try_emplace({ns, o.name}, &o);
    if (o.kind == "PodGroup") pod_groups.emplace(ns, o.name);
  }
  std::map<std::pair<std::string, std::string>, const GroupPlan*> generated_names;
  for (const GroupPlan& plan : plans_) {
    const auto report_all = [&](std::string_view field, const std::string& reason) {
      for (const GroupMember& m : plan.members) {
        Issue(*m.owner, JoinPath(m.spec_path, field), reason);
      }
    };
    auto wl = workloads.find({plan.namespace_, plan.workload});
    if (wl == workloads.end()) {
      report_all("workloadRef.name",
                 fmt::format("Workload {}/{} is not in the input, so PodGroup {} was not "
                             "generated; the pod points at it",
                             plan.namespace_, plan.workload, plan.name));
      continue;
    }
    const YamlTree* tmpl = nullptr;
    const YamlTree* spec = wl->second->node->Find("spec");
    const YamlTree* templates = spec != nullptr ? spec->Find("podGroupTemplates") : nullptr;
    if (templates != nullptr && templates->IsSeq()) {
      for (const YamlTree& t : templates->children) {
        const YamlTree* n = t.Find("name");
        if (n != nullptr && n->type == internal::YamlType::kScalar && n->text == plan.pod_group) {
          tmpl = &t;
          break;
        }
      }
    }
    if (tmpl == nullptr) {
      report_all("workloadRef.podGroup",
                 fmt::format("Workload {}/{} has no pod group {}, so PodGroup {} was not "
                             "generated; the pod points at it",
                             plan.namespace_, plan.workload, internal::QuoteValue(plan.pod_group),
                             plan.name));
      continue;
    }
    const std::pair<std::string, std::string> id{plan.namespace_, plan.name};
    if (pod_groups.count(id) > 0) {
      report_all("workloadRef",
                 fmt::format("PodGroup {}/{} is already in the input, so it was not generated; "
                             "the pod points at the existing one",
                             plan.namespace_, plan.name));
      continue;
    }
    if (auto other = generated_names.find(id); other != generated_names.end()) {
      const GroupPlan& o = *other->second;
      report_all("workloadRef",
                 fmt::format("the PodGroup name {} is also derived from workload {}, podGroup "
                             "{}, podGroupReplicaKey {}: one PodGroup was generated and the "
                             "two gangs now share it",
                             plan.name, internal::QuoteValue(o.workload),
                             internal::QuoteValue(o.pod_group),
                             internal::QuoteValue(o.replica_key.value_or(""))));
      continue;
    }
    if (!IsDnsSubdomain(plan.name)) {
      const GroupMember& m = plan.members.front();
      Issue(*m.owner, JoinPath(m.spec_path, "workloadRef"),
            fmt::format("the generated PodGroup name {} is not a DNS subdomain (lowercase "
                        "alphanumerics, '-' and '.', at most 253 characters); rename the "
                        "PodGroup and the pods' spec.schedulingGroup.podGroupName",
                        internal::QuoteValue(plan.name)));
    }
    generated_names.emplace(id, &plan);
    generated_after_[wl->second->anchor].push_back(BuildPodGroup(plan, *tmpl));
    ++generated_;
  }
}

void Converter::InsertGenerated(std::vector<YamlTree>& items) {
  for (YamlTree& item : items) {
    const YamlTree* kind = item.Find("kind");
    if (kind == nullptr || !kind->IsString() || kind->text != "List") continue;
    if (YamlTree* nested = item.Find("items"); nested != nullptr && nested->IsSeq()) {
      InsertGenerated(nested->children);
    }
  }
  std::vector<YamlTree> out;
  out.reserve(items.size());
  for (YamlTree& item : items) {
    auto it = generated_after_.find(&item);
    out.push_back(std::move(item));
    if (it != generated_after_.end()) {
      for (YamlTree& g : it->second) out.push_back(std::move(g));
    }
  }
  items = std::move(out);
}

std::string Converter::WriteOutput() {
  // Top level: the documents, each followed by what was generated after it.
  std::vector<YamlTree> top;
  top.reserve(docs_.size());
  {
    // Nested Lists first: their item addresses are the anchors, and stay valid until moved.
    std::vector<YamlTree*> roots;
    for (Document& d : docs_) roots.push_back(&d.root);
    for (YamlTree* root : roots) {
      const YamlTree* kind = root->Find("kind");
      if (kind != nullptr && kind->IsString() && kind->text == "List") {
        if (YamlTree* items = root->Find("items"); items != nullptr && items->IsSeq()) {
          InsertGenerated(items->children);
        }
      }
    }
    for (Document& d : docs_) {
      auto it = generated_after_.find(&d.root);
      top.push_back(std::move(d.root));
      if (it != generated_after_.end()) {
        for (YamlTree& g : it->second) top.push_back(std::move(g));
      }
    }
  }
  if (options_.format == ConvertFormat::kJson) {
    if (top.size() == 1) return internal::WriteJson(top.front());
    YamlTree list = YamlTree::Map();
    list.Set("apiVersion", YamlTree::Plain("v1"));
    list.Set("kind", YamlTree::Plain("List"));
    YamlTree items = YamlTree::Seq();
    items.children = std::move(top);
    list.Set("items", std::move(items));
    return internal::WriteJson(list);
  }
  std::string text;
  for (size_t i = 0; i < top.size(); ++i) {
    if (i > 0) text += "---\n";
    text += internal::WriteYaml(top[i]);
  }
  return text;
}

tl::expected<ConvertResult, InputErrors> Converter::Finish(InputErrors path_errors,
                                                           std::vector<std::string> warnings) {
  for (Document& d : docs_) {
    Collect(d.root, &d.root, true, nullptr, d.source, d.ordinal, "", "", "", 0);
  }
  // Third-party gang schedulers (codec/convert_gang.h): their groups are learned first.
  internal::GangSink sink;
  sink.issue = [&](const internal::GangObject& g, std::string_view rel, std::string reason) {
    Issue(objects_[static_cast<size_t>(g.index)], rel, std::move(reason));
  };
  sink.type_error = [&](const internal::GangObject& g, std::string_view rel, const YamlTree& v,
                        std::string_view expected) {
    TypeError(objects_[static_cast<size_t>(g.index)], rel, v, expected);
  };
  sink.emit_after = [&](const internal::GangObject& g, YamlTree generated) {
    generated_after_[objects_[static_cast<size_t>(g.index)].anchor].push_back(std::move(generated));
  };
  sink.changed = [&](const internal::GangObject& g) {
    changed_.insert(objects_[static_cast<size_t>(g.index)].node);
  };
  internal::GangSchedulerConversion gang(options_.target, std::move(sink));
  std::deque<internal::GangObject> gang_objects;
  for (size_t i = 0; i < objects_.size(); ++i) {
    const ObjectRef& o = objects_[i];
    gang_objects.push_back({o.node, o.api_version, o.kind, o.name, o.namespace_, static_cast<int>(i)});
    gang.Learn(gang_objects.back());
  }

  // Workloads and PodGroups first: pods need the converted templates.
  for (ObjectRef& o : objects_) ConvertObject(o);
  for (ObjectRef& o : objects_) ConvertPodSpecs(o);
  GeneratePodGroups();
  for (internal::GangObject& g : gang_objects) gang.Convert(g);
  gang.Finish();
  generated_ += gang.generated();

  const auto by_ordinal = [](const auto& a, const auto& b) { return a.ordinal < b.ordinal; };
  if (!path_errors.empty() || !errors_.empty()) {
    std::stable_sort(errors_.begin(), errors_.end(), by_ordinal);
    for (auto& e : errors_) path_errors.push_back(std::move(e.value));
    return tl::make_unexpected(std::move(path_errors));
  }
  ConvertResult result;
  std::stable_sort(issues_.begin(), issues_.end(), by_ordinal);
  for (auto& i : issues_) result.issues.push_back(std::move(i.value));
  result.warnings = std::move(warnings);
  result.objects = static_cast<int>(objects_.size()) + generated_;
  result.converted = static_cast<int>(changed_.size());
  result.generated = generated_;
  result.text = WriteOutput();
  return result;
}

}  // namespace

std::string ConvertIssue::ToString() const {
  std::string out;
  if (!source.file.empty()) out += source.file + ": ";
  if (source.document > 0) out += fmt::format("document {}: ", source.document);
  if (!object.empty()) out += object + ": ";
  if (!field.empty()) out += field + ": ";
  return out + "cannot convert: " + reason;
}

bool IsConvertTarget(std::string_view api_version) {
  return api_version == kConvertTargetV1beta1 || api_version == kConvertTargetV1alpha3;
}

tl::expected<ConvertResult, InputErrors> ConvertPaths(const std::vector<std::string>& paths,
                                                      std::istream& stdin_stream,
                                                      const ConvertOptions& options) {
  Converter converter(options);
  InputErrors path_errors;
  std::vector<std::string> warnings;
  internal::ForEachManifestText(
      paths, stdin_stream, &path_errors, &warnings,
      [&](const std::string& file, std::string_view text) { converter.AddText(file, text); });
  return converter.Finish(std::move(path_errors), std::move(warnings));
}

tl::expected<ConvertResult, InputErrors> ConvertString(std::string_view text,
                                                       const std::string& file,
                                                       const ConvertOptions& options) {
  Converter converter(options);
  converter.AddText(file, text);
  return converter.Finish({}, {});
}

}  // namespace wasched::codec
