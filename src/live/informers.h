// File: live/informers.h
//
// One list/watch thread per resource the live scheduler reads (kube::SchedulingResources()
// without Jobs: `run` leaves Jobs to kube-controller-manager and schedules the pods it creates),
// each feeding the ObjectStore, as kube-scheduler's shared informers feed its cache
// (pkg/scheduler/eventhandlers.go, v1.37.2). Each thread has its own transport and client
// (kube/curl_transport.h: one request at a time per transport) and the reflector's behaviour of
// kube/list_watch.h: relist on 410 Gone, jittered reconnect backoff, so a restarted API server
// or a dropped watch ends in a relist and the scheduling loop carries on. A 404 on a non-core
// group marks the kind absent (a server without it); 401 and 403 are fatal (ObjectStore::
// SetFatal) and the caller exits.
//
// Thread-safety: Start once; the threads run until the process exits (a watch blocks until its
// server-side timeout, so they are detached and not joined: `run` ends with the process).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "kube/kubeconfig.h"
#include "live/object_store.h"

namespace wasched::live {

// InformerOptions: client-side rate limit per informer (requests per second, burst; lists and
// watch starts only) and the watch's server-side timeout (seconds).
struct InformerOptions {
  double qps = 50;
  int burst = 100;
  int watch_timeout_seconds = 300;
  uint64_t seed = 1;  // reconnect jitter
};

// WatchedTypes: indexes into kube::SchedulingResources() the informers watch (all but Job).
[[nodiscard]] std::vector<size_t> WatchedTypes();

// StartInformers: starts the threads; returns at once. `store` must outlive the process' use of
// it (the threads write to it until exit). `log(line)` is called (from the informer threads)
// for every list after the first of a kind: a watch was lost and the kind read again.
void StartInformers(const kube::RestConfig& config, ObjectStore* store,
                    const InformerOptions& options,
                    std::function<void(const std::string& line)> log = nullptr);

}  // namespace wasched::live
