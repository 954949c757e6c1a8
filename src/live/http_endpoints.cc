// File: live/http_endpoints.cc
#include "live/http_endpoints.h"

#include <atomic>
#include <chrono>
#include <thread>

#include <httplib.h>

namespace wasched::live {

struct Endpoints::Impl {
  httplib::Server server;
  std::thread thread;
  std::atomic<bool> ended{false};  // the accept loop returned
};

tl::expected<std::unique_ptr<Endpoints>, std::string> Endpoints::Start(
    const std::string& address, const Metrics* metrics, std::function<bool()> ready) {
  const size_t colon = address.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == address.size()) {
    return tl::unexpected("--bind-address " + address + ": must be HOST:PORT");
  }
  const std::string host = address.substr(0, colon);
  int port = 0;
  try {
    size_t used = 0;
    port = std::stoi(address.substr(colon + 1), &used);
    if (used != address.size() - colon - 1 || port < 0 || port > 65535) throw std::out_of_range("");
  } catch (const std::exception&) {
    return tl::unexpected("--bind-address " + address + ": the port must be 0-65535");
  }
  std::unique_ptr<Endpoints> endpoints(new Endpoints());
  endpoints->impl_ = std::make_unique<Impl>();
  httplib::Server& server = endpoints->impl_->server;
  // SO_REUSEADDR only: cpp-httplib's default also sets SO_REUSEPORT, which let a second process
  // bind the same port and answer half of the requests (seen: two instances on one port).
  server.set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, reinterpret_cast<const void*>(&yes), sizeof yes);
  });
  server.Get("/healthz", [](const httplib::Request&, httplib::Response& res) {
    res.set_content("ok", "text/plain");
  });
  server.Get("/readyz", [ready](const httplib::Request&, httplib::Response& res) {
    if (ready()) {
      res.set_content("ok", "text/plain");
    } else {
      res.status = 503;
      res.set_content("not ready: the informers have not listed every kind yet", "text/plain");
    }
  });
  server.Get("/metrics", [metrics](const httplib::Request&, httplib::Response& res) {
    res.set_content(metrics->Render(), "text/plain; version=0.0.4; charset=utf-8");
  });
  if (port == 0) {
    port = server.bind_to_any_port(host);
    if (port < 0) return tl::unexpected("--bind-address " + address + ": cannot bind");
  } else if (!server.bind_to_port(host, port)) {
    return tl::unexpected("--bind-address " + address +
                          ": cannot bind (in use, or not an address of this machine)");
  }
  endpoints->port_ = port;
  Impl* impl = endpoints->impl_.get();
  impl->thread = std::thread([impl] {
    impl->server.listen_after_bind();
    impl->ended = true;
  });
  // Until the accept loop runs, Server::stop() is a no-op (cpp-httplib 0.11 stops only a running
  // server), so a destructor right after Start would join a thread that never ends (seen: a test
  // hung in CI). Wait for it; the loop starts within microseconds.
  while (!impl->server.is_running() && !impl->ended.load()) {
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  return endpoints;
}

Endpoints::~Endpoints() {
  if (impl_ != nullptr) {
    impl_->server.stop();
    if (impl_->thread.joinable()) impl_->thread.join();
  }
}

}  // namespace wasched::live
