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
constexpr std::string_view kAppsV1 = "apps/v1";
constexpr std::string_view kJobSetV1alpha2 = "jobset.x-k8s.io/v1alpha2";
constexpr std::string_view kLeaderWorkerSetV1 = "leaderworkerset.x-k8s.io/v1";

// kMaxListNesting: Lists inside Lists are expanded up to this depth.
constexpr int kMaxListNesting = 8;

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
  void LoadText(std::string_view text, const std::string& file);
  // errors / warnings: where path-level problems go, in order with the objects' ones.
  InputErrors* errors() { return &errors_; }
  std::vector<std::string>* warnings() { return &result_.warnings; }
  tl::expected<LoadResult, InputErrors> Finish();

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
  void NoteSkipped(std::string_view api_version, std::string_view kind,
                   const api::SourceRef& source, const std::string& path);

  template <typename T, typename DecodeFn>
  void DecodeInto(const Reader& r, const api::SourceRef& source, std::string_view kind,
                  std::vector<T>* out, DecodeFn&& decode) {
    const ObjectScope scope{diag_->errors().size(), diag_->warnings().size()};
    T object;
    decode(object);
    r.ReportDuplicateKeysBelow();  // in fields the decoder did not walk
    object.meta.source = source;
    std::string label(kind);
    if (!object.meta.name.empty()) label.append(" ").append(api::NamespacedName(object.meta));
    Flush(scope, source, label);
    out->push_back(std::move(object));
  }

  struct Skipped {
    std::string what;   // "apps/v1 Deployment"
    int count = 0;
    std::string first;  // location of the first one
  };

  // Checkpoint: what one text added can be taken back (a JSON List whose items turn out not to
  // be strict JSON is read again as YAML, from the start).
  struct Checkpoint {
    size_t errors = 0;
    size_t warnings = 0;
    std::vector<size_t> objects;  // size of each ObjectSet vector
    std::vector<Skipped> skipped;
    std::unordered_map<std::string, size_t> skipped_index;
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

  LoadResult result_;
  InputErrors errors_;
  Diagnostics* diag_ = nullptr;  // diagnostics of the document being decoded
  std::vector<Skipped> skipped_;
  std::unordered_map<std::string, size_t> skipped_index_;
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
  Checkpoint c{errors_.size(), result_.warnings.size(), {}, skipped_, skipped_index_,
               defaulted_pods_, defaulted_pods_first_, objects_seen_, errors_dropped_, object_limit_error_};
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
  defaulted_pods_ = c.defaulted_pods;
  defaulted_pods_first_ = std::move(c.defaulted_pods_first);
  objects_seen_ = c.objects_seen;
  errors_dropped_ = c.errors_dropped;
  object_limit_error_ = std::move(c.object_limit_error);
}

