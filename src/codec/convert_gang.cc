// File: codec/convert_gang.cc
//
// Conversion from scheduler-plugins coscheduling, Volcano and Kueue pod groups (see
// convert_gang.h). Sources: kubernetes-sigs/scheduler-plugins apis/scheduling/v1alpha1
// (PodGroupSpec {minMember, minResources, scheduleTimeoutSeconds}, label
// scheduling.x-k8s.io/pod-group); volcano-sh/apis pkg/apis/scheduling/v1beta1 (PodGroupSpec
// {minMember, minTaskMember, queue, priorityClassName, minResources, networkTopology}),
// pkg/apis/batch/v1alpha1 (JobSpec, TaskSpec); volcano-sh/volcano
// pkg/webhooks/admission/jobs/mutate (task minAvailable defaults to replicas, job minAvailable
// to their sum), pkg/controllers/job (pod names `<job>-<task>-<index>`, createJobPod's labels),
// pkg/scheduler/api/job_info.go (CheckTaskValid); kubernetes-sigs/kueue plain pod groups
// (labels kueue.x-k8s.io/pod-group-name, kueue.x-k8s.io/queue-name, annotation
// kueue.x-k8s.io/pod-group-total-count, TAS kueue.x-k8s.io/podset-required-topology).
#include "codec/convert_gang.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <optional>

#include "codec/yaml_reader.h"

