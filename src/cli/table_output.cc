// File: cli/table_output.cc
#include "cli/table_output.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/field_value.h"
#include "util/natural_order.h"

namespace wasched::cli {
namespace {

constexpr std::string_view kDefaultScheduler = "default-scheduler";
// kMaxIndentLevels: the deepest tree level indented further (valid trees have at most 4).
constexpr int kMaxIndentLevels = 6;

struct Row {
  std::string pod;
  std::string where;  // node, PENDING, EVICTED or "-"
  std::string note;
};

struct Section {
  std::string indent;               // two spaces per tree level (CompositePodGroup children)
  std::vector<std::string> header;  // columns, aligned across sections
  std::string message;              // condition message, printed under the header
  std::string pending_message;      // the message most pending members share, printed once
  std::vector<Row> rows;
};

std::string Pad(std::string_view s, std::size_t width) {
  std::string out(s);
  if (out.size() < width) out.append(width - out.size(), ' ');
  return out;
}

std::string RTrim(std::string s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

// TreeOrder: the groups in tree preorder with their depth: roots (no parent, or a parent the
// result lacks) in result order (kind, then name), each followed by its children, which are
// ordered by kind then name as well. Groups only reachable through a cycle come last, depth 0.
std::vector<std::pair<const sched::GroupResult*, int>> TreeOrder(
    const std::vector<sched::GroupResult>& groups) {
  std::map<std::string, const sched::GroupResult*> composites;
  for (const sched::GroupResult& g : groups) {
    if (g.min_group_count) composites.emplace(g.name, &g);
  }
  std::map<const sched::GroupResult*, std::vector<const sched::GroupResult*>> children;
  std::vector<const sched::GroupResult*> roots;
  for (const sched::GroupResult& g : groups) {
    auto parent = g.parent ? composites.find(*g.parent) : composites.end();
    if (parent != composites.end() && parent->second != &g) {
      children[parent->second].push_back(&g);
    } else {
      roots.push_back(&g);
    }
  }
  std::vector<std::pair<const sched::GroupResult*, int>> out;
  std::map<const sched::GroupResult*, bool> seen;
  std::vector<std::pair<const sched::GroupResult*, int>> stack;
  auto walk = [&](const sched::GroupResult* root) {
    stack.push_back({root, 0});
    while (!stack.empty()) {
      auto [g, depth] = stack.back();
      stack.pop_back();
      if (seen[g]) continue;
      seen[g] = true;
      out.push_back({g, depth});
      auto it = children.find(g);
      if (it == children.end()) continue;
      for (auto c = it->second.rbegin(); c != it->second.rend(); ++c) stack.push_back({*c, depth + 1});
    }
  };
  for (const sched::GroupResult* r : roots) walk(r);
  for (const sched::GroupResult& g : groups) {
    if (!seen[&g]) walk(&g);  // on a cycle: no root leads here
  }
  return out;
}


// LabelOf: how the table names `c`: its type, or `outcome` for a CompositePodGroup's decision,
// which is not a status condition (v1.37.2 writes none on a CompositePodGroup).
std::string_view LabelOf(const sched::GroupResult& g, const api::Condition& c) {
  return g.outcome && &c == &*g.outcome ? std::string_view("outcome") : std::string_view(c.type);
}

// Membership: every pod by "ns/name" (input, then controller-generated), each PodGroup's
// members and the pods without a group (or whose group the result lacks), sorted naturally.
struct Membership {
  std::map<std::string, const api::Pod*> pods;
  std::map<std::string, std::vector<std::string>> members;  // "ns/group" → pods
  std::vector<std::string> bare;
};

Membership GroupPods(const api::ObjectSet& objects, const sched::ScheduleResult& result) {
  Membership m;
  for (const auto* list : {&objects.pods, &result.generated.pods}) {
    for (const api::Pod& p : *list) m.pods.emplace(api::NamespacedName(p.meta), &p);
  }
  for (const sched::GroupResult& g : result.groups) {
    if (!g.min_group_count) m.members[g.name];
  }
  for (const auto& [key, pod] : m.pods) {
    auto group = pod->pod_group_name
                     ? m.members.find(pod->meta.namespace_ + "/" + *pod->pod_group_name)
                     : m.members.end();
    if (group != m.members.end()) {
      group->second.push_back(key);
    } else {
      m.bare.push_back(key);
    }
  }
  // Pods the result names but the inputs do not hold (defensive: show them as bare pods).
  auto add_unknown = [&](const std::string& key) {
    if (m.pods.count(key) == 0 && std::find(m.bare.begin(), m.bare.end(), key) == m.bare.end()) {
      m.bare.push_back(key);
    }
  };
  for (const sched::Binding& b : result.bindings) add_unknown(b.pod);
  for (const sched::PendingPod& p : result.pending) add_unknown(p.pod);
  std::sort(m.bare.begin(), m.bare.end(), NaturalLess);
  return m;
}

// ScheduledCell: "scheduled 3/8 (minCount 8)", "scheduled 1/2 (minGroupCount 2)" or, for a
// basic PodGroup (no quorum, issue 20 item 10), "scheduled 3 (basic)".
std::string ScheduledCell(const sched::GroupResult& g) {
  const bool composite = g.min_group_count.has_value();
  const int32_t min = composite ? *g.min_group_count : g.min_count.value_or(0);
  return g.policy == "basic" ? fmt::format("scheduled {} (basic)", g.scheduled)
                             : fmt::format("scheduled {}/{} ({} {})", g.scheduled, min,
                                           composite ? "minGroupCount" : "minCount", min);
}

// EscapeLines: every line of `text` escaped for the terminal once more (a safety net: each
// field was escaped already, and EscapeForTerminal leaves escaped text unchanged).
std::string EscapeLines(const std::string& out) {
  std::string escaped;
  escaped.reserve(out.size());
  size_t begin = 0;
  while (begin < out.size()) {
    size_t end = out.find('\n', begin);
    if (end == std::string::npos) end = out.size();
    escaped += EscapeForTerminal(std::string_view(out).substr(begin, end - begin));
    if (end < out.size()) escaped += '\n';
    begin = end + 1;
  }
  return escaped;
}

// SummaryLine: "N bound, M pending[, R already running][, E evicted]".
std::string SummaryLine(const sched::ScheduleResult& result, int running) {
  std::string summary =
      fmt::format("{} bound, {} pending", result.bindings.size(), result.pending.size());
  if (running > 0) summary += fmt::format(", {} already running", running);
  if (!result.evictions.empty()) summary += fmt::format(", {} evicted", result.evictions.size());
  return summary + '\n';
}

// NoteLines: the result's notes as `note: …` lines, then a blank line (nothing without notes).
std::string NoteLines(const sched::ScheduleResult& result) {
  std::string out;
  for (const std::string& note : result.notes) out += "note: " + EscapeForTerminal(note) + '\n';
  if (!result.notes.empty()) out += '\n';
  return out;
}

}  // namespace

std::string FormatScheduleTable(const api::ObjectSet& objects,
                                const sched::ScheduleResult& result) {
  std::map<std::string, const sched::Binding*> bound;
  for (const sched::Binding& b : result.bindings) bound[b.pod] = &b;
  std::map<std::string, const sched::PendingPod*> pending;
  for (const sched::PendingPod& p : result.pending) pending[p.pod] = &p;
  std::map<std::string, const sched::Eviction*> evicted;
  for (const sched::Eviction& e : result.evictions) evicted[e.pod] = &e;

  Membership membership = GroupPods(objects, result);
  const std::map<std::string, const api::Pod*>& pods = membership.pods;
  std::map<std::string, std::vector<std::string>>& members = membership.members;
  const std::vector<std::string>& bare = membership.bare;

  int running = 0;
  // make_row: `shown` holds messages already printed for the section (not repeated per pod).
  auto make_row = [&](const std::string& key, const std::vector<std::string>& shown) {
    Row row{key, "-", ""};
    auto pod_it = pods.find(key);
    const api::Pod* pod = pod_it == pods.end() ? nullptr : pod_it->second;
    if (auto e = evicted.find(key); e != evicted.end()) {
      row.where = "EVICTED";
      row.note = fmt::format("preempted by {} (was on {})", e->second->preemptor, e->second->node);
      if (!e->second->reason.empty()) row.note += ": " + e->second->reason;
    } else if (auto b = bound.find(key); b != bound.end()) {
      row.where = b->second->node;
    } else if (auto p = pending.find(key); p != pending.end()) {
      // The condition's reason and message, or `held` and what a pod held at PreEnqueue (no
      // condition) waits for.
      row.where = "PENDING";
      const sched::PendingShown text = sched::ShownPending(*p->second);
      row.note = text.label;
      if (!text.text.empty() && std::find(shown.begin(), shown.end(), text.text) == shown.end()) {
        row.note += (row.note.empty() ? "" : ": ");
        row.note += text.text;
      }
    } else if (pod != nullptr && (pod->phase == "Succeeded" || pod->phase == "Failed")) {
      // Finished pods hold no resources, wherever they ran.
      row.where = pod->node_name.empty() ? "-" : pod->node_name;
      row.note = "phase " + pod->phase;
    } else if (pod != nullptr && !pod->node_name.empty()) {
      row.where = pod->node_name;
      row.note = "running";
      ++running;
    } else if (pod != nullptr && pod->scheduler_name != kDefaultScheduler) {
      // Pending pods of another scheduler are listed with reason NotHandled above; this is a
      // pod outside the run's scope (e.g. held by its controller).
      row.note = fmt::format("schedulerName {}: not handled by wasched", pod->scheduler_name);
    } else {
      row.note = "not scheduled";
    }
    // Every field is escaped on its own (issue 20 item 27): a newline in a name or message is
    // `\n` inside its cell, never a line break, and the widths are those of the escaped text.
    row.pod = EscapeForTerminal(row.pod);
    row.where = EscapeForTerminal(row.where);
    row.note = EscapeForTerminal(row.note);
    return row;
  };
  // escape_section: the same for a section's header cells and messages, once its rows are made
  // (the rows compare the raw messages).
  auto escape_section = [](Section& s) {
    for (std::string& cell : s.header) cell = EscapeForTerminal(cell);
    s.message = EscapeForTerminal(s.message);
    s.pending_message = EscapeForTerminal(s.pending_message);
  };

  std::vector<Section> sections;
  for (const auto& [group, depth] : TreeOrder(result.groups)) {
    const sched::GroupResult& g = *group;
    Section s;
    // Indentation is bounded (issue 20 item 22): a valid tree has at most 4 levels (KEP-6012);
    // a deeper, refused chain must not make the table O(depth²) bytes. Deeper levels keep the
    // last indentation and say their depth.
    s.indent.assign(static_cast<std::size_t>(std::min(depth, kMaxIndentLevels)) * 2, ' ');
    const bool composite = g.min_group_count.has_value();
    s.header.push_back(depth > kMaxIndentLevels
                           ? fmt::format("{}{} {} (depth {})", s.indent, g.kind, g.name, depth)
                           : fmt::format("{}{} {}", s.indent, g.kind, g.name));
    // A basic PodGroup has no quorum (issue 20 item 10): its count and `basic`, its pods' rows
    // say how each one fared.
    s.header.push_back(ScheduledCell(g));
    const api::Condition* c = sched::MainCondition(g);
    // A CompositePodGroup's outcome is not a status condition (v1.37.2 writes none there), so
    // it reads `outcome=<status> <reason>`.
    s.header.push_back(c == nullptr ? "no condition"
                                    : RTrim(fmt::format("{}={} {}", LabelOf(g, *c), c->status,
                                                        c->reason)));
    if (c != nullptr) s.message = c->message;
    // The group's other conditions, type, status and reason only, in the result's order.
    for (const api::Condition& other : g.conditions) {
      if (&other != c) {
        s.header.push_back(RTrim(fmt::format("{}={} {}", other.type, other.status, other.reason)));
      }
    }
    if (g.disrupted) s.header.push_back("disrupted by preemption");
    // The chosen topology domain (issue 20 item 8), after the conditions: appended to the last
    // cell, so the columns of other sections keep their widths.
    if (g.placement) {
      s.header.back() += fmt::format("  placement {}={}", g.placement->key, g.placement->value);
    }
    if (!composite) {
      std::vector<std::string>& keys = members[g.name];
      std::sort(keys.begin(), keys.end(), NaturalLess);
      // The pending message most members share (at least two), printed once for the section.
      std::map<std::string, int> counts;
      for (const std::string& key : keys) {
        if (auto p = pending.find(key); p != pending.end()) {
          const std::string_view text = sched::ShownPending(*p->second).text;
          if (!text.empty()) ++counts[std::string(text)];
        }
      }
      int best = 1;
      for (const auto& [message, count] : counts) {
        if (count > best && message != s.message) {
          best = count;
          s.pending_message = message;
        }
      }
      const std::vector<std::string> shown = {s.message, s.pending_message};
      for (const std::string& key : keys) s.rows.push_back(make_row(key, shown));
    }
    escape_section(s);
    sections.push_back(std::move(s));
  }
  if (!bare.empty()) {
    Section s;
    s.header.push_back("Pods without a PodGroup");
    for (const std::string& key : bare) s.rows.push_back(make_row(key, {}));
    sections.push_back(std::move(s));
  }

  // Column widths: group headers (all but the last column) and pod rows, across sections.
  std::vector<std::size_t> header_width;
  std::size_t pod_width = 0;
  std::size_t where_width = 0;
  for (const Section& s : sections) {
    if (s.header.size() > 1) {
      if (header_width.size() < s.header.size()) header_width.resize(s.header.size(), 0);
      for (std::size_t i = 0; i + 1 < s.header.size(); ++i) {
        header_width[i] = std::max(header_width[i], s.header[i].size());
      }
    }
    for (const Row& r : s.rows) {
      pod_width = std::max(pod_width, r.pod.size());
      where_width = std::max(where_width, r.where.size());
    }
  }

  std::string out;
  for (std::size_t si = 0; si < sections.size(); ++si) {
    const Section& s = sections[si];
    if (si > 0) out += '\n';
    std::string line;
    for (std::size_t i = 0; i < s.header.size(); ++i) {
      if (i > 0) line += "  ";
      line += i + 1 < s.header.size() ? Pad(s.header[i], header_width[i]) : s.header[i];
    }
    out += RTrim(line) + '\n';
    if (!s.message.empty()) out += s.indent + "  message: " + s.message + '\n';
    if (!s.pending_message.empty()) {
      // A pending message that extends the condition's (e.g. with "pod group preemption: …")
      // is not printed twice: only what it adds.
      const std::string_view pm = s.pending_message;
      if (!s.message.empty() && pm.size() > s.message.size() && pm.starts_with(s.message)) {
        out += s.indent + "  pending pods: (message above)" +
               std::string(pm.substr(s.message.size())) + '\n';
      } else {
        out += s.indent + "  pending pods: " + s.pending_message + '\n';
      }
    }
    for (const Row& r : s.rows) {
      out += RTrim(s.indent + "  " + Pad(r.pod, pod_width) + "  " + Pad(r.where, where_width) +
                   "  " + r.note) +
             '\n';
    }
  }
  if (!sections.empty()) out += '\n';
  // DRA claims allocated by this run: claim (owner) → request: driver/pool/device.
  if (!result.allocations.empty()) {
    out += "ResourceClaims allocated\n";
    for (const sched::ClaimAllocation& a : result.allocations) {
      out += "  " + EscapeForTerminal(a.claim) +
             (a.owner.empty() ? "" : " (" + EscapeForTerminal(a.owner) + ")") + '\n';
      for (const sched::ClaimAllocation::Device& d : a.devices) {
        out += fmt::format("    {} → {}/{}/{}\n", EscapeForTerminal(d.request),
                           EscapeForTerminal(d.driver), EscapeForTerminal(d.pool),
                           EscapeForTerminal(d.device));
      }
    }
    out += '\n';
  }
  // Notes (issue 20 item 12): what explains a result without being a problem, e.g. a
  // suspended Job that created no pods.
  out += NoteLines(result);
  out += SummaryLine(result, running);
  // Names, node names and messages come from the input: each field was escaped for the terminal
  // above (control characters, invalid UTF-8; QA2 finding 15); each line is escaped once more as
  // a safety net (EscapeForTerminal leaves escaped text unchanged).
  return EscapeLines(out);
}

std::string FormatScheduleSummary(const api::ObjectSet& objects,
                                  const sched::ScheduleResult& result) {
  std::map<std::string, const sched::PendingPod*> pending;
  for (const sched::PendingPod& p : result.pending) pending[p.pod] = &p;
  std::map<std::string, bool> bound, evicted;
  for (const sched::Binding& b : result.bindings) bound[b.pod] = true;
  for (const sched::Eviction& e : result.evictions) evicted[e.pod] = true;
  const Membership membership = GroupPods(objects, result);

  int running_total = 0;
  // Counts: how a set of pods fared, "3 bound, 5 pending[, 1 running][, 2 evicted]".
  auto counts = [&](const std::vector<std::string>& keys) {
    int nb = 0, np = 0, nr = 0, ne = 0;
    for (const std::string& key : keys) {
      if (evicted.count(key) > 0) {
        ++ne;
      } else if (bound.count(key) > 0) {
        ++nb;
      } else if (pending.count(key) > 0) {
        ++np;
      } else if (auto pod = membership.pods.find(key);
                 pod != membership.pods.end() && !pod->second->node_name.empty() &&
                 pod->second->phase != "Succeeded" && pod->second->phase != "Failed") {
        ++nr;
      }
    }
    running_total += nr;
    std::string text = fmt::format("{} bound, {} pending", nb, np);
    if (nr > 0) text += fmt::format(", {} running", nr);
    if (ne > 0) text += fmt::format(", {} evicted", ne);
    return text;
  };

  // Columns: group (indented per tree level), scheduled, pod counts, domain, then the condition
  // with its message (the reason), which is not padded.
  std::vector<std::vector<std::string>> rows;
  for (const auto& [group, depth] : TreeOrder(result.groups)) {
    const sched::GroupResult& g = *group;
    std::vector<std::string> row;
    const std::string indent(static_cast<std::size_t>(std::min(depth, kMaxIndentLevels)) * 2, ' ');
    row.push_back(EscapeForTerminal(fmt::format("{}{} {}", indent, g.kind, g.name)));
    row.push_back(ScheduledCell(g));
    if (g.min_group_count) {
      row.push_back("-");
    } else {
      auto it = membership.members.find(g.name);
      row.push_back(counts(it == membership.members.end() ? std::vector<std::string>{}
                                                          : it->second));
    }
    row.push_back(g.placement ? EscapeForTerminal(fmt::format("placement {}={}", g.placement->key,
                                                              g.placement->value))
                              : "-");
    const api::Condition* c = sched::MainCondition(g);
    std::string reason = "no condition";
    if (c != nullptr) {
      reason = RTrim(fmt::format("{}={} {}", LabelOf(g, *c), c->status, c->reason));
      if (!c->message.empty()) reason += ": " + c->message;
    }
    row.push_back(EscapeForTerminal(reason));
    rows.push_back(std::move(row));
  }
  if (!membership.bare.empty()) {
    rows.push_back({"Pods without a PodGroup", "-", counts(membership.bare), "-", ""});
  }
  std::vector<std::size_t> width(5, 0);
  for (const auto& row : rows) {
    for (std::size_t i = 0; i + 1 < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (i > 0) line += "  ";
      line += i + 1 < row.size() ? Pad(row[i], width[i]) : row[i];
    }
    out += RTrim(line) + '\n';
  }
  if (!rows.empty()) out += '\n';
  out += NoteLines(result);
  out += SummaryLine(result, running_total);
  return EscapeLines(out);
}

}  // namespace wasched::cli
