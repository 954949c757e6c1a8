// File: util/key_order_test.cc
#include "util/key_order.h"

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace wasched {
namespace {

// The order equals std::sort over the strings (ties by index) for keys with long shared
// prefixes, prefixes of each other, equal heads and empty keys.
TEST(KeyOrderTest, SameOrderAsStringSort) {
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    std::vector<std::string> keys;
    const int n = 1 + static_cast<int>(rng() % (round % 2 == 0 ? 60 : 400));  // both sort paths
    const std::string prefix = round % 3 == 0 ? "" : "sched-test/pod-";
    for (int i = 0; i < n; ++i) {
      std::string k = prefix;
      const int len = static_cast<int>(rng() % 14);
      for (int c = 0; c < len; ++c) k += static_cast<char>('-' + rng() % 4 * 2 + (rng() % 2) * 49);
      keys.push_back(k);
    }
    if (n > 3) keys[1] = keys[0];  // an equal pair
    std::vector<int32_t> order(keys.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int32_t>(i);
    std::vector<int32_t> expected = order;
    std::sort(expected.begin(), expected.end(), [&](int32_t a, int32_t b) {
      return keys[a] != keys[b] ? keys[a] < keys[b] : a < b;
    });
    std::shuffle(order.begin(), order.end(), rng);
    OrderByKey(order, [&](int32_t i) { return std::string_view(keys[i]); });
    EXPECT_EQ(order, expected) << "round " << round;
  }
}

TEST(KeyOrderTest, ShorterKeySortsFirst) {
  const std::vector<std::string> keys = {"ns/pod-10", "ns/pod-1", "ns/pod-100000000000", "ns/pod-1000000000"};
  std::vector<int32_t> order = {0, 1, 2, 3};
  OrderByKey(order, [&](int32_t i) { return std::string_view(keys[i]); });
  EXPECT_EQ(order, (std::vector<int32_t>{1, 0, 3, 2}));
}

}  // namespace
}  // namespace wasched
