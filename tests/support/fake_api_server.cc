// File: tests/support/fake_api_server.cc
#include "support/fake_api_server.h"

#include <chrono>

namespace wasched::testing {
namespace {

using nlohmann::json;

kube::HttpResponse Answer(int status, const json& body) { return {status, body.dump()}; }

kube::HttpResponse StatusAnswer(int status, const std::string& reason, const std::string& message) {
  return Answer(status, json{{"kind", "Status"}, {"apiVersion", "v1"}, {"status", "Failure"},
                             {"reason", reason}, {"message", message}, {"code", status}});
}

bool EndsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

class SharedTransport final : public kube::Transport {
 public:
  explicit SharedTransport(FakeApiServer* server) : server_(server) {}
  tl::expected<kube::HttpResponse, kube::TransportError> Do(const kube::HttpRequest& r) override {
    return server_->Handle(r);
  }
  tl::expected<kube::HttpResponse, kube::TransportError> Stream(
      const kube::HttpRequest& r, const std::function<bool(std::string_view)>&) override {
    return server_->Handle(r);
  }

 private:
  FakeApiServer* server_;
};

}  // namespace

void FakeApiServer::Put(const std::string& path, json object) {
  std::lock_guard<std::mutex> lock(mu_);
  object["metadata"]["resourceVersion"] = std::to_string(++version_);
  objects_[path] = std::move(object);
}

json FakeApiServer::Get(const std::string& path) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = objects_.find(path);
  return it == objects_.end() ? json() : it->second;
}

std::vector<std::string> FakeApiServer::Requests() const {
  std::lock_guard<std::mutex> lock(mu_);
  return requests_;
}

std::vector<std::string> FakeApiServer::Bodies() const {
  std::lock_guard<std::mutex> lock(mu_);
  return bodies_;
}

void FakeApiServer::FailBindingOf(const std::string& pod_path, int times) {
  std::lock_guard<std::mutex> lock(mu_);
  fail_binding_[pod_path] = times;
}

void FakeApiServer::SetUnreachable(bool unreachable) {
  std::lock_guard<std::mutex> lock(mu_);
  unreachable_ = unreachable;
}

bool FakeApiServer::WaitFor(const std::function<bool()>& done, double timeout_seconds) {
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(timeout_seconds));
  while (true) {
    size_t seen = 0;
    {
      std::lock_guard<std::mutex> lock(mu_);
      seen = requests_.size();
    }
    if (done()) return true;
    std::unique_lock<std::mutex> lock(mu_);
    if (!cv_.wait_until(lock, deadline, [&] { return requests_.size() != seen; })) {
      lock.unlock();
      return done();
    }
  }
}

std::unique_ptr<kube::Transport> FakeApiServer::Transport() {
  return std::make_unique<SharedTransport>(this);
}

tl::expected<kube::HttpResponse, kube::TransportError> FakeApiServer::Handle(
    const kube::HttpRequest& r) {
  std::lock_guard<std::mutex> lock(mu_);
  if (unreachable_) return tl::unexpected(kube::TransportError{"fake: connection refused"});
  requests_.push_back(r.method + " " + r.path);
  bodies_.push_back(r.body);
  cv_.notify_all();  // the answer below is computed under the same lock: waiters see it done
  const json body = r.body.empty() ? json() : json::parse(r.body, nullptr, false);
  if (r.method == "GET") {
    std::string path = r.path;
    if (EndsWith(path, "/status")) path = path.substr(0, path.size() - 7);  // the subresource
    auto it = objects_.find(path);
    if (it == objects_.end()) return StatusAnswer(404, "NotFound", r.path + " not found");
    return Answer(200, it->second);
  }
  if (r.method == "POST" && EndsWith(r.path, "/binding")) {
    const std::string pod_path = r.path.substr(0, r.path.size() - 8);
    auto fail = fail_binding_.find(pod_path);
    if (fail != fail_binding_.end() && fail->second > 0) {
      --fail->second;
      return StatusAnswer(404, "NotFound", "node not found");
    }
    auto it = objects_.find(pod_path);
    if (it == objects_.end()) return StatusAnswer(404, "NotFound", "pod not found");
    json& pod = it->second;
    if (!pod["spec"].value("nodeName", "").empty()) {
      return StatusAnswer(409, "Conflict", "pod is already assigned to node");
    }
    if (body["metadata"].contains("uid") && body["metadata"]["uid"] != pod["metadata"]["uid"]) {
      return StatusAnswer(409, "Conflict", "uid precondition failed");
    }
    pod["spec"]["nodeName"] = body["target"]["name"];
    pod["metadata"]["resourceVersion"] = std::to_string(++version_);
    return Answer(201, json{{"kind", "Status"}, {"status", "Success"}});
  }
  if (r.method == "POST") {
    const std::string path = r.path + "/" + body["metadata"].value("name", "");
    if (objects_.count(path) > 0) return StatusAnswer(409, "AlreadyExists", "already exists");
    json object = body;
    object["metadata"]["resourceVersion"] = std::to_string(++version_);
    objects_[path] = object;
    return Answer(201, object);
  }
  if (r.method == "PUT") {
    std::string path = r.path;
    if (EndsWith(path, "/status")) path = path.substr(0, path.size() - 7);
    auto it = objects_.find(path);
    if (it == objects_.end()) return StatusAnswer(404, "NotFound", path + " not found");
    if (body["metadata"].value("resourceVersion", "") !=
        it->second["metadata"].value("resourceVersion", "")) {
      return StatusAnswer(409, "Conflict", "the object has been modified");
    }
    json object = body;
    object["metadata"]["resourceVersion"] = std::to_string(++version_);
    it->second = object;
    return Answer(200, object);
  }
  if (r.method == "PATCH") {
    std::string path = r.path;
    if (EndsWith(path, "/status")) path = path.substr(0, path.size() - 7);
    auto it = objects_.find(path);
    if (it == objects_.end()) return StatusAnswer(404, "NotFound", path + " not found");
    if (body.contains("status")) {
      for (auto& [k, v] : body["status"].items()) it->second["status"][k] = v;
    }
    it->second["metadata"]["resourceVersion"] = std::to_string(++version_);
    return Answer(200, it->second);
  }
  if (r.method == "DELETE") {
    auto it = objects_.find(r.path);
    if (it == objects_.end()) return StatusAnswer(404, "NotFound", r.path + " not found");
    if (body.contains("preconditions") &&
        body["preconditions"].value("uid", "") != it->second["metadata"].value("uid", "")) {
      return StatusAnswer(409, "Conflict", "Precondition failed: UID in precondition");
    }
    objects_.erase(it);
    return Answer(200, json{{"kind", "Status"}, {"status", "Success"}});
  }
  return StatusAnswer(405, "MethodNotAllowed", r.method);
}

}  // namespace wasched::testing
