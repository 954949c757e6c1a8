// File: cli/run_command.h
//
// `wasched run`: the live scheduler (issue 17). It watches the cluster through the API server,
// schedules the pods whose spec.schedulerName is its profile's (`wasched` by default) with the
// same engine as `schedule`, and writes the decisions back: bindings, victims' deletions, pod
// and group status, events (live/scheduling_loop.h). Leader election through a Lease
// (live/leader_election.h), /healthz, /readyz and /metrics on --bind-address
// (live/http_endpoints.h).
//
//   wasched run [--kubeconfig PATH] [--context C] [--config FILE] [--scheduler-name NAME]
//               [--leader-elect=true|false] [--lease-namespace NS] [--lease-name NAME]
//               [--identity ID] [--bind-address HOST:PORT] [--write-workers N]
//               [--feature-gates K=V,...] [-v N]
//
// Exit codes: 0 stopped by SIGTERM or SIGINT (queued bindings and deletions finished, the lease
// released); 1 an unusable kubeconfig or config file, or a --bind-address that cannot be bound;
// 2 usage; 4 the API server unreachable at start, credentials refused (401), RBAC forbidden
// (403) on a resource it needs, or the leader lease lost (a standby takes over).
#pragma once

#include <iosfwd>
#include <optional>

#include <CLI/CLI.hpp>

namespace wasched::cli {

// RunRunIfSelected: registers `run` on `app`; when argv selects it, parses and runs it. Once the
// scheduler started, the process ends inside (std::_Exit after a clean stop: the watch threads
// are never joined). std::nullopt when another subcommand is selected.
[[nodiscard]] std::optional<int> RunRunIfSelected(CLI::App& app, int argc,
                                                  const char* const* argv, std::ostream& out,
                                                  std::ostream& err);

}  // namespace wasched::cli
