// File: live/http_endpoints.h
//
// The live scheduler's HTTP endpoints, plain HTTP on 127.0.0.1 by default (kube-scheduler serves
// the same paths on its secure port 10259): `/healthz` (200 "ok" while the process runs),
// `/readyz` (200 once every informer has synced, leader or standby, as kube-scheduler's; 503
// before) and `/metrics` (live/metrics.h, text/plain; version=0.0.4). Served by
// cpp-httplib on its own threads.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include <tl/expected.hpp>

#include "live/metrics.h"

namespace wasched::live {

class Endpoints {
 public:
  // Start: binds `address` ("HOST:PORT"; port 0 picks a free one) and serves in the background.
  // Errors: an address that is not HOST:PORT, or a port that cannot be bound (one line).
  // `metrics` and `ready` must outlive the Endpoints.
  [[nodiscard]] static tl::expected<std::unique_ptr<Endpoints>, std::string> Start(
      const std::string& address, const Metrics* metrics, std::function<bool()> ready);
  ~Endpoints();
  Endpoints(const Endpoints&) = delete;
  Endpoints& operator=(const Endpoints&) = delete;

  // Port: the bound port.
  [[nodiscard]] int Port() const { return port_; }

 private:
  Endpoints() = default;
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int port_ = 0;
};

}  // namespace wasched::live
