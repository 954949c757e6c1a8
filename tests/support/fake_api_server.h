// File: tests/support/fake_api_server.h
//
// An in-memory stand-in for the API server's REST surface that the live scheduler writes to
// (tests of src/live/): objects stored by path with a resourceVersion, optimistic concurrency
// on PUT (409 on a stale resourceVersion), POST to a collection (409 when the name exists),
// pods/binding (409 when already bound or the UID differs), DELETE with a UID precondition,
// PATCH recorded (and merged shallowly into status for pods/status). Every request is recorded
// as "METHOD path". Thread-safe (the write workers call it from several threads); Transport()
// hands out transports that share this server.
#pragma once

#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kube/transport.h"

namespace wasched::testing {

class FakeApiServer {
 public:
  // Put: stores `object` at `path` (e.g. "/api/v1/namespaces/ns/pods/p"), setting
  // metadata.resourceVersion.
  void Put(const std::string& path, nlohmann::json object);
  // Get: the object at `path`, or null.
  [[nodiscard]] nlohmann::json Get(const std::string& path) const;
  // Requests: every request so far, "METHOD path" (bodies in Bodies()).
  [[nodiscard]] std::vector<std::string> Requests() const;
  [[nodiscard]] std::vector<std::string> Bodies() const;
  // FailBindingOf: bindings of this pod path ("/api/v1/namespaces/ns/pods/p") answer 404 (the
  // node is gone) `times` times.
  void FailBindingOf(const std::string& pod_path, int times);
  // Unreachable: every request fails without an answer while set.
  void SetUnreachable(bool unreachable);

  // WaitFor: blocks until `done()` holds, re-checked after every request the server gets, at most
  // `timeout_seconds`; returns done(). `done` may call the server (it runs without its lock).
  bool WaitFor(const std::function<bool()>& done, double timeout_seconds);

  [[nodiscard]] std::unique_ptr<kube::Transport> Transport();

  tl::expected<kube::HttpResponse, kube::TransportError> Handle(const kube::HttpRequest& r);

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;  // notified after every request
  std::map<std::string, nlohmann::json> objects_;
  std::vector<std::string> requests_;
  std::vector<std::string> bodies_;
  std::map<std::string, int> fail_binding_;
  int64_t version_ = 100;
  bool unreachable_ = false;
};

}  // namespace wasched::testing
