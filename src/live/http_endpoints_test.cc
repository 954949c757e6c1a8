// File: live/http_endpoints_test.cc
#include "live/http_endpoints.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace wasched::live {
namespace {

using ::testing::HasSubstr;

// A port another process (here: another Endpoints) listens on is refused: cpp-httplib's default
// SO_REUSEPORT let two schedulers share one port and answer each other's /metrics (new-user
// trial).
TEST(Endpoints, APortInUseIsRefused) {
  Metrics metrics("wasched");
  auto first = Endpoints::Start("127.0.0.1:0", &metrics, [] { return true; });
  ASSERT_TRUE(first.has_value()) << first.error();
  const int port = (*first)->Port();
  ASSERT_GT(port, 0);
  auto second = Endpoints::Start("127.0.0.1:" + std::to_string(port), &metrics, [] { return true; });
  ASSERT_FALSE(second.has_value());
  EXPECT_THAT(second.error(), HasSubstr("cannot bind"));
}

TEST(Endpoints, AddressesThatAreNotHostPortAreRefused) {
  Metrics metrics("wasched");
  for (const char* bad : {"10359", ":10359", "127.0.0.1:", "127.0.0.1:70000", "127.0.0.1:x"}) {
    auto e = Endpoints::Start(bad, &metrics, [] { return true; });
    EXPECT_FALSE(e.has_value()) << bad;
  }
}

}  // namespace
}  // namespace wasched::live
