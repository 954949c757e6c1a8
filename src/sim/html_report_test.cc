// File: sim/html_report_test.cc
//
// The simulate outputs for people (issue: simulate output): times in hours with the unit in the
// headers of the table and the HTML report, round axis ticks, the legend outside the plot box,
// and a table that cannot push the page wider than the window.
#include "sim/html_report.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "sim/report.h"

namespace wasched::sim {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::vector<SimResult> TwoRuns() {
  std::vector<SimResult> runs(2);
  runs[0].policy = "basic";
  runs[1].policy = "gang<&>";
  for (size_t i = 0; i < runs.size(); ++i) {
    SimResult& r = runs[i];
    r.total_gpus = 12;
    r.queue_delay = {100, 7200, 9000 + 3600 * static_cast<int64_t>(i), 26640, 30000, 8000};
    r.makespan_seconds = 90000;
    for (int h = 0; h < 25; ++h) {
      r.timeseries.push_back({h * 3600, 7.0 + static_cast<double>(i), 1.3 * static_cast<double>(h % 3), 1, 2});
    }
  }
  return runs;
}

std::string Report() {
  RunContext ctx;
  ctx.trace_file = "t.csv";
  ctx.format = "philly";
  ctx.gpus = 12;
  std::ostringstream out;
  WriteHtmlReport(ctx, TwoRuns(), out);
  return out.str();
}

// Values: the numbers of every `<text class="CLS" …>N</text>` inside the svg with `id`.
std::vector<double> TickValues(const std::string& page, const std::string& id, const std::string& cls) {
  const size_t begin = page.find("id=\"" + id + "\"");
  const size_t end = page.find("</svg>", begin);
  const std::string svg = page.substr(begin, end - begin);
  std::vector<double> values;
  const std::regex re("<text class=\"" + cls + "\"[^>]*>([^<]*)</text>");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), re); it != std::sregex_iterator(); ++it) {
    values.push_back(std::stod((*it)[1].str()));
  }
  return values;
}

// ExpectRound: 0, s, 2s, … with s = {1, 2, 5} × 10^k.
void ExpectRound(const std::vector<double>& ticks, const std::string& what) {
  ASSERT_GE(ticks.size(), 3u) << what;
  EXPECT_EQ(ticks[0], 0) << what;
  const double step = ticks[1] - ticks[0];
  const double mantissa = step / std::pow(10.0, std::floor(std::log10(step) + 1e-12));
  EXPECT_TRUE(std::abs(mantissa - 1) < 1e-9 || std::abs(mantissa - 2) < 1e-9 || std::abs(mantissa - 5) < 1e-9)
      << what << ": step " << step;
  for (size_t i = 1; i < ticks.size(); ++i) EXPECT_NEAR(ticks[i] - ticks[i - 1], step, 1e-9) << what;
}

TEST(HtmlReportTest, TableAndDelayPlotUseHours) {
  const std::string page = Report();
  for (const char* header : {"<th>delay p50 (h)</th>", "<th>delay p90 (h)</th>", "<th>delay p99 (h)</th>",
                             "<th>makespan (h)</th>"}) {
    EXPECT_THAT(page, HasSubstr(header));
  }
  // p50 7200 s, p90 9000 s, p99 26640 s, makespan 90000 s.
  EXPECT_THAT(page, HasSubstr("<td>2.00</td><td>2.50</td><td>7.40</td><td>25.00</td>"));
  EXPECT_THAT(page, Not(HasSubstr(" s</th>")));
  // The delay plot: the same unit, its axis ends on a round value above the largest p99 (7.4 h).
  EXPECT_THAT(page, HasSubstr("<h2>Queueing delay (h): p50, p90, p99</h2>"));
  EXPECT_THAT(page, HasSubstr(">queueing delay (h)</text>"));
  const std::vector<double> y = TickValues(page, "delay", "ytick");
  ExpectRound(y, "delay y axis");
  EXPECT_EQ(y.back(), 8);
  // The time axis of the line plots is in hours too.
  EXPECT_THAT(page, HasSubstr(">simulated time (h)</text>"));
  EXPECT_THAT(page, HasSubstr("gang&lt;&amp;&gt;"));
}

