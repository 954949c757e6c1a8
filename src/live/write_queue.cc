// File: live/write_queue.cc
#include "live/write_queue.h"

#include <chrono>
#include <memory>

#include "kube/api_client.h"
#include "kube/rate_limiter.h"

namespace wasched::live {

// SharedLimiter: one token bucket for every worker (kube::RateLimiter is single-threaded).
class SharedLimiter {
 public:
  SharedLimiter(double qps, int burst) : limiter_(qps, burst, kube::SteadyClock()) {}
  void Wait() {
    std::lock_guard<std::mutex> lock(mu_);
    (void)limiter_.Wait();
  }

 private:
  std::mutex mu_;
  kube::RateLimiter limiter_;
};

namespace {

// LimitedTransport: waits on the shared limiter before each request of the inner transport.
class LimitedTransport final : public kube::Transport {
 public:
  LimitedTransport(std::unique_ptr<kube::Transport> inner, SharedLimiter* limiter)
      : inner_(std::move(inner)), limiter_(limiter) {}
  tl::expected<kube::HttpResponse, kube::TransportError> Do(
      const kube::HttpRequest& request) override {
    if (limiter_ != nullptr) limiter_->Wait();
    return inner_->Do(request);
  }
  tl::expected<kube::HttpResponse, kube::TransportError> Stream(
      const kube::HttpRequest& request,
      const std::function<bool(std::string_view)>& on_data) override {
    if (limiter_ != nullptr) limiter_->Wait();
    return inner_->Stream(request, on_data);
  }

 private:
  std::unique_ptr<kube::Transport> inner_;
  SharedLimiter* limiter_;
};

}  // namespace

WriteQueue::WriteQueue(std::function<std::unique_ptr<kube::Transport>()> make_transport,
                       std::string server, WallClock clock, WriteQueueOptions options)
    : make_transport_(std::move(make_transport)), server_(std::move(server)),
      clock_(std::move(clock)), options_(std::move(options)) {
  if (options_.qps > 0) {
    limiter_ = std::make_unique<SharedLimiter>(options_.qps, options_.burst);
    event_limiter_ = std::make_unique<SharedLimiter>(options_.qps, options_.burst);
  }
  for (int i = 0; i < options_.workers; ++i) {
    workers_.emplace_back(&WriteQueue::Work, this);
  }
}

WriteQueue::~WriteQueue() { Stop(); }

void WriteQueue::PushUrgent(WriteTask task) {
  std::lock_guard<std::mutex> lock(mu_);
  urgent_.push_back(std::move(task));
  cv_.notify_one();
}

void WriteQueue::PushNormal(WriteTask task) {
  std::lock_guard<std::mutex> lock(mu_);
  normal_.push_back(std::move(task));
  cv_.notify_one();
}

bool WriteQueue::PushEvent(WriteTask task) {
  std::lock_guard<std::mutex> lock(mu_);
  if (events_.size() >= options_.max_events) {
    ++dropped_events_;
    return false;
  }
  events_.push_back(std::move(task));
  cv_.notify_one();
  return true;
}

bool WriteQueue::Idle() const {
  std::lock_guard<std::mutex> lock(mu_);
  return urgent_.empty() && normal_.empty() && events_.empty() && running_ == 0;
}

bool WriteQueue::WaitIdle(double timeout_seconds) {
  std::unique_lock<std::mutex> lock(mu_);
  return idle_cv_.wait_for(lock, std::chrono::duration<double>(timeout_seconds), [&] {
    return urgent_.empty() && normal_.empty() && events_.empty() && running_ == 0;
  });
}

uint64_t WriteQueue::DroppedEvents() const {
  std::lock_guard<std::mutex> lock(mu_);
  return dropped_events_;
}

void WriteQueue::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_ && workers_.empty()) return;
    stopping_ = true;
    events_.clear();
    cv_.notify_all();
  }
  for (std::thread& t : workers_) {
    if (t.joinable()) t.join();
  }
  workers_.clear();
}

bool WriteQueue::StopWithin(double seconds) {
  bool drained = false;
  {
    std::unique_lock<std::mutex> lock(mu_);
    stopping_ = true;
    normal_.clear();
    events_.clear();
    cv_.notify_all();
    drained = idle_cv_.wait_for(lock, std::chrono::duration<double>(seconds),
                                [&] { return urgent_.empty() && running_ == 0; });
    if (!drained) urgent_.clear();
  }
  if (!drained) {
    for (std::thread& t : workers_) t.detach();
    workers_.clear();
    return false;
  }
  Stop();
  return true;
}

void WriteQueue::Work() {
  LimitedTransport transport(make_transport_(), limiter_.get());
  kube::ApiClient client(&transport, nullptr, server_);
  Writer writer(&client, clock_, options_.instance);
  // Events go through a client of their own with its own rate budget, as kube-scheduler's
  // separate event client (cmd/kube-scheduler/app/options: eventClient), made on first use.
  std::unique_ptr<LimitedTransport> event_transport;
  std::unique_ptr<kube::ApiClient> event_client;
  std::unique_ptr<Writer> event_writer;
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    cv_.wait(lock, [&] {
      return stopping_ || !urgent_.empty() || !normal_.empty() || !events_.empty();
    });
    std::deque<WriteTask>* from = !urgent_.empty()   ? &urgent_
                                  : !normal_.empty() ? &normal_
                                  : !events_.empty() ? &events_
                                                     : nullptr;
    if (from == nullptr) return;  // stopping and drained
    WriteTask task = std::move(from->front());
    from->pop_front();
    const bool is_event = from == &events_;
    ++running_;
    lock.unlock();
    if (is_event && event_writer == nullptr) {
      event_transport = std::make_unique<LimitedTransport>(make_transport_(), event_limiter_.get());
      event_client = std::make_unique<kube::ApiClient>(event_transport.get(), nullptr, server_);
      event_writer = std::make_unique<Writer>(event_client.get(), clock_, options_.instance);
    }
    task(is_event ? *event_writer : writer);
    lock.lock();
    --running_;
    if (running_ == 0 && urgent_.empty() && normal_.empty() && events_.empty()) {
      idle_cv_.notify_all();
    }
  }
}

}  // namespace wasched::live
