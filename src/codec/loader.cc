// File: codec/loader.cc
//
// LoadPaths / LoadString: paths → texts → documents → objects (see codec/loader.h). This file
// owns the input-level concerns: file and folder reading (through ForEachManifestText, shared
// with convert), `List` expansion, dispatch by
// apiVersion + kind, skipped-kind and defaulting summaries, and turning per-object diagnostics
// into located InputErrors and warnings.
#include "codec/loader.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "codec/api_kinds.h"
#include "codec/decode_apps.h"
#include "codec/decode_batch.h"
#include "codec/decode_core.h"
#include "codec/decode_policy.h"
#include "codec/decode_dra.h"
#include "codec/decode_scheduling.h"
#include "codec/generated_names.h"
#include "codec/decode_jobset.h"
#include "codec/decode_lws.h"
#include "codec/input_limits.h"
#include "codec/json_events.h"
#include "codec/manifest_files.h"
#include "codec/yaml_documents.h"
#include "codec/yaml_reader.h"

namespace wasched::codec {
namespace {

using internal::Diagnostics;
using internal::Reader;
using internal::ValueKind;
using internal::ExpansionBudget;
using internal::kMaxObjectBytes;
using internal::kMaxKeptErrors;
using internal::kMaxObjects;

constexpr std::string_view kCoreV1 = "v1";
constexpr std::string_view kBatchV1 = "batch/v1";
constexpr std::string_view kPolicyV1 = "policy/v1";
constexpr std::string_view kSchedulingV1 = "scheduling.k8s.io/v1";
constexpr std::string_view kSchedulingV1beta1 = "scheduling.k8s.io/v1beta1";
constexpr std::string_view kSchedulingV1alpha3 = "scheduling.k8s.io/v1alpha3";
constexpr std::string_view kResourceV1 = "resource.k8s.io/v1";
// resource.k8s.io/v1beta2 has v1's fields (v1 was introduced as a copy of it); v1.37 serves it
// when enabled, so it is read as v1, with a note.
constexpr std::string_view kResourceV1beta2 = "resource.k8s.io/v1beta2";
constexpr std::string_view kAppsV1 = "apps/v1";
constexpr std::string_view kJobSetV1alpha2 = "jobset.x-k8s.io/v1alpha2";
constexpr std::string_view kLeaderWorkerSetV1 = "leaderworkerset.x-k8s.io/v1";

// kMaxListNesting: Lists inside Lists are expanded up to this depth.
constexpr int kMaxListNesting = 8;

bool IsResourceV1(std::string_view api_version) {
  return api_version == kResourceV1 || api_version == kResourceV1beta2;
}

bool IsDraKind(std::string_view kind) {
  return kind == "DeviceClass" || kind == "ResourceSlice" || kind == "ResourceClaim" ||
         kind == "ResourceClaimTemplate";
}

// Location: "file document N" (+ ", items[3]") for summaries.
std::string Location(const api::SourceRef& source, const std::string& path) {
  std::string out = source.file.empty() ? fmt::format("document {}", source.document)
                                        : fmt::format("{} document {}", source.file,
                                                      source.document);
  if (!path.empty()) out += ", " + path;
  return out;
}

// Loader: accumulates objects, errors and warnings over every text of one load.
class Loader {
 public:
  explicit Loader(const LoadOptions& options) : options_(options) {}
  void LoadText(std::string_view text, const std::string& file);
  // errors / warnings: where path-level problems go, in order with the objects' ones.
  InputErrors* errors() { return &errors_; }
  std::vector<std::string>* warnings() { return &result_.warnings; }
  tl::expected<LoadResult, LoadErrors> Finish();

 private:
  // ObjectScope: marks where one object's diagnostics start, to label them when it is done.
  struct ObjectScope {
    size_t first_error;
    size_t first_warning;
  };