namespace wasched::codec::internal {
namespace {

constexpr std::string_view kCoschedulingApiVersion = "scheduling.x-k8s.io/v1alpha1";
constexpr std::string_view kCoschedulingLabel = "scheduling.x-k8s.io/pod-group";
constexpr std::string_view kVolcanoPodGroupApiVersion = "scheduling.volcano.sh/v1beta1";
constexpr std::string_view kVolcanoJobApiVersion = "batch.volcano.sh/v1alpha1";
constexpr std::string_view kVolcanoGroupAnnotation = "scheduling.k8s.io/group-name";
constexpr std::string_view kKueueGroupLabel = "kueue.x-k8s.io/pod-group-name";
constexpr std::string_view kKueueTotalCount = "kueue.x-k8s.io/pod-group-total-count";
constexpr std::string_view kKueueRequiredTopology = "kueue.x-k8s.io/podset-required-topology";
constexpr std::string_view kCompositeApiVersion = "scheduling.k8s.io/v1alpha3";

std::string JoinPath(std::string_view base, std::string_view field) {
  if (base.empty()) return std::string(field);
  if (field.empty()) return std::string(base);
  return fmt::format("{}.{}", base, field);
}

bool IsNull(const YamlTree* t) { return t == nullptr || t->Kind() == ValueKind::kNull; }

std::string Ns(const std::string& ns) { return ns.empty() ? "default" : ns; }

std::optional<std::string> StringAt(const YamlTree* map, std::string_view key) {
  if (map == nullptr || !map->IsMap()) return std::nullopt;
  const YamlTree* v = map->Find(key);
  if (IsNull(v) || v->type != YamlType::kScalar) return std::nullopt;
  return v->text;
}

// PodTemplate: where one pod's metadata and spec sit in an object.
struct PodTemplate {
  YamlTree* meta;  // may be null (no metadata)
  YamlTree* spec;
  std::string rel;  // of the spec
  std::string meta_rel;
};

YamlTree* Walk(YamlTree* at, std::initializer_list<std::string_view> path) {
  for (std::string_view s : path) at = at != nullptr && at->IsMap() ? at->Find(s) : nullptr;
  return at;
}

void AddTemplate(std::vector<PodTemplate>* out, YamlTree* holder, const std::string& rel) {
  if (holder == nullptr || !holder->IsMap()) return;
  YamlTree* spec = holder->Find("spec");
  if (spec == nullptr || !spec->IsMap()) return;
  out->push_back({holder->Find("metadata"), spec, JoinPath(rel, "spec"), JoinPath(rel, "metadata")});
}

// PodTemplates: the pods and pod templates of an object (the kinds convert.cc rewrites plus
// LeaderWorkerSet).
std::vector<PodTemplate> PodTemplates(const GangObject& o) {
  std::vector<PodTemplate> out;
  YamlTree* n = o.node;
  const std::string_view av = o.api_version;
  const bool core = av == "v1";
  const bool apps = av.starts_with("apps/");
  const bool batch = av.starts_with("batch/") && av != kVolcanoJobApiVersion;
  if (core && o.kind == "Pod") {
    AddTemplate(&out, n, "");
  } else if (core && o.kind == "PodTemplate") {
    AddTemplate(&out, n->Find("template"), "template");
  } else if ((core && o.kind == "ReplicationController") ||
             (apps && (o.kind == "Deployment" || o.kind == "StatefulSet" ||
                       o.kind == "DaemonSet" || o.kind == "ReplicaSet")) ||
             (batch && o.kind == "Job")) {
    AddTemplate(&out, Walk(n, {"spec", "template"}), "spec.template");
  } else if (batch && o.kind == "CronJob") {
    AddTemplate(&out, Walk(n, {"spec", "jobTemplate", "spec", "template"}),
                "spec.jobTemplate.spec.template");
  } else if (av.starts_with("jobset.x-k8s.io/") && o.kind == "JobSet") {
    YamlTree* jobs = Walk(n, {"spec", "replicatedJobs"});
    if (jobs != nullptr && jobs->IsSeq()) {
      for (size_t i = 0; i < jobs->children.size(); ++i) {
        AddTemplate(&out, Walk(&jobs->children[i], {"template", "spec", "template"}),
                    fmt::format("spec.replicatedJobs[{}].template.spec.template", i));
      }
    }
  } else if (av.starts_with("leaderworkerset.x-k8s.io/") && o.kind == "LeaderWorkerSet") {
    for (std::string_view t : {"leaderTemplate", "workerTemplate"}) {
      AddTemplate(&out, Walk(n, {"spec", "leaderWorkerTemplate", t}),
                  fmt::format("spec.leaderWorkerTemplate.{}", t));
    }
  }
  return out;
}

YamlTree GangPolicy(int64_t min_count) {
  YamlTree policy = YamlTree::Map();
  if (min_count >= 1) {
    YamlTree gang = YamlTree::Map();
    gang.Set("minCount", YamlTree::Plain(std::to_string(min_count)));
    policy.Set("gang", std::move(gang));
  } else {
    policy.Set("basic", YamlTree::Map());
  }
  return policy;
}

YamlTree SchedulingGroup(const std::string& name) {
  YamlTree g = YamlTree::Map();
  g.Set("podGroupName", YamlTree::String(name));
  return g;
}

}  // namespace

std::optional<int64_t> GangSchedulerConversion::ReadInt(const GangObject& o, std::string_view rel,
                                                       const YamlTree& map, std::string_view key) {
  const YamlTree* v = map.Find(key);
  if (IsNull(v)) return std::nullopt;
  int64_t out = 0;
  const std::string& t = v->text;
  if (v->Kind() != ValueKind::kInteger ||
      std::from_chars(t.data(), t.data() + t.size(), out).ec != std::errc()) {
    sink_.type_error(o, JoinPath(rel, key), *v, "integer");
    return std::nullopt;
  }
  return out;
}

void GangSchedulerConversion::ReportOthers(const GangObject& o, std::string_view rel,
                                           const YamlTree& map,
                                           std::initializer_list<std::string_view> handled,
                                           std::string_view what) {
  if (!map.IsMap()) return;
  for (size_t i = 0; i < map.MapSize(); ++i) {
    const std::string_view key = map.KeyText(i);
    if (std::find(handled.begin(), handled.end(), key) != handled.end()) continue;
    if (IsNull(&map.Value(i))) continue;
    sink_.issue(o, JoinPath(rel, key),
                fmt::format("{} has no native equivalent in the v1.37 Workload API; dropped", what));
  }
}

YamlTree GangSchedulerConversion::GroupHeader(const std::string& kind,
                                              const std::string& api_version,
                                              const std::string& name, const std::string& ns,
                                              const YamlTree* labels) {
  YamlTree t = YamlTree::Map();
  t.Set("apiVersion", YamlTree::Plain(api_version));
  t.Set("kind", YamlTree::Plain(kind));
  YamlTree meta = YamlTree::Map();
  meta.Set("name", YamlTree::String(name));
  if (!ns.empty()) meta.Set("namespace", YamlTree::String(ns));
  if (labels != nullptr && !IsNull(labels)) meta.Set("labels", *labels);
  t.Set("metadata", std::move(meta));
  return t;
}

void GangSchedulerConversion::Learn(const GangObject& o) {
  if (o.kind == "PodGroup" && o.api_version == kCoschedulingApiVersion) {
    coscheduling_groups_.emplace(Ns(o.namespace_), o.name);
  } else if (o.kind == "PodGroup" && o.api_version == kVolcanoPodGroupApiVersion) {
    volcano_groups_.emplace(Ns(o.namespace_), o.name);
  }
}

void GangSchedulerConversion::Convert(GangObject& o) {
  if (o.kind == "PodGroup" && o.api_version == kCoschedulingApiVersion) {
    ConvertCoschedulingPodGroup(o);
  } else if (o.kind == "PodGroup" && o.api_version == kVolcanoPodGroupApiVersion) {
    ConvertVolcanoPodGroup(o);
  } else if (o.kind == "Job" && o.api_version == kVolcanoJobApiVersion) {
    ConvertVolcanoJob(o);
  } else {
    for (PodTemplate& t : PodTemplates(o)) ConvertPodMembership(o, t.meta, t.spec, t.rel);
  }
}

void GangSchedulerConversion::ConvertCoschedulingPodGroup(GangObject& o) {
  YamlTree& obj = *o.node;
  YamlTree* spec = obj.Find("spec");
  std::optional<int64_t> min_member;
  if (spec != nullptr && spec->IsMap()) {
    min_member = ReadInt(o, "spec", *spec, "minMember");
    ReportOthers(o, "spec", *spec, {"minMember"}, "scheduler-plugins coscheduling");
  }
  if (const YamlTree* status = obj.Find("status"); !IsNull(status)) {
    sink_.issue(o, "status", "the coscheduling status is the old scheduler's; dropped");
  }
  if (!min_member || *min_member < 1) {
    sink_.issue(o, "spec.minMember",
                "minMember below 1 (or absent) makes no gang: the PodGroup gets schedulingPolicy "
                "basic");
  }
  YamlTree out = GroupHeader("PodGroup", target_, o.name, o.namespace_, nullptr);
  if (YamlTree* meta = obj.Find("metadata"); meta != nullptr && meta->IsMap()) out.Set("metadata", *meta);
  YamlTree new_spec = YamlTree::Map();
  new_spec.Set("schedulingPolicy", GangPolicy(min_member.value_or(0)));
  out.Set("spec", std::move(new_spec));
  obj = std::move(out);
  sink_.changed(o);
}

void GangSchedulerConversion::ConvertVolcanoPodGroup(GangObject& o) {
  YamlTree& obj = *o.node;
  YamlTree* spec = obj.Find("spec");
  std::optional<int64_t> min_member;
  std::optional<YamlTree> priority_class;
  if (spec != nullptr && spec->IsMap()) {
    min_member = ReadInt(o, "spec", *spec, "minMember");
    if (const YamlTree* pc = spec->Find("priorityClassName"); !IsNull(pc)) priority_class = *pc;
    ReportOthers(o, "spec", *spec, {"minMember", "priorityClassName"}, "Volcano PodGroup field");
  }
  if (const YamlTree* status = obj.Find("status"); !IsNull(status)) {
    sink_.issue(o, "status", "the Volcano PodGroup status is the old scheduler's; dropped");
  }
  if (!min_member || *min_member < 1) {
    sink_.issue(o, "spec.minMember",
                "minMember below 1 (or absent) makes no gang: the PodGroup gets schedulingPolicy "
                "basic");
  }
  YamlTree out = GroupHeader("PodGroup", target_, o.name, o.namespace_, nullptr);
  if (YamlTree* meta = obj.Find("metadata"); meta != nullptr && meta->IsMap()) out.Set("metadata", *meta);
  YamlTree new_spec = YamlTree::Map();
  new_spec.Set("schedulingPolicy", GangPolicy(min_member.value_or(0)));
  if (priority_class) new_spec.Set("priorityClassName", *priority_class);
  out.Set("spec", std::move(new_spec));
  obj = std::move(out);
  sink_.changed(o);
}

void GangSchedulerConversion::ConvertPodMembership(GangObject& o, YamlTree* meta, YamlTree* spec,
                                                   const std::string& rel) {
  YamlTree* labels = meta != nullptr && meta->IsMap() ? meta->Find("labels") : nullptr;
  YamlTree* annotations = meta != nullptr && meta->IsMap() ? meta->Find("annotations") : nullptr;
  const std::string meta_rel = rel.size() >= 4 ? rel.substr(0, rel.size() - 4) + "metadata" : "metadata";
  const std::string ns = Ns(o.namespace_);
  std::optional<std::string> group;
  std::string via;
  bool volcano = false;
  if (auto pg = StringAt(labels, kCoschedulingLabel)) {
    group = *pg;
    via = fmt::format("labels.{}", kCoschedulingLabel);
    if (coscheduling_groups_.count({ns, *pg}) == 0) {
      sink_.issue(o, JoinPath(meta_rel, via),
                  fmt::format("coscheduling PodGroup {}/{} is not in the input; the pod points "
                              "at PodGroup {} all the same",
                              ns, *pg, *pg));
    }
  } else if (auto pg = StringAt(annotations, kVolcanoGroupAnnotation)) {
    group = *pg;
    via = fmt::format("annotations.{}", kVolcanoGroupAnnotation);
    volcano = true;
    if (volcano_groups_.count({ns, *pg}) == 0) {
      sink_.issue(o, JoinPath(meta_rel, via),
                  fmt::format("Volcano PodGroup {}/{} is not in the input; the pod points at "
                              "PodGroup {} all the same",
                              ns, *pg, *pg));
    }
  } else if (auto pg = StringAt(labels, kKueueGroupLabel)) {
    group = *pg;
    via = fmt::format("labels.{}", kKueueGroupLabel);
    auto [it, inserted] = kueue_groups_.try_emplace({ns, *pg});
    KueueGroup& g = it->second;
    if (inserted) {
      g.first = &o;
      g.ns = o.namespace_;
      g.name = *pg;
      kueue_order_.push_back({ns, *pg});
    }
    const auto count = StringAt(annotations, kKueueTotalCount);
    if (!count) {
      sink_.issue(o, JoinPath(meta_rel, fmt::format("annotations.{}", kKueueTotalCount)),
                  "required for a Kueue pod group (its gang size) and missing");
    } else if (g.total_count.empty()) {
      g.total_count = *count;
    } else if (g.total_count != *count) {
      sink_.issue(o, JoinPath(meta_rel, fmt::format("annotations.{}", kKueueTotalCount)),
                  fmt::format("differs from the group's first pod ({}); the first is used",
                              g.total_count));
    }
    const std::string topology = StringAt(annotations, kKueueRequiredTopology).value_or("");
    if (inserted) {
      g.required_topology = topology;
    } else if (topology != g.required_topology) {
      g.topology_differs = true;
    }
    for (const YamlTree* map : {labels, annotations}) {
      if (map == nullptr || !map->IsMap()) continue;
      for (size_t i = 0; i < map->MapSize(); ++i) {
        const std::string_view key = map->KeyText(i);
        if (!key.starts_with("kueue.x-k8s.io/") || key == kKueueGroupLabel ||
            key == kKueueTotalCount || key == kKueueRequiredTopology) {
          continue;
        }
        sink_.issue(o, JoinPath(meta_rel, fmt::format("{}.{}", map == labels ? "labels" : "annotations", key)),
                    "a Kueue setting with no native equivalent in the v1.37 Workload API (the pod "
                    "is no longer queued by Kueue); kept as written, without effect");
      }
    }
  }
  if (!group) return;
  if (!IsNull(spec->Find("schedulingGroup"))) {
    sink_.issue(o, JoinPath(rel, "schedulingGroup"),
                fmt::format("the pod already names a PodGroup, which is kept ({} ignored)", via));
    return;
  }
  spec->Set("schedulingGroup", SchedulingGroup(*group));
  if (volcano) {
    if (auto s = StringAt(spec, "schedulerName"); s && *s == "volcano") {
      spec->Remove("schedulerName");
      sink_.issue(o, JoinPath(rel, "schedulerName"),
                  "\"volcano\": the native gang is kube-scheduler's; removed");
    }
  }
  sink_.changed(o);
}

void GangSchedulerConversion::ConvertVolcanoJob(GangObject& o) {
  YamlTree& obj = *o.node;
  YamlTree* spec = obj.Find("spec");
  if (spec == nullptr || !spec->IsMap()) {
    sink_.issue(o, "spec", "required field is missing; the Job is passed through unchanged");
    return;
  }
  const std::string& job = o.name;
  const std::optional<int64_t> job_min = ReadInt(o, "spec", *spec, "minAvailable");
  const std::optional<std::string> job_pc = StringAt(spec, "priorityClassName");
  const std::optional<std::string> scheduler = StringAt(spec, "schedulerName");
  ReportOthers(o, "spec", *spec,
               {"minAvailable", "priorityClassName", "schedulerName", "tasks"},
               "Volcano Job field");
  if (scheduler && *scheduler != "volcano") {
    sink_.issue(o, "spec.schedulerName",
                fmt::format("{}: the native gang is kube-scheduler's; the pods get the default "
                            "scheduler",
                            internal::QuoteValue(*scheduler)));
  }
  YamlTree* tasks = spec->Find("tasks");
  if (tasks == nullptr || !tasks->IsSeq() || tasks->children.empty()) {
    sink_.issue(o, "spec.tasks", "a Volcano Job needs tasks; the Job is passed through unchanged");
    return;
  }
  struct Task {
    std::string name;
    int64_t replicas = 0;
    int64_t min = 0;
    YamlTree* tmpl = nullptr;
    std::string rel;
  };
  std::vector<Task> ts;
  int64_t sum_min = 0;
  for (size_t i = 0; i < tasks->children.size(); ++i) {
    YamlTree& t = tasks->children[i];
    Task task;
    task.rel = fmt::format("spec.tasks[{}]", i);
    if (!t.IsMap()) {
      sink_.type_error(o, task.rel, t, "object");
      return;
    }
    task.name = StringAt(&t, "name").value_or(fmt::format("task{}", i));
    task.replicas = ReadInt(o, task.rel, t, "replicas").value_or(0);
    // Volcano's webhook: a task's minAvailable defaults to its replicas (or minPartitions ×
    // partitionSize); the job's to their sum.
    task.min = ReadInt(o, task.rel, t, "minAvailable").value_or(task.replicas);
    task.tmpl = t.Find("template");
    ReportOthers(o, task.rel, t, {"name", "replicas", "minAvailable", "template"},
                 "Volcano task field");
    sum_min += task.min;
    ts.push_back(std::move(task));
  }
  const int64_t total = job_min.value_or(0) > 0 ? *job_min : sum_min;
  if (total > sum_min) {
    sink_.issue(o, "spec.minAvailable",
                fmt::format("{} is above the tasks' minimums ({}): no native equivalent (each "
                            "task's PodGroup keeps its own minimum)",
                            total, sum_min));
  } else if (total < sum_min) {
    // Volcano checks only the total then (CheckTaskValid): spread it over the tasks in order.
    int64_t left = total;
    for (Task& t : ts) {
      const int64_t take = std::min(left, std::min(t.min, t.replicas));
      t.min = take;
      left -= take;
    }
    if (ts.size() > 1) {
      sink_.issue(o, "spec.minAvailable",
                  fmt::format("{} is below the tasks' minimums ({}): Volcano then admits any mix "
                              "of tasks with {} pods; no native equivalent, the total is split "
                              "over the tasks in order",
                              total, sum_min, total));
    }
  }
  int gang_tasks = 0;
  for (const Task& t : ts) gang_tasks += t.min >= 1 ? 1 : 0;
  std::string composite_template = job;
  for (const Task& t : ts) {
    if (t.name == composite_template) composite_template = job + "-job";
  }

  // Workload (replaces the Job).
  YamlTree workload = GroupHeader("Workload", target_, job, o.namespace_, nullptr);
  if (YamlTree* meta = obj.Find("metadata"); meta != nullptr && meta->IsMap()) {
    workload.Set("metadata", *meta);
  }
  YamlTree composite = YamlTree::Map();
  composite.Set("name", YamlTree::String(composite_template));
  YamlTree cpolicy = YamlTree::Map();
  if (gang_tasks > 0) {
    YamlTree gang = YamlTree::Map();
    gang.Set("minGroupCount", YamlTree::Plain(std::to_string(gang_tasks)));
    cpolicy.Set("gang", std::move(gang));
  } else {
    cpolicy.Set("basic", YamlTree::Map());
  }
  composite.Set("schedulingPolicy", cpolicy);
  if (job_pc) composite.Set("priorityClassName", YamlTree::String(*job_pc));
  YamlTree templates = YamlTree::Seq();
  for (const Task& t : ts) {
    YamlTree pgt = YamlTree::Map();
    pgt.Set("name", YamlTree::String(t.name));
    pgt.Set("schedulingPolicy", GangPolicy(t.min));
    if (job_pc) pgt.Set("priorityClassName", YamlTree::String(*job_pc));
    templates.children.push_back(std::move(pgt));
  }
  composite.Set("podGroupTemplates", std::move(templates));
  YamlTree wspec = YamlTree::Map();
  YamlTree composites = YamlTree::Seq();
  composites.children.push_back(std::move(composite));
  wspec.Set("compositePodGroupTemplates", std::move(composites));
  workload.Set("spec", std::move(wspec));

  // CompositePodGroup and PodGroups.
  auto workload_ref = [&](const std::string& tmpl) {
    YamlTree ref = YamlTree::Map();
    ref.Set("workloadName", YamlTree::String(job));
    ref.Set("templateName", YamlTree::String(tmpl));
    return ref;
  };
  std::vector<YamlTree> out;
  {
    YamlTree cpg = GroupHeader("CompositePodGroup", std::string(kCompositeApiVersion), job,
                               o.namespace_, nullptr);
    YamlTree s = YamlTree::Map();
    s.Set("workloadRef", workload_ref(composite_template));
    s.Set("schedulingPolicy", cpolicy);
    if (job_pc) s.Set("priorityClassName", YamlTree::String(*job_pc));
    cpg.Set("spec", std::move(s));
    out.push_back(std::move(cpg));
  }
  for (const Task& t : ts) {
    YamlTree pg = GroupHeader("PodGroup", target_, job + "-" + t.name, o.namespace_, nullptr);
    YamlTree s = YamlTree::Map();
    s.Set("parentCompositePodGroupName", YamlTree::String(job));
    s.Set("workloadRef", workload_ref(t.name));
    s.Set("schedulingPolicy", GangPolicy(t.min));
    if (job_pc) s.Set("priorityClassName", YamlTree::String(*job_pc));
    pg.Set("spec", std::move(s));
    out.push_back(std::move(pg));
  }
  // The pods Volcano's job controller creates.
  for (const Task& t : ts) {
    if (t.tmpl == nullptr || !t.tmpl->IsMap() || IsNull(t.tmpl->Find("spec"))) {
      sink_.issue(o, JoinPath(t.rel, "template"), "required field is missing; no pods for the task");
      continue;
    }
    const YamlTree* tmeta = t.tmpl->Find("metadata");
    for (int64_t i = 0; i < t.replicas; ++i) {
      YamlTree pod = GroupHeader("Pod", "v1", fmt::format("{}-{}-{}", job, t.name, i), o.namespace_,
                                 tmeta != nullptr && tmeta->IsMap() ? tmeta->Find("labels") : nullptr);
      YamlTree* meta = pod.Find("metadata");
      YamlTree& labels = meta->Find("labels") != nullptr ? *meta->Find("labels") : meta->Set("labels", YamlTree::Map());
      labels.Set("volcano.sh/job-name", YamlTree::String(job));
      labels.Set("volcano.sh/job-namespace", YamlTree::String(Ns(o.namespace_)));
      labels.Set("volcano.sh/task-spec", YamlTree::String(t.name));
      labels.Set("volcano.sh/task-index", YamlTree::String(std::to_string(i)));
      if (tmeta != nullptr && tmeta->IsMap()) {
        if (const YamlTree* a = tmeta->Find("annotations"); !IsNull(a)) meta->Set("annotations", *a);
      }
      YamlTree pspec = *t.tmpl->Find("spec");
      if (auto s = StringAt(&pspec, "schedulerName"); s && *s == "volcano") pspec.Remove("schedulerName");
      if (job_pc && IsNull(pspec.Find("priorityClassName"))) {
        pspec.Set("priorityClassName", YamlTree::String(*job_pc));
      }
      pspec.Set("schedulingGroup", SchedulingGroup(job + "-" + t.name));
      pod.Set("spec", std::move(pspec));
      out.push_back(std::move(pod));
    }
  }
  obj = std::move(workload);
  sink_.changed(o);
  for (YamlTree& t : out) {
    sink_.emit_after(o, std::move(t));
    ++generated_;
  }
}

void GangSchedulerConversion::Finish() {
  for (const Key& key : kueue_order_) {
    KueueGroup& g = kueue_groups_.at(key);
    int64_t count = 0;
    const std::string& t = g.total_count;
    if (t.empty() || std::from_chars(t.data(), t.data() + t.size(), count).ec != std::errc() ||
        count < 1) {
      sink_.issue(*g.first, fmt::format("metadata.annotations.{}", kKueueTotalCount),
                  fmt::format("pod group {}: no usable total count ({}); the PodGroup gets "
                              "schedulingPolicy basic",
                              g.name, t.empty() ? "missing" : internal::QuoteValue(t)));
      count = 0;
    }
    YamlTree pg = GroupHeader("PodGroup", target_, g.name, g.ns, nullptr);
    YamlTree spec = YamlTree::Map();
    spec.Set("schedulingPolicy", GangPolicy(count));
    if (g.topology_differs) {
      sink_.issue(*g.first, fmt::format("metadata.annotations.{}", kKueueRequiredTopology),
                  fmt::format("the pods of group {} differ in required topology; the PodGroup "
                              "gets none",
                              g.name));
    } else if (!g.required_topology.empty()) {
      YamlTree constraints = YamlTree::Map();
      YamlTree topology = YamlTree::Seq();
      YamlTree item = YamlTree::Map();
      item.Set("key", YamlTree::String(g.required_topology));
      topology.children.push_back(std::move(item));
      constraints.Set("topology", std::move(topology));
      spec.Set("schedulingConstraints", std::move(constraints));
    }
    pg.Set("spec", std::move(spec));
    sink_.emit_after(*g.first, std::move(pg));
    ++generated_;
  }
}

}  // namespace wasched::codec::internal
