// File: util/sha1_test.cc
#include "util/sha1.h"

#include <gtest/gtest.h>

namespace wasched {
namespace {

TEST(Sha1Test, KnownDigests) {
  // FIPS 180 test vectors.
  EXPECT_EQ(Sha1Hex(""), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  EXPECT_EQ(Sha1Hex("abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
}

}  // namespace
}  // namespace wasched
