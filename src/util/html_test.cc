// File: util/html_test.cc
#include "util/html.h"

#include <gtest/gtest.h>

#include <cmath>

namespace wasched {
namespace {

TEST(HtmlTest, EscapesMarkupAndQuotes) {
  EXPECT_EQ(HtmlEscape("a<b & \"c\" 'd'>"), "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt;");
  EXPECT_EQ(HtmlEscape("plain-name.0"), "plain-name.0");
}

// IsRound: v is k × {1, 2, 5} × 10^e for an integer k (within float noise).
bool IsOneTwoFive(double step) {
  const double m = step / std::pow(10.0, std::floor(std::log10(step)));
  return std::abs(m - 1) < 1e-9 || std::abs(m - 2) < 1e-9 || std::abs(m - 5) < 1e-9;
}

TEST(HtmlTest, NiceTicksAreRoundAndCoverTheMaximum) {
  for (double max : {0.93, 1.0, 7.3, 13.0, 48.0, 240.5, 1234.0, 0.0042, 99999.0}) {
    const std::vector<double> t = NiceTicks(max, 5);
    ASSERT_GE(t.size(), 2u) << max;
    EXPECT_EQ(t.front(), 0) << max;
    EXPECT_GE(t.back(), max) << max;
    EXPECT_LE(t.size(), 7u) << max;
    const double step = t[1] - t[0];
    EXPECT_TRUE(IsOneTwoFive(step)) << max << " step " << step;
    for (size_t i = 1; i < t.size(); ++i) EXPECT_NEAR(t[i] - t[i - 1], step, step * 1e-9) << max;
  }
  EXPECT_EQ(NiceTicks(7.3, 5), (std::vector<double>{0, 2, 4, 6, 8}));
  EXPECT_EQ(NiceTicks(1.0, 5), (std::vector<double>{0, 0.2, 0.4, 0.6, 0.8, 1.0}));
  EXPECT_EQ(NiceTicks(0, 5), (std::vector<double>{0, 1}));
  EXPECT_EQ(NiceTicks(std::nan(""), 5), (std::vector<double>{0, 1}));
}

TEST(HtmlTest, FormatTickIsShort) {
  EXPECT_EQ(FormatTick(0), "0");
  EXPECT_EQ(FormatTick(0.30000000000000004), "0.3");
  EXPECT_EQ(FormatTick(1500), "1500");
  EXPECT_EQ(FormatTick(2.5), "2.5");
  std::string all;
  for (double v : NiceTicks(1.0, 5)) all += FormatTick(v) + " ";
  EXPECT_EQ(all, "0 0.2 0.4 0.6 0.8 1 ");
}

}  // namespace
}  // namespace wasched
