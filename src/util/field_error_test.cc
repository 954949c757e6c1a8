// Tests of util/field_error: rendering of error lines (QA1 finding 12: over-long values).
#include "util/field_error.h"
#include "util/field_value.h"

#include <gtest/gtest.h>

#include <string>

namespace wasched {
namespace {

TEST(FieldErrorTest, ShortValuesAreEchoedInFull) {
  const std::string name = "\"" + std::string(64, 'a') + "\"";
  FieldError e{FieldErrorType::kInvalid, "metadata.name", name,
               "must be no more than 63 characters", ""};
  EXPECT_EQ(e.ToString(), "metadata.name: Invalid value: " + name +
                              ": must be no more than 63 characters");
}

TEST(FieldErrorTest, LongValuesAreTruncatedToTheFirst64BytesAndAnEllipsis) {
  const std::string expr = "\"" + std::string(200 * 1024, '(') + "\"";
  FieldError e{FieldErrorType::kInvalid, "spec.x", expr, "bad", ""};
  EXPECT_EQ(e.ToString(), "spec.x: Invalid value: \"" + std::string(63, '(') + "\u2026\": bad");
  InputError in{api::SourceRef{"a.yaml", 2}, "DeviceClass gpu", e};
  EXPECT_LT(in.ToString().size(), 150U);
}

TEST(FieldErrorTest, TruncationNeverSplitsAUtf8Character) {
  // 63 ASCII bytes, then "é" (2 bytes) straddling the 64-byte cut.
  const std::string value = std::string(63, 'x') + "\u00e9" + std::string(300, 'y');
  EXPECT_EQ(RenderValue(value), std::string(63, 'x') + "\u2026");
  EXPECT_EQ(RenderValue("short"), "short");
}

}  // namespace
}  // namespace wasched
