#include "codec/validation_encoding.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace wasched::codec {
namespace {

TEST(ValidationEncodingTest, ContractShapeAndEscaping) {
  InputErrors errors{{api::SourceRef{"wl.yaml", 1}, "Workload ns/w",
                      FieldError{FieldErrorType::kInvalid,
                                 "spec.podGroupTemplates[0].schedulingPolicy.gang.minCount", "-1",
                                 "must be greater than or equal to 1 \"quoted\"\n", "minimum"}}};
  std::string out = EncodeValidationReportJson(errors);
  EXPECT_EQ(out.back(), '\n');
  auto doc = nlohmann::json::parse(out);
  ASSERT_EQ(doc["errors"].size(), 1u);
  EXPECT_EQ(doc["errors"][0]["type"], "Invalid");
  EXPECT_EQ(doc["errors"][0]["origin"], "minimum");
  EXPECT_EQ(doc["errors"][0]["detail"], "must be greater than or equal to 1 \"quoted\"\n");
  EXPECT_LT(out.find("\"object\""), out.find("\"type\""));  // contract key order
  EXPECT_EQ(EncodeValidationReportJson({}), "{\n  \"errors\": []\n}\n");
}

}  // namespace
}  // namespace wasched::codec
