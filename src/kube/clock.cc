// File: kube/clock.cc
#include "kube/clock.h"

#include <chrono>
#include <thread>

namespace wasched::kube {

Clock SteadyClock() {
  Clock clock;
  clock.now = [] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  };
  clock.sleep = [](double seconds) {
    if (seconds > 0) std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  };
  return clock;
}

}  // namespace wasched::kube