  void DecodeObject(const Reader& r, const api::SourceRef& source,
                    std::string_view default_api_version, std::string_view default_kind,
                    int list_depth);
  // Flush: turns the diagnostics recorded since `scope` into InputErrors / warnings.
  void Flush(const ObjectScope& scope, const api::SourceRef& source, const std::string& label);
  // Skip: an object whose apiVersion + kind is not decoded: a note for kinds that do not affect
  // scheduling, else an error at `apiVersion` / `kind` (codec/api_kinds.h), or with
  // skip_unknown_kinds a warning. `label` names the object ("PodGroup ns/name").
  void Skip(const Reader& r, std::string_view api_version, std::string_view kind,
            const api::SourceRef& source, const std::string& label);
  void NoteSkipped(std::string_view api_version, std::string_view kind,
                   const api::SourceRef& source, const std::string& path, std::string detail);
  // NoteReadAs: a resource.k8s.io/v1beta2 object read as resource.k8s.io/v1 (one note per kind).
  void NoteReadAs(std::string_view api_version, std::string_view kind,
                  const api::SourceRef& source, const std::string& path);

  // MistypedName: a namespaced object whose metadata.name is of another JSON type (`name: y`,
  // a YAML 1.1 boolean): labelled `<Kind> <namespace>/` with the empty name, as the API server's
  // answer names the object it could not decode.
  bool MistypedName(const ObjectScope& scope, const api::ObjectMeta& meta) const {
    if (meta.namespace_.empty()) return false;
    const std::vector<FieldError>& errors = diag_->errors();
    return std::any_of(errors.begin() + static_cast<std::ptrdiff_t>(scope.first_error),
                       errors.end(), [](const FieldError& e) {
                         return e.type == FieldErrorType::kTypeInvalid && e.field == "metadata.name";
                       });
  }

  template <typename T, typename DecodeFn>
  // Returns whether the object was appended to `out` (a failed object is left out under
  // keep_valid_objects).
  bool DecodeInto(const Reader& r, const api::SourceRef& source, std::string_view kind,
                  std::vector<T>* out, DecodeFn&& decode) {
    const ObjectScope scope{diag_->errors().size(), diag_->warnings().size()};
    // Decoded in place (a Pod is 1 KB: building it aside and moving it in cost a second
    // construction and a move per object).
    T& object = out->emplace_back();
    decode(object);
    r.ReportDuplicateKeysBelow();  // in fields the decoder did not walk
    object.meta.source = source;
    const bool failed = diag_->errors().size() > scope.first_error;
    if (failed || diag_->warnings().size() > scope.first_warning) {
      // The label names the object in its messages (most objects have none).
      std::string label(kind);
      if (!object.meta.name.empty() || MistypedName(scope, object.meta)) {
        label.append(" ").append(api::NamespacedName(object.meta));
      }
      Flush(scope, source, label);
    }
    if (failed && options_.keep_valid_objects) {
      out->pop_back();
      return false;  // its errors are the report
    }
    return true;
  }

  // ReserveForItems: room for `items` more Pods (a cluster dump is mostly Pods): a vector of
  // 1 KB Pods grown by doubling held the old and the new buffer at once and moved every Pod.
  // Reserved room that stays unused is address space only (its pages are never touched). At
  // most one Pod per kMinPodBytes of text: a List of tiny items (`{}`) grows as before.
  void ReserveForItems(size_t items) {
    static constexpr size_t kMinPodBytes = 256;  // kubectl writes a Pod in several KB
    std::vector<api::Pod>& pods = result_.objects.pods;
    items = std::min(items, text_.size() / kMinPodBytes);
    if (items > 1 && pods.capacity() - pods.size() < items) {
      pods.reserve(pods.size() + items);
      // Filled by the items now: a page fault per 2 MiB rather than per 4 KiB (a tenth of a
      // 1× dump's load was page faults).
      internal::AdviseHugePages(pods.data() + pods.size(), (pods.capacity() - pods.size()) * sizeof(api::Pod));
    }
  }

  struct Skipped {
    std::string what;   // "apps/v1 Deployment"
    int count = 0;
    std::string first;  // location of the first one
    std::string detail;  // why it was skipped (codec/api_kinds.h)
  };