TEST(HtmlReportTest, AxesHaveRoundTicks) {
  const std::string page = Report();
  for (const char* id : {"utilization", "partial"}) {
    ExpectRound(TickValues(page, id, "ytick"), std::string(id) + " y");
    ExpectRound(TickValues(page, id, "xtick"), std::string(id) + " x");
  }
  EXPECT_EQ(TickValues(page, "utilization", "ytick"), (std::vector<double>{0, 0.2, 0.4, 0.6, 0.8, 1}));
  // 25 hourly buckets: the time axis reaches 25 h on a round tick.
  EXPECT_GE(TickValues(page, "utilization", "xtick").back(), 25);
  // Tick marks are drawn, not only labels.
  EXPECT_THAT(page, HasSubstr("<line class=\"tick\""));
}

TEST(HtmlReportTest, LegendIsBelowThePlotBox) {
  const std::string page = Report();
  const std::regex re("<g class=\"legend\"><rect x=\"(\\d+)\" y=\"(\\d+)\"");
  int legends = 0;
  for (auto it = std::sregex_iterator(page.begin(), page.end(), re); it != std::sregex_iterator(); ++it, ++legends) {
    const int y = std::stoi((*it)[2].str());
    EXPECT_GT(y, kPlotBottom + 34) << "legend inside the plot box or over the axis title";
  }
  EXPECT_EQ(legends, 6);  // two runs × three plots
  // The svg is tall enough for it.
  const std::regex svg("<svg class=\"plot\" id=\"[a-z]+\" width=\"800\" height=\"(\\d+)\"");
  for (auto it = std::sregex_iterator(page.begin(), page.end(), svg); it != std::sregex_iterator(); ++it) {
    EXPECT_GE(std::stoi((*it)[1].str()), kLegendTop + 18);
  }
  // Every polyline point lies inside the plot box.
  const std::regex points("points=\"([^\"]*)\"");
  for (auto it = std::sregex_iterator(page.begin(), page.end(), points); it != std::sregex_iterator(); ++it) {
    std::istringstream in((*it)[1].str());
    double x = 0, y = 0;
    char comma = 0;
    while (in >> x >> comma >> y) {
      EXPECT_GE(x, kPlotLeft);
      EXPECT_LE(x, kPlotRight);
      EXPECT_GE(y, kPlotTop);
      EXPECT_LE(y, kPlotBottom);
    }
  }
}

TEST(HtmlReportTest, TableCannotWidenThePage) {
  const std::string page = Report();
  EXPECT_THAT(page, HasSubstr(".wrap{overflow-x:auto;max-width:100%}"));
  EXPECT_THAT(page, HasSubstr("table{border-collapse:collapse;table-layout:auto}"));
  EXPECT_THAT(page, HasSubstr("overflow-wrap:break-word;word-break:normal"));
  EXPECT_THAT(page, HasSubstr("<div class=\"wrap\"><table id=\"summary\">"));
  EXPECT_THAT(page, HasSubstr("svg.plot{display:block;margin-bottom:16px;max-width:100%;height:auto}"));
}

TEST(HtmlReportTest, Deterministic) { EXPECT_EQ(Report(), Report()); }

TEST(SimulateTableTest, DelaysInHoursWithTheUnitInTheHeader) {
  RunContext ctx;
  ctx.trace_file = "t.csv";
  ctx.format = "philly";
  std::ostringstream out;
  WriteTable(ctx, TwoRuns(), out);
  const std::string text = out.str();
  EXPECT_THAT(text, HasSubstr(" DELAY-P50(h) DELAY-P90(h) DELAY-P99(h)  MAKESPAN(h) "));
  EXPECT_THAT(text, HasSubstr("         2.00         2.50         7.40        25.00 "));
  EXPECT_THAT(text, Not(HasSubstr("MAKESPAN-S")));
}

}  // namespace
}  // namespace wasched::sim
