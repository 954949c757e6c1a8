// File: codec/decode_common_test.cc
//
// RFC 3339 timestamps as metav1.Time parses them.
#include "codec/decode_common.h"

#include <gtest/gtest.h>

namespace wasched::codec::internal {
namespace {

TEST(CodecRfc3339Test, Valid) {
  EXPECT_EQ(ParseRfc3339("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(ParseRfc3339("2024-05-01T12:00:00Z"), 1714564800);
  EXPECT_EQ(ParseRfc3339("2024-05-01T12:00:00.999Z"), 1714564800);
  EXPECT_EQ(ParseRfc3339("2024-05-01T14:00:00+02:00"), 1714564800);
  EXPECT_EQ(ParseRfc3339("2024-05-01T07:30:00-04:30"), 1714564800);
  EXPECT_EQ(ParseRfc3339("2024-02-29T00:00:00Z"), 1709164800);
  EXPECT_EQ(ParseRfc3339("1969-12-31T23:59:59Z"), -1);
}

TEST(CodecRfc3339Test, Invalid) {
  for (const char* text : {"", "2024-05-01", "2024-05-01 12:00:00Z", "2024-05-01T12:00:00",
                           "2023-02-29T00:00:00Z", "2024-13-01T00:00:00Z", "2024-05-01T24:00:00Z",
                           "2024-05-01T12:00:00.Z", "2024-05-01T12:00:00+2:00",
                           "2024-05-01T12:00:00Zjunk", "yesterday"}) {
    EXPECT_FALSE(ParseRfc3339(text).has_value()) << text;
  }
}

}  // namespace
}  // namespace wasched::codec::internal