  // Checkpoint: what one text added can be taken back (a JSON List whose items turn out not to
  // be strict JSON is read again as YAML, from the start).
  struct Checkpoint {
    size_t errors = 0;
    size_t warnings = 0;
    std::vector<size_t> objects;  // size of each ObjectSet vector
    std::vector<Skipped> skipped;
    std::unordered_map<std::string, size_t> skipped_index;
    std::vector<Skipped> read_as;
    std::unordered_map<std::string, size_t> read_as_index;
    int64_t skipped_objects = 0;
    int defaulted_pods = 0;
    std::string defaulted_pods_first;
    int64_t objects_seen = 0;
    int64_t errors_dropped = 0;
    std::optional<InputError> object_limit_error;
  };
  [[nodiscard]] Checkpoint Save() const;
  void Restore(Checkpoint checkpoint);
  void LoadDocuments(std::string_view text, const std::string& file,
                     const internal::DocumentOptions& options);

  LoadOptions options_;
  std::unordered_map<std::string, internal::SkippedKind> verdicts_;  // by "apiVersion kind"
  LoadResult result_;
  InputErrors errors_;
  Diagnostics* diag_ = nullptr;  // diagnostics of the document being decoded
  std::vector<Skipped> skipped_;
  std::unordered_map<std::string, size_t> skipped_index_;
  std::vector<Skipped> read_as_;  // resource.k8s.io/v1beta2 objects read as v1
  std::unordered_map<std::string, size_t> read_as_index_;
  int defaulted_pods_ = 0;
  std::string defaulted_pods_first_;
  size_t document_bytes_ = 0;  // text size of the document being decoded
  int64_t objects_seen_ = 0;   // objects and List items of this load, for kMaxObjects
  int64_t errors_dropped_ = 0;  // errors beyond kMaxKeptErrors (counted, not kept)
  std::optional<InputError> object_limit_error_;  // "more than kMaxObjects objects"
  // AddInputError: keeps the first kMaxKeptErrors errors of the load, counts the rest (issue 20
  // item 24: 10 million error lines of a List of `{}` items took 4.6 GB).
  void AddInputError(InputError e) {
    if (errors_.size() < static_cast<size_t>(kMaxKeptErrors)) {
      errors_.push_back(std::move(e));
    } else {
      ++errors_dropped_;
    }
  }
  bool abandoned_ = false;     // a deferred JSON List item was not strict JSON: stop decoding
  // The text being loaded, and how much of it was handed to ReleaseConsumedText.
  std::string_view text_;
  size_t released_ = 0;
  static constexpr size_t kReleaseStep = size_t{8} << 20;
  internal::EventTape spare_tape_;  // the last List item's tape, recycled for the next one
};

// ForEachObjectVector: `fn(std::vector<T>&)` for every vector of an ObjectSet, in a fixed order.
template <typename Fn>
void ForEachObjectVector(api::ObjectSet& s, Fn&& fn) {
  fn(s.nodes);
  fn(s.pods);
  fn(s.priority_classes);
  fn(s.workloads);
  fn(s.pod_groups);
  fn(s.composite_pod_groups);
  fn(s.jobs);
  fn(s.pod_disruption_budgets);
  fn(s.device_classes);
  fn(s.resource_slices);
  fn(s.resource_claims);
  fn(s.resource_claim_templates);
  fn(s.deployments);
  fn(s.replica_sets);
  fn(s.stateful_sets);
  fn(s.job_sets);
  fn(s.leader_worker_sets);
}
static_assert(sizeof(api::ObjectSet) == 17 * sizeof(std::vector<int>),
              "ForEachObjectVector must list every vector of api::ObjectSet");

Loader::Checkpoint Loader::Save() const {
  Checkpoint c{errors_.size(),       result_.warnings.size(), {},
               skipped_,            skipped_index_,          read_as_,
               read_as_index_,      result_.skipped,         defaulted_pods_,
               defaulted_pods_first_, objects_seen_,         errors_dropped_,
               object_limit_error_};
  ForEachObjectVector(const_cast<api::ObjectSet&>(result_.objects),
                      [&](auto& v) { c.objects.push_back(v.size()); });
  return c;
}

void Loader::Restore(Checkpoint c) {
  errors_.resize(c.errors);
  result_.warnings.resize(c.warnings);
  size_t i = 0;
  ForEachObjectVector(result_.objects, [&](auto& v) { v.resize(c.objects[i++]); });
  skipped_ = std::move(c.skipped);
  skipped_index_ = std::move(c.skipped_index);
  read_as_ = std::move(c.read_as);
  read_as_index_ = std::move(c.read_as_index);
  result_.skipped = c.skipped_objects;
  defaulted_pods_ = c.defaulted_pods;
  defaulted_pods_first_ = std::move(c.defaulted_pods_first);
  objects_seen_ = c.objects_seen;
  errors_dropped_ = c.errors_dropped;
  object_limit_error_ = std::move(c.object_limit_error);
}

void Loader::Flush(const ObjectScope& scope, const api::SourceRef& source,
                   const std::string& label) {
  std::vector<FieldError>& errors = diag_->errors();
  // Strict field validation fails the API server's decoding before any other check of the
  // object, so an object with an unknown field reports only what strict decoding reports:
  // unknown and repeated fields (observed on v1.37.2: the mis-indented DeviceClass gets
  // `unknown field "spec.selectors[0].expression"` alone).
  const auto strict = [](const FieldError& e) {
    return e.type == FieldErrorType::kUnknownField || e.type == FieldErrorType::kDuplicate;
  };
  const bool unknown = std::any_of(errors.begin() + static_cast<std::ptrdiff_t>(scope.first_error),
                                   errors.end(), [](const FieldError& e) {
                                     return e.type == FieldErrorType::kUnknownField;
                                   });
  for (size_t i = scope.first_error; i < errors.size(); ++i) {
    if (unknown && !strict(errors[i])) continue;
    AddInputError(InputError{source, label, std::move(errors[i])});
  }
  errors.resize(scope.first_error);
  std::vector<std::string>& warnings = diag_->warnings();
  for (size_t i = scope.first_warning; i < warnings.size(); ++i) {
    std::string text;
    if (!source.file.empty()) text += source.file + ": ";
    text += fmt::format("document {}: ", source.document);
    if (!label.empty()) text += label + ": ";
    text += warnings[i];
    result_.warnings.push_back(std::move(text));
  }
  warnings.resize(scope.first_warning);
}

void Loader::NoteSkipped(std::string_view api_version, std::string_view kind,
                         const api::SourceRef& source, const std::string& path,
                         std::string detail) {
  std::string what = fmt::format("{} {}", api_version, kind);
  auto [it, inserted] = skipped_index_.try_emplace(what, skipped_.size());
  if (inserted) skipped_.push_back(Skipped{what, 0, Location(source, path), std::move(detail)});
  ++skipped_[it->second].count;
  ++result_.skipped;
}

void Loader::NoteReadAs(std::string_view api_version, std::string_view kind,
                        const api::SourceRef& source, const std::string& path) {
  std::string what = fmt::format("{} {}", api_version, kind);
  auto [it, inserted] = read_as_index_.try_emplace(what, read_as_.size());
  if (inserted) read_as_.push_back(Skipped{what, 0, Location(source, path), ""});
  ++read_as_[it->second].count;
}

void Loader::Skip(const Reader& r, std::string_view api_version, std::string_view kind,
                  const api::SourceRef& source, const std::string& label) {
  // One classification per apiVersion + kind (a List may hold a million of them).
  const std::string key = fmt::format("{} {}", api_version, kind);
  auto cached = verdicts_.find(key);
  if (cached == verdicts_.end()) {
    cached = verdicts_.emplace(key, internal::ClassifySkippedKind(api_version, kind)).first;
  }
  internal::SkippedKind verdict = cached->second;
  if (verdict.verdict == internal::SkippedKind::Verdict::kNote || options_.skip_unknown_kinds) {
    NoteSkipped(api_version, kind, source, r.Path(), std::move(verdict.detail));
    return;
  }
  const std::string bad = verdict.field == "kind" ? std::string(kind) : std::string(api_version);
  verdict.detail += " (--skip-unknown-kinds skips such objects)";
  AddInputError(InputError{source, label,
                           FieldError{FieldErrorType::kNotSupported, r.ChildPath(verdict.field),
                                      internal::QuoteValue(bad), std::move(verdict.detail), ""}});
}

void Loader::DecodeObject(const Reader& r, const api::SourceRef& source,
                          std::string_view default_api_version, std::string_view default_kind,
                          int list_depth) {
  if (abandoned_) return;
  // Past kMaxObjects nothing more is decoded (the rest costs no memory and no error lines).
  if (objects_seen_ > kMaxObjects) return;
  if (r.IsDeferred()) {
    // An item of a JSON List, parsed now (codec/json_events.h), under the item's path.
    const std::string_view item_text = r.DeferredText();
    std::optional<internal::EventTape> item =
        internal::ParseJsonValue(item_text, std::move(spare_tape_));
    if (!item) {
      abandoned_ = true;
      return;
    }
    {
      const Reader root(*item, item->root(), r.Path(), diag_);
      DecodeObject(root, source, default_api_version, default_kind, list_depth);
    }
    spare_tape_ = std::move(*item);  // its buffers serve the next item
    // The items are decoded in text order: the text before this one is not needed any more
    // (a mapped file's pages are dropped, a few MB at a time).
    const size_t consumed = static_cast<size_t>(item_text.data() - text_.data()) + item_text.size();
    if (consumed <= text_.size() && consumed - released_ >= kReleaseStep) {
      internal::ReleaseConsumedText(text_, consumed);
      released_ = consumed;
    }
    return;
  }
  const ObjectScope scope{diag_->errors().size(), diag_->warnings().size()};
  // Input limits (codec/input_limits.h): every document and every List item counts toward
  // kMaxObjects, whatever it holds (an empty `{}` or a malformed item too; issue 20 item 24),
  // reported once at its path; a List document itself does not count.
  if (++objects_seen_ > kMaxObjects) {
    // Kept apart, and reported first: the errors before it may have filled kMaxKeptErrors.
    object_limit_error_ = InputError{
        source, "",
        FieldError{FieldErrorType::kTooMany, r.Path(), "",
                   fmt::format("more than {} objects in the input (see README \"Input limits\")",
                               kMaxObjects),
                   ""}};
    Flush(scope, source, "");
    return;
  }
  if (!r.ExpectKind(ValueKind::kMap)) {
    Flush(scope, source, "");
    return;
  }
  // apiVersion and kind, with type checks reported at their paths.
  std::string api_version(default_api_version);
  std::string kind(default_kind);
  bool has_items = false;
  std::string_view name;  // metadata.name and namespace, for the label of a skipped object
  std::string_view ns;
  // A first look: the decoder's own walk reports unknown fields and repeated keys, labelled
  // with the object's name.
  r.PeekFields([&](std::string_view key, const Reader& f) {
    if (key == "apiVersion") {
      f.Read(&api_version);
    } else if (key == "kind") {
      f.Read(&kind);
    } else if (key == "items") {
      has_items = true;
    } else if (key == "metadata") {
      f.PeekFields([&](std::string_view mkey, const Reader& m) {
        if (m.Kind() != ValueKind::kString) return;
        if (mkey == "name") name = m.Scalar();
        if (mkey == "namespace") ns = m.Scalar();
      });
    }
  });
  if (diag_->errors().size() > scope.first_error) {
    Flush(scope, source, "");
    return;
  }
  if (kind.empty() || api_version.empty()) {
    if (api_version.empty()) {
      diag_->AddError(FieldError{FieldErrorType::kRequired, r.ChildPath("apiVersion"), "",
                                 "every object needs apiVersion and kind", ""});
    }
    if (kind.empty()) {
      diag_->AddError(FieldError{FieldErrorType::kRequired, r.ChildPath("kind"), "",
                                 "every object needs apiVersion and kind", ""});
    }
    Flush(scope, source, "");
    return;
  }

  // Lists: kind List (items may be absent), or any *List with items (NodeList, PodList, …).
  if (kind == "List" || (kind.ends_with("List") && has_items)) {
    if (list_depth >= kMaxListNesting) {
      r.Error(FieldErrorType::kInvalid, "", "Lists nested too deeply");
      Flush(scope, source, "");
      return;
    }
    --objects_seen_;  // a List is a container: its items count, not itself
    // A typed list's items may omit apiVersion/kind (API server responses do).
    const std::string item_kind = kind == "List" ? "" : kind.substr(0, kind.size() - 4);
    const std::string item_api_version = kind == "List" ? "" : api_version;
    r.ForEachField([&](std::string_view key, const Reader& f) {
      if (key != "items") return true;  // a List's own apiVersion/kind/metadata
      ReserveForItems(f.Size());
      f.ForEachItem([&](size_t, const Reader& item) {
        DecodeObject(item, source, item_api_version, item_kind, list_depth + 1);
      });
      return true;
    });
    Flush(scope, source, "");
    return;
  }

  if (list_depth == 0 && document_bytes_ > kMaxObjectBytes) {
    r.Error(FieldErrorType::kTooLong, "",
            fmt::format("object document is {} bytes, more than the limit of {} bytes (see README "
                        "\"Input limits\")",
                        document_bytes_, kMaxObjectBytes));
    Flush(scope, source, "");
    return;
  }

  api::ObjectSet& objects = result_.objects;
  const std::string label_kind = kind;
  if (api_version == kCoreV1 && kind == "Node") {
    bool defaulted_pods = false;
    const bool kept = DecodeInto(r, source, label_kind, &objects.nodes, [&](api::Node& n) {
      internal::DecodeNode(r, &n, &defaulted_pods);
    });
    // A Node left out for its errors has no name to report (and no `back()`).
    if (kept && defaulted_pods && ++defaulted_pods_ == 1) {
      defaulted_pods_first_ =
          Location(source, r.Path()) + ", Node " + api::NamespacedName(objects.nodes.back().meta);
    }
  } else if (api_version == kCoreV1 && kind == "Pod") {
    DecodeInto(r, source, label_kind, &objects.pods,
               [&](api::Pod& p) { internal::DecodePod(r, &p); });
  } else if (api_version == kSchedulingV1 && kind == "PriorityClass") {
    DecodeInto(r, source, label_kind, &objects.priority_classes,
               [&](api::PriorityClass& pc) { internal::DecodePriorityClass(r, &pc); });
  } else if ((api_version == kSchedulingV1beta1 || api_version == kSchedulingV1alpha3) &&
             kind == "Workload") {
    DecodeInto(r, source, label_kind, &objects.workloads, [&](api::Workload& w) {
      internal::DecodeWorkload(r, &w);
      w.api_version = api_version;
    });
  } else if ((api_version == kSchedulingV1beta1 || api_version == kSchedulingV1alpha3) &&
             kind == "PodGroup") {
    DecodeInto(r, source, label_kind, &objects.pod_groups, [&](api::PodGroup& g) {
      internal::DecodePodGroup(r, &g);
      g.api_version = api_version;
    });
  } else if (api_version == kSchedulingV1alpha3 && kind == "CompositePodGroup") {
    DecodeInto(r, source, label_kind, &objects.composite_pod_groups,
               [&](api::CompositePodGroup& g) {
                 internal::DecodeCompositePodGroup(r, &g);
                 g.api_version = api_version;
               });
  } else if (IsResourceV1(api_version) && kind == "DeviceClass") {
    DecodeInto(r, source, label_kind, &objects.device_classes,
               [&](api::DeviceClass& o) { internal::DecodeDeviceClass(r, &o); });
  } else if (IsResourceV1(api_version) && kind == "ResourceSlice") {
    DecodeInto(r, source, label_kind, &objects.resource_slices,
               [&](api::ResourceSlice& o) { internal::DecodeResourceSlice(r, &o); });
  } else if (IsResourceV1(api_version) && kind == "ResourceClaim") {
    DecodeInto(r, source, label_kind, &objects.resource_claims,
               [&](api::ResourceClaim& o) { internal::DecodeResourceClaim(r, &o); });
  } else if (IsResourceV1(api_version) && kind == "ResourceClaimTemplate") {
    DecodeInto(r, source, label_kind, &objects.resource_claim_templates,
               [&](api::ResourceClaimTemplate& o) { internal::DecodeResourceClaimTemplate(r, &o); });
  } else if (api_version == kBatchV1 && kind == "Job") {
    DecodeInto(r, source, label_kind, &objects.jobs, [&](api::Job& j) {
      internal::DecodeJob(r, &j);
      j.api_version = api_version;
    });
  } else if (api_version == kAppsV1 && kind == "Deployment") {
    DecodeInto(r, source, label_kind, &objects.deployments,
               [&](api::Deployment& o) { internal::DecodeDeployment(r, &o); });
  } else if (api_version == kAppsV1 && kind == "ReplicaSet") {
    DecodeInto(r, source, label_kind, &objects.replica_sets,
               [&](api::ReplicaSet& o) { internal::DecodeReplicaSet(r, &o); });
  } else if (api_version == kAppsV1 && kind == "StatefulSet") {
    DecodeInto(r, source, label_kind, &objects.stateful_sets,
               [&](api::StatefulSet& o) { internal::DecodeStatefulSet(r, &o); });
  } else if (api_version == kJobSetV1alpha2 && kind == "JobSet") {
    DecodeInto(r, source, label_kind, &objects.job_sets, [&](api::JobSet& o) {
      internal::DecodeJobSet(r, &o);
      o.api_version = api_version;
    });
  } else if (api_version == kLeaderWorkerSetV1 && kind == "LeaderWorkerSet") {
    DecodeInto(r, source, label_kind, &objects.leader_worker_sets, [&](api::LeaderWorkerSet& o) {
      internal::DecodeLeaderWorkerSet(r, &o);
      o.api_version = api_version;
    });
  } else if (api_version == kPolicyV1 && kind == "PodDisruptionBudget") {
    DecodeInto(r, source, label_kind, &objects.pod_disruption_budgets,
               [&](api::PodDisruptionBudget& b) { internal::DecodePodDisruptionBudget(r, &b); });
  } else {
    std::string label = kind;
    if (!name.empty()) {
      label.append(" ");
      if (!ns.empty()) label.append(ns).append("/");
      label.append(name);
    }
    Skip(r, api_version, kind, source, label);
  }
  if (api_version == kResourceV1beta2 && IsDraKind(kind)) {
    NoteReadAs(api_version, kind, source, r.Path());
  }
  Flush(scope, source, "");
}

void Loader::LoadText(std::string_view text, const std::string& file) {
  text_ = text;
  released_ = 0;
  Checkpoint checkpoint = Save();
  LoadDocuments(text, file, internal::DocumentOptions{.defer_json_list_items = true});
  if (!abandoned_) return;
  // An item of a JSON List was not strict JSON: the whole text is read again as YAML (which
  // gives a malformed document its YAML error and position, or reads YAML flow style).
  abandoned_ = false;
  Restore(std::move(checkpoint));
  LoadDocuments(text, file, internal::DocumentOptions{.yaml_only = true});
}

void Loader::LoadDocuments(std::string_view text, const std::string& file,
                           const internal::DocumentOptions& options) {
  internal::ForEachDocument(text, [&](internal::ParsedDocument& doc) {
    // A YAML stream of many documents (one per object, as a dump) is mostly Pods: room for
    // them at once, as for a JSON List's items.
    if (doc.number == 1 && doc.stream_pieces > 1) ReserveForItems(doc.stream_pieces);
    const api::SourceRef source{file, doc.number};
    if (!doc.error.empty()) {
      AddInputError(
          InputError{source, "", FieldError{FieldErrorType::kInvalid, "", "", doc.error, ""}});
      return;
    }
    if (internal::Classify(doc.tape, doc.tape.root()) == ValueKind::kNull) return;  // empty
    // Budget: a document cannot have more nodes than bytes unless aliases repeat them.
    Diagnostics diag(ExpansionBudget(doc.text_size), options_.field_validation);
    diag_ = &diag;
    document_bytes_ = doc.text_size;
    const Reader root(doc.tape, doc.tape.root(), "", &diag);
    DecodeObject(root, source, "", "", 0);
    diag_ = nullptr;
    // Documents are decoded in text order: the text before this one's end is not needed any
    // more (a mapped file's pages are dropped, a few MB at a time; as for a JSON List).
    if (!doc.piece.empty() && doc.piece.data() >= text_.data()) {
      const auto consumed =
          static_cast<size_t>(doc.piece.data() - text_.data()) + doc.piece.size();
      if (consumed <= text_.size() && consumed > released_ &&
          consumed - released_ >= kReleaseStep) {
        internal::ReleaseConsumedText(text_, consumed);
        released_ = consumed;
      }
    }
  }, options);
}

tl::expected<LoadResult, LoadErrors> Loader::Finish() {
  if (defaulted_pods_ > 0) {
    result_.warnings.push_back(fmt::format(
        "assumed kubelet's default maxPods {} for {} node(s) without status.allocatable[pods] "
        "(first: {})",
        internal::kDefaultMaxPods, defaulted_pods_, defaulted_pods_first_));
  }
  for (const Skipped& s : read_as_) {
    result_.warnings.push_back(fmt::format(
        "read {} object(s) of {} as resource.k8s.io/v1 (the same fields; v1.37 serves v1beta2 "
        "only when enabled) (first: {})",
        s.count, s.what, s.first));
  }
  for (const Skipped& s : skipped_) {
    result_.warnings.push_back(fmt::format("skipped {} object(s) of {}: {} (first: {})", s.count,
                                           s.what, s.detail, s.first));
  }
  if (errors_dropped_ > 0) errors_.push_back(MoreErrors(errors_dropped_));
  const bool over_limit = object_limit_error_.has_value();
  if (object_limit_error_) errors_.insert(errors_.begin(), std::move(*object_limit_error_));
  // Past the object limit the input is refused whole, in every mode.
  if (!errors_.empty() && options_.keep_valid_objects && !over_limit) {
    result_.object_errors = std::move(errors_);
  } else if (!errors_.empty()) {
    LoadErrors failure(std::move(errors_));
    failure.warnings = std::move(result_.warnings);
    return tl::make_unexpected(std::move(failure));
  }
  AssignGeneratedNames(&result_.objects, &result_.warnings);
  return std::move(result_);
}

}  // namespace

tl::expected<LoadResult, LoadErrors> LoadPaths(const std::vector<std::string>& paths,
                                               std::istream& stdin_stream,
                                               const LoadOptions& options) {
  Loader loader(options);
  internal::ForEachManifestText(
      paths, stdin_stream, loader.errors(), loader.warnings(),
      [&](const std::string& file, std::string_view text) { loader.LoadText(text, file); });
  return loader.Finish();
}

tl::expected<LoadResult, LoadErrors> LoadTextsAndPaths(const std::vector<NamedText>& texts,
                                                       const std::vector<std::string>& paths,
                                                       std::istream& stdin_stream,
                                                       const LoadOptions& options) {
  Loader loader(options);
  for (const NamedText& t : texts) loader.LoadText(t.text, t.name);
  internal::ForEachManifestText(
      paths, stdin_stream, loader.errors(), loader.warnings(),
      [&](const std::string& file, std::string_view text) { loader.LoadText(text, file); });
  return loader.Finish();
}

tl::expected<LoadResult, LoadErrors> LoadString(const std::string& text, const std::string& file,
                                                const LoadOptions& options) {
  Loader loader(options);
  loader.LoadText(text, file);
  return loader.Finish();
}

InputError MoreErrors(int64_t count) {
  return InputError{{}, "",
                    FieldError{FieldErrorType::kTooMany, "", "",
                               fmt::format("{} more error(s) not shown (only the first {} are "
                                           "kept; see README \"Input limits\")",
                                           count, kMaxKeptErrors),
                               ""}};
}

}  // namespace wasched::codec
