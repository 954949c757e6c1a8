// File: api/quantity_test.cc
//
// Quantity parsing and conversion, table-driven against upstream's ParseQuantity behaviour
// (including its quirks) and the int64 limits of Value() / MilliValue().
#include "api/quantity.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

namespace wasched::api {
namespace {

constexpr const char* kFormatWrong =
    "quantities must match the regular expression "
    "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
constexpr const char* kSuffix = "unable to parse quantity's suffix";
constexpr const char* kNumeric = "unable to parse numeric part of quantity";
constexpr const char* kTooLarge = "quantity too large";

struct ValueCase {
  const char* text;
  int64_t value;  // Value(), rounded up
  int64_t milli;  // MilliValue(), rounded up
};

class QuantityValueTest : public ::testing::TestWithParam<ValueCase> {};

TEST_P(QuantityValueTest, ParsesAndConverts) {
  const ValueCase& c = GetParam();
  auto q = Quantity::Parse(c.text);
  ASSERT_TRUE(q.has_value()) << c.text << ": " << q.error();
  auto value = q->Value();
  ASSERT_TRUE(value.has_value()) << c.text << ": " << value.error();
  EXPECT_EQ(*value, c.value) << c.text;
  auto milli = q->MilliValue();
  ASSERT_TRUE(milli.has_value()) << c.text << ": " << milli.error();
  EXPECT_EQ(*milli, c.milli) << c.text;
}

INSTANTIATE_TEST_SUITE_P(
    QuantityTable, QuantityValueTest,
    ::testing::Values(
        ValueCase{"0", 0, 0}, ValueCase{"1", 1, 1000}, ValueCase{"+5", 5, 5000},
        ValueCase{"00012", 12, 12000}, ValueCase{"500m", 1, 500}, ValueCase{"0.5", 1, 500},
        ValueCase{".5", 1, 500}, ValueCase{"1.", 1, 1000}, ValueCase{"1.G", 1000000000, 1000000000000},
        ValueCase{"250m", 1, 250}, ValueCase{"1500m", 2, 1500}, ValueCase{"2.5", 3, 2500},
        ValueCase{"1e3", 1000, 1000000}, ValueCase{"1E3", 1000, 1000000},
        ValueCase{"1e+3", 1000, 1000000}, ValueCase{"1E-3", 1, 1}, ValueCase{"1e-3", 1, 1},
        ValueCase{"1k", 1000, 1000000}, ValueCase{"1M", 1000000, 1000000000},
        ValueCase{"1G", 1000000000, 1000000000000}, ValueCase{"1T", 1000000000000, 1000000000000000},
        ValueCase{"1P", 1000000000000000, 1000000000000000000},
        ValueCase{"1Ki", 1024, 1024000}, ValueCase{"1Mi", 1048576, 1048576000},
        ValueCase{"1Gi", 1073741824, 1073741824000}, ValueCase{"1Ti", 1099511627776, 1099511627776000},
        ValueCase{"1Pi", 1125899906842624, 1125899906842624000},
        ValueCase{"1.5Gi", 1610612736, 1610612736000}, ValueCase{"1.5Ki", 1536, 1536000},
        ValueCase{"0.5Ki", 512, 512000}, ValueCase{"1.1Ki", 1127, 1126400},
        ValueCase{"0.0009765625Ki", 1, 1000}, ValueCase{"100n", 1, 1}, ValueCase{"1u", 1, 1},
        ValueCase{"1000000n", 1, 1}, ValueCase{"1n", 1, 1}, ValueCase{"-1", -1, -1000},
        ValueCase{"-1.5", -1, -1500}, ValueCase{"-100n", 0, 0}, ValueCase{"-1Ki", -1024, -1024000},
        ValueCase{"64000m", 64, 64000}, ValueCase{"262144Mi", 274877906944, 274877906944000},
        // 1.2345678901234567890123456789012345678901234567890e9, exact through 50 digits.
        ValueCase{"12345678901234567890123456789012345678901234567890e-40", 1234567891,
                  1234567890124},
        ValueCase{"0.000000000000000000000000000001", 1, 1}));

TEST(QuantityTest, Int64Limits) {
  auto max = Quantity::Parse("9223372036854775807");
  ASSERT_TRUE(max.has_value());
  EXPECT_EQ(max->Value().value(), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(max->MilliValue().error(), kTooLarge);

  auto over = Quantity::Parse("9223372036854775808");
  ASSERT_TRUE(over.has_value());
  EXPECT_EQ(over->Value().error(), kTooLarge);

  auto min = Quantity::Parse("-9223372036854775808");
  ASSERT_TRUE(min.has_value());
  EXPECT_EQ(min->Value().value(), std::numeric_limits<int64_t>::min());

  auto exa = Quantity::Parse("1E");
  ASSERT_TRUE(exa.has_value());
  EXPECT_EQ(exa->Value().value(), 1000000000000000000);
  EXPECT_EQ(exa->MilliValue().error(), kTooLarge);
  auto exbi = Quantity::Parse("1Ei");
  ASSERT_TRUE(exbi.has_value());
  EXPECT_EQ(exbi->Value().value(), 1152921504606846976);
  EXPECT_EQ(exbi->MilliValue().error(), kTooLarge);
  EXPECT_EQ(Quantity::Parse("1e20")->Value().error(), kTooLarge);
}

// The API server accepts a quantity of any size (apimachinery pkg/api/resource quantity.go
// ParseQuantity keeps an inf.Dec; the differential cases bad/overflow-quantity.yaml and
// bad/overflow-exponent.yaml: 0 errors on v1.37.2). Binary-suffix values are capped at 2^63-1
// units there ("The max is just a simple cap"); decimal ones beyond the int128 nano range are
// held saturated and flagged.
TEST(QuantityTest, BeyondNanoRepresentationIsAcceptedAsUpstream) {
  const auto max_units = std::numeric_limits<int64_t>::max();
  const __int128 int128_max = static_cast<__int128>(~static_cast<unsigned __int128>(0) >> 1);
  for (const char* text : {"1e100", "2e29", "1000000000000000000000000000000000000000000"}) {
    auto q = Quantity::Parse(text);
    ASSERT_TRUE(q.has_value()) << text;
    EXPECT_EQ(q->Nano(), int128_max) << text;
    EXPECT_EQ(q->Value().error(), kTooLarge) << text;
  }
  EXPECT_EQ(Quantity::Parse("-1e100")->Nano(), -int128_max);
  for (const char* text : {"1000000000000000000000Ei", "99999999999999999999Ei", "8Ei", "16Ei"}) {
    auto q = Quantity::Parse(text);
    ASSERT_TRUE(q.has_value()) << text;
    EXPECT_EQ(q->Value().value(), max_units) << text;
  }
  EXPECT_EQ(Quantity::Parse("-8Ei")->Value().value(), -max_units);
  EXPECT_EQ(Quantity::Parse("7Ei")->Value().value(), int64_t{7} << 60);
  EXPECT_TRUE(Quantity::Parse("1e29").has_value());
  EXPECT_TRUE(Quantity::Parse("-1e29").has_value());
  // What the API server refuses: an exponent beyond int64 (suffix.go interpret: ParseInt).
  EXPECT_EQ(Quantity::Parse("1e99999999999999999999").error(), "unable to parse quantity's suffix");
}

TEST(QuantityTest, NanoRoundsMagnitudeUp) {
  EXPECT_EQ(Quantity::Parse("0.1n")->Nano(), 1);
  EXPECT_EQ(Quantity::Parse("-0.1n")->Nano(), -1);
  EXPECT_EQ(Quantity::Parse("1e-100")->Nano(), 1);
  EXPECT_EQ(Quantity::Parse("1.0000000001Ki")->Nano(), static_cast<__int128>(1024000000103));
  EXPECT_EQ(Quantity::Parse("1.5")->Nano(), static_cast<__int128>(1500000000));
  EXPECT_EQ(Quantity::Parse("0e100")->Nano(), 0);
}

TEST(QuantityTest, Errors) {
  struct ErrorCase {
    const char* text;
    const char* error;
  };
  const ErrorCase cases[] = {
      {"", kFormatWrong},        {"5Xi", kFormatWrong},      {"1.1.M", kFormatWrong},
      {"1+1.0M", kFormatWrong},  {"0.1am", kFormatWrong},    {"aoeu", kFormatWrong},
      {" 1", kFormatWrong},      {"1 ", kFormatWrong},       {"1e3Ki", kFormatWrong},
      {"abc", kFormatWrong},     {"0.1mi", kSuffix},         {".5i", kSuffix},
      {"1i", kSuffix},           {"-3.01i", kSuffix},        {"-3.01e-", kSuffix},
      {"1K", kSuffix},           {"1e", kSuffix},            {"5Ki5", kSuffix},
      {"1ee5", kSuffix},         {"1e99999999999999999999", kSuffix},
      {".Ei", kNumeric},         {".e-10", kNumeric},        {"-Pi", kNumeric},
  };
  for (const ErrorCase& c : cases) {
    auto q = Quantity::Parse(c.text);
    ASSERT_FALSE(q.has_value()) << '"' << c.text << '"';
    EXPECT_EQ(q.error(), c.error) << '"' << c.text << '"';
  }
}

TEST(QuantityTest, UpstreamQuirksAreKept) {
  // Upstream's scanner accepts these as zero.
  for (const char* text : {".", "-", "+", "Ki", "m", "e5", "-0", "000"}) {
    auto q = Quantity::Parse(text);
    ASSERT_TRUE(q.has_value()) << text << ": " << q.error();
    EXPECT_EQ(q->Nano(), 0) << text;
  }
  // The exponent is parsed as int64 and truncated to int32: 2^32 becomes 0.
  EXPECT_EQ(Quantity::Parse("1e4294967296")->Value().value(), 1);
}

TEST(QuantityTest, FromIntAndFromMilli) {
  EXPECT_EQ(Quantity::FromInt(5).Value().value(), 5);
  EXPECT_EQ(Quantity::FromInt(5).MilliValue().value(), 5000);
  EXPECT_EQ(Quantity::FromMilli(1500).MilliValue().value(), 1500);
  EXPECT_EQ(Quantity::FromMilli(1500).Value().value(), 2);
  EXPECT_EQ(Quantity::FromMilli(1500), *Quantity::Parse("1.5"));
  EXPECT_TRUE(Quantity::FromInt(-1).IsNegative());
  EXPECT_FALSE(Quantity().IsNegative());
}

TEST(QuantityTest, IsMilliResource) {
  EXPECT_TRUE(IsMilliResource("cpu"));
  EXPECT_TRUE(IsMilliResource("requests.cpu"));
  EXPECT_TRUE(IsMilliResource("limits.cpu"));
  EXPECT_FALSE(IsMilliResource("memory"));
  EXPECT_FALSE(IsMilliResource("nvidia.com/gpu"));
  EXPECT_FALSE(IsMilliResource("alibabacloud.com/gpu-milli"));
}

TEST(QuantityTest, CanonicalAmount) {
  EXPECT_EQ(CanonicalAmount("cpu", *Quantity::Parse("500m")).value(), 500);
  EXPECT_EQ(CanonicalAmount("cpu", *Quantity::Parse("2")).value(), 2000);
  EXPECT_EQ(CanonicalAmount("memory", *Quantity::Parse("1Gi")).value(), 1073741824);
  EXPECT_EQ(CanonicalAmount("memory", *Quantity::Parse("500m")).value(), 1);
  EXPECT_EQ(CanonicalAmount("nvidia.com/gpu", *Quantity::Parse("8")).value(), 8);
  EXPECT_EQ(CanonicalAmount("cpu", *Quantity::Parse("1E")).error(), kTooLarge);
}

TEST(QuantityTest, FormatAmount) {
  EXPECT_EQ(FormatAmount("cpu", 1500), "1500m");
  EXPECT_EQ(FormatAmount("cpu", 2000), "2");
  EXPECT_EQ(FormatAmount("cpu", 0), "0");
  EXPECT_EQ(FormatAmount("cpu", 1), "1m");
  EXPECT_EQ(FormatAmount("cpu", -500), "-500m");
  EXPECT_EQ(FormatAmount("memory", 1073741824), "1Gi");
  EXPECT_EQ(FormatAmount("memory", 1610612736), "1536Mi");
  EXPECT_EQ(FormatAmount("memory", 1152921504606846976), "1Ei");
  EXPECT_EQ(FormatAmount("memory", 1000), "1000");
  EXPECT_EQ(FormatAmount("memory", 0), "0");
  EXPECT_EQ(FormatAmount("memory", -1024), "-1Ki");
  EXPECT_EQ(FormatAmount("ephemeral-storage", 2048), "2Ki");
  EXPECT_EQ(FormatAmount("hugepages-2Mi", 2097152), "2Mi");
  EXPECT_EQ(FormatAmount("pods", 110), "110");
  EXPECT_EQ(FormatAmount("nvidia.com/gpu", 1024), "1024");
  EXPECT_EQ(FormatAmount("memory", std::numeric_limits<int64_t>::min()), "-8Ei");
}

TEST(QuantityTest, RoundTripsThroughFormatAmount) {
  for (const char* name : {"cpu", "memory", "pods"}) {
    for (int64_t amount : {int64_t{0}, int64_t{1}, int64_t{999}, int64_t{1024}, int64_t{1536},
                           int64_t{1} << 40, int64_t{123456789}}) {
      auto q = Quantity::Parse(FormatAmount(name, amount));
      ASSERT_TRUE(q.has_value()) << name << " " << amount;
      EXPECT_EQ(CanonicalAmount(name, *q).value(), amount) << name << " " << amount;
    }
  }
}

}  // namespace
}  // namespace wasched::api
