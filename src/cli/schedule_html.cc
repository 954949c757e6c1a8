// File: cli/schedule_html.cc
#include "cli/schedule_html.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/field_value.h"
#include "util/html.h"
#include "util/natural_order.h"

namespace wasched::cli {
namespace {

constexpr std::string_view kHostnameLabel = "kubernetes.io/hostname";
constexpr std::string_view kUngroupedColour = "#888888";

// Text: input-controlled text for the page: control characters visible, then HTML-escaped.
std::string Text(std::string_view s) { return HtmlEscape(EscapeForTerminal(s)); }

struct NaturalOrder {
  bool operator()(const std::string& a, const std::string& b) const { return NaturalLess(a, b); }
};

// MostCommonKey: among `candidates`, the key on most nodes (at least one); ties: smaller key.
std::string MostCommonKey(const std::set<std::string>& candidates, const api::ObjectSet& objects) {
  std::string best;
  size_t best_count = 0;
  for (const std::string& key : candidates) {
    size_t count = 0;
    for (const api::Node& n : objects.nodes) count += n.meta.labels.count(key);
    if (count > best_count) {
      best = key;
      best_count = count;
    }
  }
  return best;
}


// Quorum: "2/3", "1/2 groups" or "3 (basic)".
std::string Quorum(const sched::GroupResult& g) {
  if (g.min_group_count) return fmt::format("{}/{} groups", g.scheduled, *g.min_group_count);
  if (g.policy == "basic") return fmt::format("{} (basic)", g.scheduled);
  return fmt::format("{}/{}", g.scheduled, g.min_count.value_or(0));
}

// IsPending: the group did not reach its quorum (condition not True, or short of it).
bool IsPending(const sched::GroupResult& g) {
  const api::Condition* c = sched::MainCondition(g);
  if (c != nullptr) return c->status != "True";
  const int32_t min = g.min_group_count ? *g.min_group_count : g.min_count.value_or(0);
  return g.scheduled < min;
}

// Mark: one pod drawn on a node.
struct Mark {
  enum Kind { kBound = 0, kRunning = 1, kEvicted = 2 };
  Kind kind = kBound;
  std::string pod;
  int colour = -1;  // index of its PodGroup's colour, -1 without a group
  std::string title;
};

struct NodeBox {
  bool known = false;  // in the input (a node only a result names is drawn as well)
  bool unschedulable = false;
  std::vector<Mark> marks;
};

constexpr const char* kStyle =
    "body{font-family:sans-serif;margin:20px;background:#fff;color:#222;max-width:100%}"
    "h1{font-size:22px}h2{font-size:18px;margin-top:24px}"
    ".legend{display:flex;flex-wrap:wrap;gap:6px 18px;list-style:none;padding:0}"
    ".legend li{display:flex;align-items:center;gap:6px;overflow-wrap:anywhere}"
    ".sw{display:inline-block;width:14px;height:14px;border:1px solid #444;flex:none}"
    ".map{display:flex;flex-direction:column;gap:12px}"
    ".zone{border:2px solid #666;border-radius:6px;padding:6px 10px}"
    ".zone>h3{margin:2px 0 6px;font-size:15px}"
    ".racks{display:flex;flex-wrap:wrap;gap:10px}"
    ".rack{border:1px dashed #888;border-radius:4px;padding:4px 8px;background:#fafafa}"
    ".rack>h4{margin:2px 0 4px;font-size:13px;font-weight:normal;color:#444}"
    ".nodes{display:flex;flex-wrap:wrap;gap:6px}"
    ".node{width:132px;min-height:44px;border:1px solid #999;border-radius:3px;padding:3px;background:#fff}"
    ".node.cordoned{border-style:dotted;background:#f2f2f2}"
    ".nn{font-size:11px;font-family:monospace;overflow-wrap:anywhere;margin-bottom:3px}"
    ".pods{display:flex;flex-wrap:wrap;gap:2px}"
    ".pod{display:inline-block;width:12px;height:12px;border:1px solid #333;box-sizing:border-box}"
    ".pod.running{opacity:.45}"
    ".pod.evicted{border-color:#000}.pod.evicted svg{display:block}"
    ".wrap{overflow-x:auto;max-width:100%}"
    "table{border-collapse:collapse;table-layout:auto;max-width:100%}"
    "td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top;"
    "overflow-wrap:break-word;word-break:normal}"
    "td.msg{max-width:700px}";

// kCross: the X drawn over an evicted pod's square.
constexpr const char* kCross =
    "<svg width=\"10\" height=\"10\" viewBox=\"0 0 10 10\" xmlns=\"http://www.w3.org/2000/svg\">"
    "<path d=\"M1 1L9 9M9 1L1 9\" stroke=\"#000\" stroke-width=\"2\"/></svg>";

}  // namespace

TopologyKeys ChooseTopologyKeys(const api::ObjectSet& objects,
                                const sched::ScheduleResult& result) {
  std::set<std::string> all_keys;
  for (const api::Node& n : objects.nodes) {
    for (const auto& [key, value] : n.meta.labels) all_keys.insert(key);
  }
  TopologyKeys keys;
  if (all_keys.count(kZoneLabel) > 0) {
    keys.zone = kZoneLabel;
  } else {
    std::set<std::string> zones;
    for (const std::string& k : all_keys) {
      if (k.find("zone") != std::string::npos) zones.insert(k);
    }
    keys.zone = MostCommonKey(zones, objects);
  }
  std::set<std::string> constraint_keys;
  auto add_constraints = [&](const std::optional<api::SchedulingConstraints>& c) {
    if (!c) return;
    for (const api::TopologyConstraint& t : c->topology) {
      if (t.key != keys.zone && t.key != kHostnameLabel) constraint_keys.insert(t.key);
    }
  };
  for (const api::ObjectSet* set : {&objects, &result.generated}) {
    for (const api::PodGroup& g : set->pod_groups) add_constraints(g.scheduling_constraints);
    for (const api::CompositePodGroup& g : set->composite_pod_groups) {
      add_constraints(g.scheduling_constraints);
    }
  }
  keys.rack = MostCommonKey(constraint_keys, objects);
  if (keys.rack.empty()) {
    std::set<std::string> racks;
    for (const std::string& k : all_keys) {
      if (k.find("rack") != std::string::npos && k != keys.zone) racks.insert(k);
    }
    keys.rack = MostCommonKey(racks, objects);
  }
  return keys;
}

std::string GroupColour(size_t index) {
  const long hue = std::lround(std::fmod(static_cast<double>(index) * 137.508, 360.0));
  return fmt::format("hsl({},70%,42%)", hue % 360);
}

std::string FormatScheduleHtml(const api::ObjectSet& objects,
                               const sched::ScheduleResult& result) {
  // Pods by "ns/name" (input, then controller-generated), and each PodGroup's colour index.
  std::map<std::string, const api::Pod*> pods;
  for (const auto* list : {&objects.pods, &result.generated.pods}) {
    for (const api::Pod& p : *list) pods.emplace(api::NamespacedName(p.meta), &p);
  }
  std::map<std::string, size_t> colour_of;  // PodGroup "ns/name" → colour index
  for (const sched::GroupResult& g : result.groups) {
    if (!g.min_group_count) colour_of.emplace(g.name, colour_of.size());
  }
  auto group_of = [&](const std::string& key) -> const std::string* {
    auto pod = pods.find(key);
    if (pod == pods.end() || !pod->second->pod_group_name) return nullptr;
    auto it = colour_of.find(pod->second->meta.namespace_ + "/" + *pod->second->pod_group_name);
    return it == colour_of.end() ? nullptr : &it->first;
  };
  auto colour_index = [&](const std::string& key) {
    const std::string* g = group_of(key);
    return g == nullptr ? -1 : static_cast<int>(colour_of.at(*g));
  };

  // The map: zone → rack → node, each in natural order; "" is "no label".
  const TopologyKeys keys = ChooseTopologyKeys(objects, result);
  std::map<std::string, NodeBox, NaturalOrder> boxes;
  std::map<std::string, std::pair<std::string, std::string>> place;  // node → (zone, rack)
  for (const api::Node& n : objects.nodes) {
    NodeBox& box = boxes[n.meta.name];
    box.known = true;
    box.unschedulable = box.unschedulable || n.unschedulable;
    auto label = [&](const std::string& key) {
      auto it = key.empty() ? n.meta.labels.end() : n.meta.labels.find(key);
      return it == n.meta.labels.end() ? std::string() : it->second;
    };
    place.emplace(n.meta.name, std::pair{label(keys.zone), label(keys.rack)});
  }
  std::set<std::string> bound, evicted;
  for (const sched::Eviction& e : result.evictions) {
    evicted.insert(e.pod);
    std::string title = fmt::format("{} evicted from {}: preempted by {}", e.pod, e.node, e.preemptor);
    if (!e.reason.empty()) title += ": " + e.reason;
    boxes[e.node].marks.push_back({Mark::kEvicted, e.pod, colour_index(e.pod), std::move(title)});
  }
  for (const sched::Binding& b : result.bindings) {
    bound.insert(b.pod);
    if (evicted.count(b.pod) > 0) continue;
    const std::string* g = group_of(b.pod);
    boxes[b.node].marks.push_back(
        {Mark::kBound, b.pod, colour_index(b.pod),
         fmt::format("{} on {}: bound by this run{}", b.pod, b.node,
                     g == nullptr ? std::string() : ", PodGroup " + *g)});
  }
  for (const auto& [key, pod] : pods) {
    if (pod->node_name.empty() || bound.count(key) > 0 || evicted.count(key) > 0) continue;
    if (pod->phase == "Succeeded" || pod->phase == "Failed") continue;
    const std::string* g = group_of(key);
    boxes[pod->node_name].marks.push_back(
        {Mark::kRunning, key, colour_index(key),
         fmt::format("{} on {}: already running{}", key, pod->node_name,
                     g == nullptr ? std::string() : ", PodGroup " + *g)});
  }
  // zone → rack → nodes.
  std::map<std::string, std::map<std::string, std::vector<std::string>, NaturalOrder>, NaturalOrder>
      zones;
  std::vector<std::string> unlabelled;
  for (auto& [name, box] : boxes) {
    std::sort(box.marks.begin(), box.marks.end(), [](const Mark& a, const Mark& b) {
      if (a.kind != b.kind) return a.kind < b.kind;
      if (a.colour != b.colour) return a.colour < b.colour;
      return NaturalLess(a.pod, b.pod);
    });
    auto it = place.find(name);
    if (it == place.end() || (it->second.first.empty() && it->second.second.empty())) {
      unlabelled.push_back(name);
    } else {
      zones[it->second.first][it->second.second].push_back(name);
    }
  }

  std::string out;
  out += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
         "<title>wasched schedule</title>\n<style>";
  out += kStyle;
  out += "</style></head><body>\n<h1>wasched schedule</h1>\n";
  out += fmt::format("<p class=\"summary\">{} bound, {} pending, {} evicted; {} nodes, {} groups.</p>\n",
                     result.bindings.size(), result.pending.size(), result.evictions.size(),
                     objects.nodes.size(), result.groups.size());

  // Legend.
  out += "<h2>Groups</h2>\n<ul class=\"legend\" id=\"legend\">\n";
  for (const sched::GroupResult& g : result.groups) {
    const api::Condition* c = sched::MainCondition(g);
    const std::string state =
        c == nullptr ? "no condition" : fmt::format("{}={} {}", c->type, c->status, c->reason);
    std::string swatch = g.min_group_count
                             ? "<span class=\"sw\" style=\"background:#fff\"></span>"
                             : fmt::format("<span class=\"sw\" style=\"background:{}\"></span>",
                                           GroupColour(colour_of.at(g.name)));
    out += fmt::format("<li title=\"{}\">{}<span>{} <b>{}</b> {}{}</span></li>\n", Text(state), swatch,
                       Text(g.kind), Text(g.name), Quorum(g),
                       g.parent ? " (in " + Text(*g.parent) + ")" : std::string());
  }
  out += fmt::format("<li><span class=\"sw\" style=\"background:{}\"></span><span>pods without a "
                     "PodGroup</span></li>\n",
                     kUngroupedColour);
  out += "<li><span class=\"sw\" style=\"background:#777;opacity:.45\"></span><span>pale: already "
         "running</span></li>\n";
  out += fmt::format("<li><span class=\"pod evicted\" style=\"background:#ccc\">{}</span><span>crossed: "
                     "evicted by this run</span></li>\n</ul>\n",
                     kCross);

  // Node map.
  auto node_html = [&](const std::string& name) {
    const NodeBox& box = boxes.at(name);
    std::string s = fmt::format("<div class=\"node{}\" title=\"{}{}\"><div class=\"nn\">{}</div><div class=\"pods\">",
                                box.unschedulable ? " cordoned" : "", Text(name),
                                box.unschedulable ? " (unschedulable)" : (box.known ? "" : " (not in the input)"),
                                Text(name));
    for (const Mark& m : box.marks) {
      const std::string colour =
          m.colour < 0 ? std::string(kUngroupedColour) : GroupColour(static_cast<size_t>(m.colour));
      const char* cls = m.kind == Mark::kEvicted ? "pod evicted" : m.kind == Mark::kRunning ? "pod running" : "pod";
      s += fmt::format("<span class=\"{}\" style=\"background:{}\" title=\"{}\">{}</span>", cls, colour, Text(m.title),
                       m.kind == Mark::kEvicted ? kCross : "");
    }
    return s + "</div></div>\n";
  };
  out += fmt::format("<h2>Nodes</h2>\n<p>Grouped by {}{}.</p>\n<div class=\"map\">\n",
                     keys.zone.empty() ? "no zone label" : "zone (" + Text(keys.zone) + ")",
                     keys.rack.empty() ? "" : " and rack (" + Text(keys.rack) + ")");
  for (const auto& [zone, racks] : zones) {
    out += fmt::format("<section class=\"zone\"><h3>{}</h3><div class=\"racks\">\n",
                       zone.empty() ? "no zone label" : "zone " + Text(zone));
    for (const auto& [rack, names] : racks) {
      out += fmt::format("<section class=\"rack\"><h4>{}</h4><div class=\"nodes\">\n",
                         rack.empty() ? (keys.rack.empty() ? "nodes" : "no rack label") : "rack " + Text(rack));
      for (const std::string& name : names) out += node_html(name);
      out += "</div></section>\n";
    }
    out += "</div></section>\n";
  }
  if (!unlabelled.empty()) {
    out += "<section class=\"zone\"><h3>unlabelled</h3><div class=\"racks\"><section class=\"rack\">"
           "<h4>nodes without zone or rack label</h4><div class=\"nodes\">\n";
    for (const std::string& name : unlabelled) out += node_html(name);
    out += "</div></section></div></section>\n";
  }
  out += "</div>\n";

  // Pending groups, then pending pods without a group. A group without a condition whose pods
  // are held at PreEnqueue shows `held` and what its first held pod waits for.
  std::map<std::string, std::string_view> held;  // PodGroup name → a member's PendingPod::held
  for (const sched::PendingPod& p : result.pending) {
    const std::string* g = p.held.empty() ? nullptr : group_of(p.pod);
    if (g != nullptr) held.emplace(*g, p.held);
  }
  std::string rows;
  for (const sched::GroupResult& g : result.groups) {
    if (!IsPending(g)) continue;
    const api::Condition* c = sched::MainCondition(g);
    const auto h = c == nullptr ? held.find(g.name) : held.end();
    const std::string label = c != nullptr ? Text(c->reason) : h != held.end() ? "held" : "-";
    const std::string text =
        c != nullptr ? Text(c->message) : h != held.end() ? Text(h->second) : std::string();
    rows += fmt::format("<tr><td>{} {}</td><td>{}</td><td>{}</td><td class=\"msg\">{}</td></tr>\n", Text(g.kind),
                        Text(g.name), Quorum(g), label, text);
  }
  for (const sched::PendingPod& p : result.pending) {
    if (group_of(p.pod) != nullptr) continue;
    const sched::PendingShown shown = sched::ShownPending(p);
    rows += fmt::format("<tr><td>Pod {}</td><td>-</td><td>{}</td><td class=\"msg\">{}</td></tr>\n", Text(p.pod),
                        Text(shown.label), Text(shown.text));
  }
  out += "<h2>Pending</h2>\n";
  if (rows.empty()) {
    out += "<p>No group or pod is pending.</p>\n";
  } else {
    out += "<div class=\"wrap\"><table id=\"pending\"><tr><th>group</th><th>scheduled</th><th>reason</th>"
           "<th>message</th></tr>\n" +
           rows + "</table></div>\n";
  }

  out += "<h2>Evictions</h2>\n";
  if (result.evictions.empty()) {
    out += "<p>No pod was evicted.</p>\n";
  } else {
    out += "<div class=\"wrap\"><table id=\"evictions\"><tr><th>victim</th><th>node</th><th>preempted by</th>"
           "<th>why this victim</th></tr>\n";
    for (const sched::Eviction& e : result.evictions) {
      out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"msg\">{}</td></tr>\n", Text(e.pod),
                         Text(e.node), Text(e.preemptor), Text(e.reason));
    }
    out += "</table></div>\n";
  }
  if (!result.notes.empty()) {
    out += "<h2>Notes</h2>\n<ul>\n";
    for (const std::string& n : result.notes) out += "<li>" + Text(n) + "</li>\n";
    out += "</ul>\n";
  }
  out += "</body></html>\n";
  return out;
}

}  // namespace wasched::cli
