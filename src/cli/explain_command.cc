// File: cli/explain_command.cc
#include "cli/explain_command.h"

#include <fmt/format.h>

#include <ostream>

#include "util/field_value.h"

namespace wasched::cli {
namespace {

std::string Qualified(const std::string& name) {
  return name.find('/') == std::string::npos ? "default/" + name : name;
}

const sched::GroupResult* FindGroup(const sched::ScheduleResult& r, const std::string& name) {
  for (const sched::GroupResult& g : r.groups) {
    if (g.name == name && g.kind == "PodGroup") return &g;
  }
  for (const sched::GroupResult& g : r.groups) {
    if (g.name == name) return &g;
  }
  return nullptr;
}

// PodOutcome: "bound to N by this run", "running on N", "pending (Reason): message",
// "pending (held): what it waits for" (held at PreEnqueue, no condition), or "evicted from N by
// <preemptor>".
std::string PodOutcome(const ScheduledInput& s, const std::string& pod) {
  for (const sched::Eviction& e : s.result.evictions) {
    if (e.pod == pod) return fmt::format("evicted from {} in favour of {}", e.node, e.preemptor);
  }
  for (const sched::Binding& b : s.result.bindings) {
    if (b.pod == pod) return "bound to " + b.node + " by this run";
  }
  for (const sched::PendingPod& p : s.result.pending) {
    if (p.pod == pod) {
      const sched::PendingShown shown = sched::ShownPending(p);
      return fmt::format("pending ({}): {}", shown.label, shown.text);
    }
  }
  for (const api::Pod& p : s.objects.pods) {
    if (api::NamespacedName(p.meta) == pod && !p.node_name.empty()) {
      return "running on " + p.node_name;
    }
  }
  return "not scheduled (finished, or not handled by this scheduler)";
}

void WriteGroup(const sched::GroupResult& g, std::string& text) {
  text += fmt::format("{} {}\n", g.kind, g.name);
  if (g.parent) text += fmt::format("  parent:     CompositePodGroup {}\n", *g.parent);
  if (g.min_count) text += fmt::format("  scheduled:  {} of minCount {}\n", g.scheduled, *g.min_count);
  if (g.min_group_count) {
    text += fmt::format("  scheduled:  {} of minGroupCount {}\n", g.scheduled, *g.min_group_count);
  }
  if (g.placement) {
    text += fmt::format("  placement:  {}={}\n", g.placement->key, g.placement->value);
  }
  if (g.outcome) {
    text += fmt::format("  outcome:    {} ({}){}{}\n", g.outcome->status == "True" ? "scheduled" : "not scheduled",
                        g.outcome->reason, g.outcome->message.empty() ? "" : ": ", g.outcome->message);
  }
  for (const api::Condition& c : g.conditions) {
    text += fmt::format("  condition:  {}={} ({}){}{}\n", c.type, c.status, c.reason,
                        c.message.empty() ? "" : ": ", c.message);
  }
  if (g.disrupted) text += "  disrupted:  preemption evicted pods of this group\n";
}

}  // namespace

int RunExplain(const ExplainOptions& options, std::istream& in, std::ostream& out,
               std::ostream& err) {
  auto scheduled = LoadAndSchedule(options.schedule, in, err);
  if (!scheduled) return scheduled.error();
  const ScheduledInput& s = *scheduled;
  const std::string name = Qualified(options.name);
  std::string text;
  if (options.kind == "pod") {
    const api::Pod* pod = nullptr;
    for (const api::Pod& p : s.objects.pods) {
      if (api::NamespacedName(p.meta) == name) pod = &p;
    }
    if (pod == nullptr) {
      err << "error: pod " << EscapeForTerminal(name) << " not found in the input\n";
      return kExitInvalidInput;
    }
    text += fmt::format("Pod {}\n  outcome:    {}\n", name, PodOutcome(s, name));
    for (const sched::Eviction& e : s.result.evictions) {
      // Why this pod was the victim (new-user trial: the outcome alone did not say).
      if (e.pod == name && !e.reason.empty()) text += fmt::format("  chosen:     {}\n", e.reason);
    }
    for (const sched::Eviction& e : s.result.evictions) {
      if (e.preemptor == "Pod " + name) {
        text += fmt::format("  evicts:     {} on {} ({})\n", e.pod, e.node, e.reason);
      }
    }
    if (pod->pod_group_name) {
      const std::string group = pod->meta.namespace_ + "/" + *pod->pod_group_name;
      if (const sched::GroupResult* g = FindGroup(s.result, group)) {
        text += "group:\n";
        std::string group_text;
        WriteGroup(*g, group_text);
        text += group_text;
      } else {
        text += fmt::format("  group:      PodGroup {} (not in the input)\n", group);
      }
    }
  } else {
    const sched::GroupResult* g = FindGroup(s.result, name);
    if (g == nullptr) {
      err << "error: podgroup " << EscapeForTerminal(name) << " not found in the input\n";
      return kExitInvalidInput;
    }
    WriteGroup(*g, text);
    for (const api::Pod& p : s.objects.pods) {
      if (g->kind != "PodGroup" || !p.pod_group_name ||
          p.meta.namespace_ + "/" + *p.pod_group_name != name) {
        continue;
      }
      const std::string pod = api::NamespacedName(p.meta);
      text += fmt::format("  pod {}: {}\n", pod, PodOutcome(s, pod));
    }
    for (const sched::GroupResult& child : s.result.groups) {
      if (child.parent && *child.parent == name) {
        text += fmt::format("  child {} {}: scheduled {}\n", child.kind, child.name, child.scheduled);
      }
    }
    for (const sched::Eviction& e : s.result.evictions) {
      if (e.preemptor == g->kind + " " + name) {
        text += fmt::format("  evicts:     {} on {} ({})\n", e.pod, e.node, e.reason);
      }
    }
  }
  // Names and messages come from the input: every line is made terminal-safe.
  std::string safe;
  size_t start = 0;
  while (start < text.size()) {
    const size_t nl = text.find('\n', start);
    const size_t end = nl == std::string::npos ? text.size() : nl;
    safe += EscapeForTerminal(std::string_view(text).substr(start, end - start));
    safe += '\n';
    start = end + 1;
  }
  return WriteOutput(out, err, safe, kExitOk);
}

}  // namespace wasched::cli
