#include "codec/validation_encoding.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>

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
  EXPECT_LT(out.find("\"detail\""), out.find("\"file\""));   // extra keys after the contract's
  EXPECT_EQ(doc["errors"][0]["file"], "wl.yaml");
  EXPECT_EQ(doc["errors"][0]["document"], 1);
  EXPECT_EQ(doc["errors"][0]["value"], "-1");
  EXPECT_EQ(EncodeValidationReportJson({}),
            "{\n  \"errors\": [],\n  \"warnings\": []\n}\n");
}

// Only the contract's seven types appear; the field path and origin are kept as they are, and a
// NotFound says what was not found.
TEST(ValidationEncodingTest, TypesOutsideTheContractBecomeInvalid) {
  InputErrors errors{
      {api::SourceRef{"p.yaml", 1}, "Pod default/p",
       FieldError{FieldErrorType::kNotFound, "spec.nodeName", "\"ghost\"", "", ""}},
      {api::SourceRef{"p.yaml", 2}, "Pod default/q",
       FieldError{FieldErrorType::kTypeInvalid, "spec.priority", "",
                  "expected integer, got string \"x\"", ""}},
      {api::SourceRef{"pg.yaml", 1}, "PodGroup default/g",
       FieldError{FieldErrorType::kTooLong, "status.conditions[0].message", "",
                  "may not be more than 32768 bytes", ""}},
      {api::SourceRef{"missing.yaml", 0}, "",
       FieldError{FieldErrorType::kNotFound, "", "", "no such file or directory", ""}},
      {api::SourceRef{"p.yaml", 3}, "Pod default/r",
       FieldError{FieldErrorType::kDuplicate, "spec.containers[0].resources.requests[cpu]", "",
                  "mapping key already defined", ""}}};
  const auto doc = nlohmann::json::parse(EncodeValidationReportJson(errors));
  ASSERT_EQ(doc["errors"].size(), 5u);
  EXPECT_EQ(doc["errors"][0]["type"], "Invalid");
  EXPECT_EQ(doc["errors"][0]["field"], "spec.nodeName");
  EXPECT_EQ(doc["errors"][0]["detail"], "not found: \"ghost\"");
  EXPECT_EQ(doc["errors"][1]["type"], "Invalid");
  EXPECT_EQ(doc["errors"][1]["field"], "spec.priority");
  EXPECT_EQ(doc["errors"][1]["detail"], "expected integer, got string \"x\"");
  EXPECT_EQ(doc["errors"][2]["type"], "Invalid");
  EXPECT_EQ(doc["errors"][2]["detail"], "may not be more than 32768 bytes");
  EXPECT_EQ(doc["errors"][3]["type"], "Invalid");
  EXPECT_EQ(doc["errors"][3]["detail"], "not found: no such file or directory");
  EXPECT_EQ(doc["errors"][4]["type"], "Duplicate");
  const std::set<std::string> contract = {"Required", "Invalid",   "NotSupported", "Forbidden",
                                          "TooMany",  "Duplicate", "InternalError"};
  for (int t = 0; t <= static_cast<int>(FieldErrorType::kTypeInvalid); ++t) {
    const InputErrors one{
        {api::SourceRef{}, "", FieldError{static_cast<FieldErrorType>(t), "f", "v", "d", ""}}};
    const auto j = nlohmann::json::parse(EncodeValidationReportJson(one));
    EXPECT_TRUE(contract.count(j["errors"][0]["type"].get<std::string>())) << j.dump();
  }
}

}  // namespace
}  // namespace wasched::codec