void Loader::Flush(const ObjectScope& scope, const api::SourceRef& source,
                   const std::string& label) {
  std::vector<FieldError>& errors = diag_->errors();
  for (size_t i = scope.first_error; i < errors.size(); ++i) {
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
                         const api::SourceRef& source, const std::string& path) {
  std::string what = fmt::format("{} {}", api_version, kind);
  auto [it, inserted] = skipped_index_.try_emplace(what, skipped_.size());
  if (inserted) skipped_.push_back(Skipped{what, 0, Location(source, path)});
  ++skipped_[it->second].count;
}

void Loader::DecodeObject(const Reader& r, const api::SourceRef& source,
                          std::string_view default_api_version, std::string_view default_kind,
                          int list_depth) {
  if (abandoned_) return;
  // Past kMaxObjects nothing more is decoded (the rest costs no memory and no error lines).
  if (objects_seen_ > kMaxObjects) return;
  if (r.IsDeferred()) {
    // An item of a JSON List, parsed now (codec/json_events.h), under the item's path.
    std::optional<internal::EventTape> item = internal::ParseJsonValue(r.DeferredText());
    if (!item) {
      abandoned_ = true;
      return;
    }
    const Reader root(*item, item->root(), r.Path(), diag_);
    DecodeObject(root, source, default_api_version, default_kind, list_depth);
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
  // A first look: the decoder's own walk reports unknown fields and repeated keys, labelled
  // with the object's name.
  r.PeekFields([&](std::string_view key, const Reader& f) {
    if (key == "apiVersion") {
      f.Read(&api_version);
    } else if (key == "kind") {
      f.Read(&kind);
    } else if (key == "items") {
      has_items = true;
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
    DecodeInto(r, source, label_kind, &objects.nodes,
               [&](api::Node& n) { internal::DecodeNode(r, &n, &defaulted_pods); });
    if (defaulted_pods && ++defaulted_pods_ == 1) {
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
  } else if (api_version == kResourceV1 && kind == "DeviceClass") {
    DecodeInto(r, source, label_kind, &objects.device_classes,
               [&](api::DeviceClass& o) { internal::DecodeDeviceClass(r, &o); });
  } else if (api_version == kResourceV1 && kind == "ResourceSlice") {
    DecodeInto(r, source, label_kind, &objects.resource_slices,
               [&](api::ResourceSlice& o) { internal::DecodeResourceSlice(r, &o); });
  } else if (api_version == kResourceV1 && kind == "ResourceClaim") {
    DecodeInto(r, source, label_kind, &objects.resource_claims,
               [&](api::ResourceClaim& o) { internal::DecodeResourceClaim(r, &o); });
  } else if (api_version == kResourceV1 && kind == "ResourceClaimTemplate") {
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
    NoteSkipped(api_version, kind, source, r.Path());
  }
  Flush(scope, source, "");
}

void Loader::LoadText(std::string_view text, const std::string& file) {
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
    const api::SourceRef source{file, doc.number};
    if (!doc.error.empty()) {
      AddInputError(
          InputError{source, "", FieldError{FieldErrorType::kInvalid, "", "", doc.error, ""}});
      return;
    }
    if (internal::Classify(doc.tape, doc.tape.root()) == ValueKind::kNull) return;  // empty
    // Budget: a document cannot have more nodes than bytes unless aliases repeat them.
    Diagnostics diag(ExpansionBudget(doc.text_size));
    diag_ = &diag;
    document_bytes_ = doc.text_size;
    const Reader root(doc.tape, doc.tape.root(), "", &diag);
    DecodeObject(root, source, "", "", 0);
    diag_ = nullptr;
  }, options);
}

tl::expected<LoadResult, InputErrors> Loader::Finish() {
  if (defaulted_pods_ > 0) {
    result_.warnings.push_back(fmt::format(
        "assumed kubelet's default maxPods {} for {} node(s) without status.allocatable[pods] "
        "(first: {})",
        internal::kDefaultMaxPods, defaulted_pods_, defaulted_pods_first_));
  }
  for (const Skipped& s : skipped_) {
    if (s.what.starts_with("scheduling.k8s.io/v1alpha1 ") ||
        s.what.starts_with("scheduling.k8s.io/v1alpha2 ")) {
      // Removed versions (spec/was-v1.37.md §1): say how to migrate instead of "unknown".
      result_.warnings.push_back(fmt::format(
          "skipped {} object(s) of {}: this version is not served by Kubernetes 1.37; migrate "
          "with `wasched convert --to scheduling.k8s.io/v1beta1` (first: {})",
          s.count, s.what, s.first));
      continue;
    }
    result_.warnings.push_back(fmt::format("skipped {} object(s) of unknown kind {} (first: {})",
                                           s.count, s.what, s.first));
  }
  if (errors_dropped_ > 0) errors_.push_back(MoreErrors(errors_dropped_));
  if (object_limit_error_) errors_.insert(errors_.begin(), std::move(*object_limit_error_));
  if (!errors_.empty()) return tl::make_unexpected(std::move(errors_));
  AssignGeneratedNames(&result_.objects, &result_.warnings);
  return std::move(result_);
}

}  // namespace

tl::expected<LoadResult, InputErrors> LoadPaths(const std::vector<std::string>& paths,
                                                std::istream& stdin_stream) {
  Loader loader;
  internal::ForEachManifestText(
      paths, stdin_stream, loader.errors(), loader.warnings(),
      [&](const std::string& file, std::string_view text) { loader.LoadText(text, file); });
  return loader.Finish();
}

tl::expected<LoadResult, InputErrors> LoadTextsAndPaths(const std::vector<NamedText>& texts,
                                                        const std::vector<std::string>& paths,
                                                        std::istream& stdin_stream) {
  Loader loader;
  for (const NamedText& t : texts) loader.LoadText(t.text, t.name);
  internal::ForEachManifestText(
      paths, stdin_stream, loader.errors(), loader.warnings(),
      [&](const std::string& file, std::string_view text) { loader.LoadText(text, file); });
  return loader.Finish();
}

tl::expected<LoadResult, InputErrors> LoadString(const std::string& text,
                                                 const std::string& file) {
  Loader loader;
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
