// File: live/write_queue.h
//
// The live scheduler's asynchronous writes: a pool of worker threads, each with its own API
// client and Writer (live/api_writer.h), taking tasks from two queues — urgent (bindings,
// victim deletions) before normal (status conditions, nominated nodes) — plus a bounded event
// queue whose overflow is dropped and counted, as client-go's event broadcaster drops events
// under load rather than slowing scheduling. Binding in the background while the loop goes on is
// upstream's binding cycle (pkg/scheduler/schedule_one.go: assume, then bind asynchronously).
//
// Thread-safety: Push* from any thread; tasks run on the workers. Stop() waits for the queued
// urgent and normal tasks to finish (events left over are dropped) and joins the workers.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "kube/transport.h"
#include "live/api_writer.h"

namespace wasched::live {

class SharedLimiter;

// WriteTask: runs on a worker with that worker's Writer.
using WriteTask = std::function<void(Writer&)>;

// WriteQueueOptions: `workers` threads; client-side rate limit shared by all of them (qps <= 0:
// none), and the same again for events, which have a budget of their own; `max_events` queued
// events before dropping.
struct WriteQueueOptions {
  int workers = 16;
  double qps = 0;
  int burst = 0;
  size_t max_events = 1000;
  std::string instance;  // the events' reportingInstance
};

class WriteQueue {
 public:
  // `make_transport` is called once per worker thread, on that thread (kube::MakeCurlTransport in
  // `run`; a fake in tests); `server` names the API server in errors.
  WriteQueue(std::function<std::unique_ptr<kube::Transport>()> make_transport, std::string server,
             WallClock clock, WriteQueueOptions options);
  ~WriteQueue();
  WriteQueue(const WriteQueue&) = delete;
  WriteQueue& operator=(const WriteQueue&) = delete;

  void PushUrgent(WriteTask task);
  void PushNormal(WriteTask task);
  // PushEvent: false (and counted in DroppedEvents) when max_events are already queued.
  bool PushEvent(WriteTask task);
  // Idle: nothing queued and nothing running.
  [[nodiscard]] bool Idle() const;
  // WaitIdle: blocks until Idle() or `timeout_seconds` pass; returns Idle().
  bool WaitIdle(double timeout_seconds);
  [[nodiscard]] uint64_t DroppedEvents() const;
  // Stop: see the file comment. Idempotent.
  void Stop();
  // StopWithin: as Stop, but queued status writes are dropped too and the urgent ones get at most
  // `seconds`; when they are not done by then the workers are left running (detached) and false
  // is returned — for a process about to exit (SIGTERM must not wait on a slow API server; the
  // bindings not sent are decided again by the next scheduler from the cluster's state).
  bool StopWithin(double seconds);

 private:
  void Work();

  std::function<std::unique_ptr<kube::Transport>()> make_transport_;
  std::string server_;
  WallClock clock_;
  WriteQueueOptions options_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::condition_variable idle_cv_;
  std::deque<WriteTask> urgent_, normal_, events_;
  int running_ = 0;
  bool stopping_ = false;
  uint64_t dropped_events_ = 0;
  std::unique_ptr<SharedLimiter> limiter_;        // bindings, deletions, status
  std::unique_ptr<SharedLimiter> event_limiter_;  // events (a budget of their own)
  std::vector<std::thread> workers_;
};

}  // namespace wasched::live
