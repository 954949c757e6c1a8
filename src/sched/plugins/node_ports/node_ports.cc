// File: sched/plugins/node_ports/node_ports.cc
#include "sched/plugins/node_ports/node_ports.h"

namespace wasched::sched::plugins {
namespace {

// ForEachHostPort: f(port) for every host port the pod holds; stops when f returns false.
template <typename F>
bool ForEachHostPort(const api::Pod& pod, F&& f) {
  for (const api::Container& c : pod.init_containers) {
    if (!c.restart_policy_always) continue;  // only sidecars run for the pod's lifetime
    for (const api::ContainerPort& p : c.ports) {
      if (p.host_port > 0 && !f(p)) return false;
    }
  }
  for (const api::Container& c : pod.containers) {
    for (const api::ContainerPort& p : c.ports) {
      if (p.host_port > 0 && !f(p)) return false;
    }
  }
  return true;
}

bool AllAddresses(std::string_view ip) { return ip.empty() || ip == "0.0.0.0"; }

std::string_view Protocol(const api::ContainerPort& p) {
  return p.protocol.empty() ? std::string_view("TCP") : std::string_view(p.protocol);
}

}  // namespace

bool HasHostPorts(const api::Pod& pod) {
  return !ForEachHostPort(pod, [](const api::ContainerPort&) { return false; });
}

bool PortsConflict(const api::ContainerPort& a, const api::ContainerPort& b) {
  if (a.host_port <= 0 || a.host_port != b.host_port || Protocol(a) != Protocol(b)) return false;
  return AllAddresses(a.host_ip) || AllAddresses(b.host_ip) || a.host_ip == b.host_ip;
}

bool PortsFit(const api::Pod& pod, std::span<const PodIndex> on_node,
              const std::vector<PodInfo>& pods) {
  for (PodIndex other : on_node) {
    const api::Pod& used = *pods[other].pod;
    const bool fits = ForEachHostPort(pod, [&](const api::ContainerPort& want) {
      return ForEachHostPort(used, [&](const api::ContainerPort& have) {
        return !PortsConflict(want, have);
      });
    });
    if (!fits) return false;
  }
  return true;
}

}  // namespace wasched::sched::plugins
