// File: tests/report_render_test.cc
//
// Issue 8 acceptance: the `wasched simulate --report` page opens in headless Chromium (Debian's
// `chromium`), and its plots render. The test runs `wasched simulate` on the bundled 200-job
// Philly trace with the basic and gang policies (on a 3-node cluster, where the two differ), has
// Chromium take a 1280x2000 screenshot of the page (file://, no network), decodes the PNG with
// libpng and checks the pixels:
//   - the page is not blank;
//   - three plots are on it (each SVG plot's y axis is a vertical grey line 240 px tall:
//     kHeight - kTop - kBottom in src/sim/html_report.cc), one above the other;
//   - inside each plot, outside its legend, there are pixels of each policy's series colour
//     (kPalette in src/sim/html_report.cc: basic #d62728, gang #1f77b4): the two polylines of
//     the utilisation plot, of the partial-GPU plot (gang's lies on the x axis), and the bars
//     of the queueing-delay plot.
// The pixel checks run on a report whose plots are removed, too, and must fail there (the test
// can fail). Without chromium the tests are SKIPPED (scripts/install-deps.sh installs it).
//
// The width and script checks load a copy of a page with a probe script put first into its
// <head> (the pages themselves have none) in a 1400 px wide window and read the DOM Chromium
// dumps after load (--dump-dom): the probe appends `<pre id="wasched-probe">scrollWidth=W
// errors=N</pre>`, the page's document.documentElement.scrollWidth and the script errors
// (window "error" events) seen while loading. The simulate report and the `schedule -o html`
// page must be at most 1400 px wide there, without script errors; the schedule page must show
// every group's name, each gang's colour on its nodes and the evicted pods crossed out.
// Environment: WASCHED_CHROMIUM names another browser binary.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <png.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "support/process.h"

namespace wasched {
namespace {

namespace fs = std::filesystem;

struct Rgb {
  int r, g, b;
};

// The series colours of src/sim/html_report.cc (kPalette), in policy order.
constexpr Rgb kBasic{0xd6, 0x27, 0x28};
constexpr Rgb kGang{0x1f, 0x77, 0xb4};

struct Image {
  int width = 0, height = 0;
  std::vector<uint8_t> rgba;
  Rgb At(int x, int y) const {
    const uint8_t* p = &rgba[(static_cast<size_t>(y) * width + x) * 4];
    return {p[0], p[1], p[2]};
  }
};

// DecodePng: the PNG file as 8-bit RGBA (libpng's simplified API); empty on error, with `error` set.
Image DecodePng(const std::string& path, std::string& error) {
  png_image png{};
  png.version = PNG_IMAGE_VERSION;
  Image img;
  if (!png_image_begin_read_from_file(&png, path.c_str())) {
    error = png.message;
    return img;
  }
  png.format = PNG_FORMAT_RGBA;
  img.rgba.resize(PNG_IMAGE_SIZE(png));
  if (!png_image_finish_read(&png, nullptr, img.rgba.data(), 0, nullptr)) {
    error = png.message;
    png_image_free(&png);
    return {};
  }
  img.width = static_cast<int>(png.width);
  img.height = static_cast<int>(png.height);
  return img;
}

bool Near(Rgb a, Rgb b, int tolerance) {
  return std::abs(a.r - b.r) <= tolerance && std::abs(a.g - b.g) <= tolerance && std::abs(a.b - b.b) <= tolerance;
}

// Axis grey: #333 stroke, anti-aliased over two pixel columns (so as light as ~#999).
bool AxisGrey(Rgb c) {
  return c.r < 200 && std::abs(c.r - c.g) < 12 && std::abs(c.g - c.b) < 12;
}

struct Plot {
  int axis_x, top, bottom;  // y axis column and its vertical extent, in screenshot pixels
};

// FindPlots: every vertical run of axis grey 230..250 px tall, one per plot (the two columns an
// anti-aliased line covers count once), top to bottom.
std::vector<Plot> FindPlots(const Image& img) {
  std::vector<Plot> plots;
  for (int x = 0; x < img.width; ++x) {
    int run = 0;
    for (int y = 0; y <= img.height; ++y) {
      if (y < img.height && AxisGrey(img.At(x, y))) {
        ++run;
        continue;
      }
      if (run >= 230 && run <= 250) {
        const Plot p{x, y - run, y - 1};
        bool seen = false;
        for (const Plot& q : plots) seen = seen || (std::abs(q.top - p.top) <= 3 && std::abs(q.axis_x - p.axis_x) <= 2);
        if (!seen) plots.push_back(p);
      }
      run = 0;
    }
  }
  std::sort(plots.begin(), plots.end(), [](const Plot& a, const Plot& b) { return a.top < b.top; });
  return plots;
}

// SeriesPixels: pixels near `colour` inside the plot's area right of its y axis (720 px: kWidth -
// kLeft - kRight), from below the legend row down to just under the x axis (a series at 0 is drawn
// on it).
int SeriesPixels(const Image& img, const Plot& p, Rgb colour) {
  int n = 0;
  for (int y = p.top + 16; y <= std::min(img.height - 1, p.bottom + 3); ++y) {
    for (int x = p.axis_x + 2; x < std::min(img.width, p.axis_x + 722); ++x) n += Near(img.At(x, y), colour, 40);
  }
  return n;
}

// CheckPlotsRendered: the screenshot checks; every failure is a gtest failure naming what is missing.
void CheckPlotsRendered(const Image& img) {
  ASSERT_EQ(img.width, 1280);
  ASSERT_EQ(img.height, 2000);
  size_t ink = 0;
  for (int y = 0; y < img.height; ++y) {
    for (int x = 0; x < img.width; ++x) ink += !Near(img.At(x, y), {255, 255, 255}, 8);
  }
  EXPECT_GT(ink, static_cast<size_t>(img.width) * img.height / 100) << "the page is (almost) blank";

  const std::vector<Plot> plots = FindPlots(img);
  ASSERT_EQ(plots.size(), 3u) << "expected the utilisation, partial-GPU and queueing-delay plots";
  const char* names[] = {"utilization", "partial", "delay"};
  for (size_t i = 0; i < plots.size(); ++i) {
    if (i > 0) {
      EXPECT_GE(plots[i].top - plots[i - 1].top, 300) << "plots overlap";
    }
    EXPECT_GE(SeriesPixels(img, plots[i], kBasic), 30) << "plot " << names[i] << ": no basic series (#d62728)";
    EXPECT_GE(SeriesPixels(img, plots[i], kGang), 30) << "plot " << names[i] << ": no gang series (#1f77b4)";
  }
}

std::string Chromium() {
  if (const char* env = std::getenv("WASCHED_CHROMIUM"); env && *env) return env;
  for (const char* path : {"/usr/bin/chromium", "/usr/bin/chromium-browser"}) {
    if (access(path, X_OK) == 0) return path;
  }
  return "";
}

// Screenshot: `url` rendered by headless Chromium into `png`; a fresh profile per call (no shared
// lock with a parallel run), no network services, killed after 120 s.
test::CommandResult Screenshot(const std::string& chromium, const std::string& dir, const std::string& url,
                               const std::string& png) {
  return test::RunCommand({"timeout", "120", chromium, "--headless", "--no-sandbox", "--disable-gpu",
                           "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check",
                           "--disable-extensions", "--disable-background-networking", "--disable-component-update",
                           "--disable-sync", "--hide-scrollbars", "--mute-audio", "--user-data-dir=" + dir + "/profile",
                           "--virtual-time-budget=5000", "--window-size=1280,2000", "--screenshot=" + png, url});
}

// DumpDom: `url` loaded by headless Chromium in a `width` px wide window; stdout holds the DOM
// after load. A fresh profile per call, no network services, killed after 120 s.
test::CommandResult DumpDom(const std::string& chromium, const std::string& dir, const std::string& url, int width) {
  return test::RunCommand({"timeout", "120", chromium, "--headless", "--no-sandbox", "--disable-gpu",
                           "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check",
                           "--disable-extensions", "--disable-background-networking", "--disable-component-update",
                           "--disable-sync", "--hide-scrollbars", "--mute-audio", "--user-data-dir=" + dir + "/profile",
                           "--virtual-time-budget=5000", "--window-size=" + std::to_string(width) + ",1000",
                           "--dump-dom", url});
}

// kProbe: records script errors and, after load, writes the page width and the error count.
constexpr const char* kProbe =
    "<script>var waschedErrors=0;window.addEventListener('error',function(){waschedErrors++;});"
    "window.addEventListener('load',function(){var p=document.createElement('pre');p.id='wasched-probe';"
    "p.textContent='scrollWidth='+document.documentElement.scrollWidth+' errors='+waschedErrors;"
    "document.body.appendChild(p);});</script>";

// WithProbe: `page` with kProbe first in its <head>; "" when the page has no <head>.
std::string WithProbe(const std::string& page) {
  const size_t head = page.find("<head>");
  if (head == std::string::npos) return "";
  std::string probed = page;
  probed.insert(head + 6, kProbe);
  return probed;
}

struct Probe {
  int scroll_width = -1;
  int errors = -1;
};

// ReadProbe: the probe's numbers from a dumped DOM; -1 when the probe did not run.
Probe ReadProbe(const std::string& dom) {
  Probe p;
  const size_t at = dom.find("<pre id=\"wasched-probe\">");
  if (at == std::string::npos) return p;
  if (std::sscanf(dom.c_str() + at, "<pre id=\"wasched-probe\">scrollWidth=%d errors=%d", &p.scroll_width,
                  &p.errors) != 2) {
    return {};
  }
  return p;
}

class ReportRender : public testing::Test {
 protected:
  void SetUp() override {
    chromium_ = Chromium();
    if (chromium_.empty()) {
      GTEST_SKIP() << "chromium is not installed (scripts/install-deps.sh installs Debian's chromium): "
                      "the HTML report was not rendered";
    }
    dir_ = fs::path(testing::TempDir()) / ("wasched-report-render-" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  // Render: `html` as a screenshot, decoded.
  Image Render(const fs::path& html) {
    const std::string png = (dir_ / (html.stem().string() + ".png")).string();
    const auto shot = Screenshot(chromium_, dir_.string(), "file://" + html.string(), png);
    EXPECT_EQ(shot.exit_code, 0) << shot.err;
    std::string error;
    Image img = DecodePng(png, error);
    EXPECT_FALSE(img.rgba.empty()) << png << ": " << error << "\n" << shot.err;
    return img;
  }

  // Load: `page` with the probe, in a `width` px window; the dumped DOM and the probe's numbers.
  std::pair<std::string, Probe> Load(const std::string& page, const std::string& name, int width) {
    const std::string probed = WithProbe(page);
    EXPECT_NE(probed, "") << name << ": no <head>";
    const fs::path file = dir_ / name;
    std::ofstream(file) << probed;
    const auto dump = DumpDom(chromium_, dir_.string(), "file://" + file.string(), width);
    EXPECT_EQ(dump.exit_code, 0) << dump.err;
    const Probe probe = ReadProbe(dump.out);
    EXPECT_GE(probe.scroll_width, 0) << name << ": the probe did not run\n" << dump.out.substr(0, 2000);
    return {dump.out, probe};
  }

  std::string chromium_;
  fs::path dir_;
};

TEST_F(ReportRender, PlotsRenderInHeadlessChromium) {
  const fs::path html = dir_ / "report.html";
  const auto sim = test::RunCommand({WASCHED_BINARY, "simulate", "--trace",
                                     std::string(WASCHED_TESTDATA_DIR) + "/data/traces/philly/philly-200.csv",
                                     "--format", "philly", "--generate-cluster", "nodes=3,gpus=4,zones=1,racksPerZone=3",
                                     "--policy", "basic", "--policy", "gang", "--seed", "7", "--report", html.string()});
  ASSERT_EQ(sim.exit_code, 0) << sim.err;

  const Image img = Render(html);
  ASSERT_FALSE(img.rgba.empty());
  CheckPlotsRendered(img);

  // The same checks on the page without its plots (every <svg>..</svg> removed) must fail.
  const std::string page = test::ReadFile(html.string());
  std::string stripped = page;
  for (size_t at; (at = stripped.find("<svg")) != std::string::npos;) {
    const size_t end = stripped.find("</svg>", at);
    ASSERT_NE(end, std::string::npos);
    stripped.erase(at, end + 6 - at);
  }
  ASSERT_NE(stripped, page);
  const fs::path bare = dir_ / "no-plots.html";
  std::ofstream(bare) << stripped;
  const Image bare_img = Render(bare);
  ASSERT_FALSE(bare_img.rgba.empty());
  testing::TestPartResultArray failures;
  {
    testing::ScopedFakeTestPartResultReporter reporter(testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD,
                                                       &failures);
    CheckPlotsRendered(bare_img);
  }
  EXPECT_GT(failures.size(), 0) << "the pixel checks pass on a page without plots";
}

// Item 14: the simulate report with three policies fits a 1400 px window (its wide table wraps
// or scrolls inside its own box) and loads without script errors; the probe can fail (a
// 2000 px wide element makes the page wider).
TEST_F(ReportRender, SimulateReportFitsA1400PxWindow) {
  const fs::path html = dir_ / "report.html";
  const auto sim = test::RunCommand({WASCHED_BINARY, "simulate", "--trace",
                                     std::string(WASCHED_TESTDATA_DIR) + "/data/traces/philly/philly-200.csv",
                                     "--format", "philly", "--generate-cluster", "nodes=3,gpus=4,zones=1,racksPerZone=3",
                                     "--policy", "basic", "--policy", "gang", "--policy", "gang-topology", "--seed", "7",
                                     "--report", html.string()});
  ASSERT_EQ(sim.exit_code, 0) << sim.err;
  const std::string page = test::ReadFile(html.string());
  EXPECT_EQ(page.find("<script"), std::string::npos);
  const auto [dom, probe] = Load(page, "probed-report.html", 1400);
  EXPECT_LE(probe.scroll_width, 1400) << "the report is wider than a 1400 px window";
  EXPECT_EQ(probe.errors, 0);
  EXPECT_NE(dom.find("<th>delay p99 (h)</th>"), std::string::npos);

  std::string wide = page;
  wide.insert(wide.find("</body>"), "<div style=\"width:2000px\">wide</div>");
  const auto [wide_dom, wide_probe] = Load(wide, "probed-wide.html", 1400);
  EXPECT_GT(wide_probe.scroll_width, 1400) << "the width probe cannot fail";
}

// Item 13: `schedule -o html` in Chromium: the page names every group, shows the training gang's
// colour on its nodes, crosses out evicted pods, fits 1400 px and loads without script errors.
TEST_F(ReportRender, ScheduleHtmlShowsGroupsAndEvictions) {
  const auto demo = test::RunCommand({WASCHED_BINARY, "schedule", "-f", std::string(WASCHED_TESTDATA_DIR) + "/../examples/demo",
                                      "-o", "html"});
  ASSERT_EQ(demo.exit_code, 0) << demo.err;
  EXPECT_EQ(demo.out.find("<script"), std::string::npos);
  const auto [dom, probe] = Load(demo.out, "probed-demo.html", 1400);
  EXPECT_LE(probe.scroll_width, 1400);
  EXPECT_EQ(probe.errors, 0);
  for (const char* group : {"<b>training/training-job-workers</b>", "<b>training/pretrain-llm-workers</b>"}) {
    EXPECT_NE(dom.find(group), std::string::npos) << group;
  }
  EXPECT_NE(dom.find("<h3>zone zone-1</h3>"), std::string::npos);

  // Pixels: the training gang (the second PodGroup: hsl(138,70%,42%) = #20b64d) on its 8 nodes
  // and in the legend (12 px squares, 14 px swatch).
  const fs::path demo_file = dir_ / "demo.html";
  std::ofstream(demo_file) << demo.out;
  const Image img = Render(demo_file);
  ASSERT_FALSE(img.rgba.empty());
  int gang = 0;
  for (int y = 0; y < img.height; ++y) {
    for (int x = 0; x < img.width; ++x) gang += Near(img.At(x, y), {0x20, 0xb6, 0x4d}, 24);
  }
  EXPECT_GE(gang, 9 * 80) << "the training gang's colour is missing";

  // A preemption: the victims crossed out on their nodes, the preemptor named.
  const std::string scenario = std::string(WASCHED_TESTDATA_DIR) + "/scenarios/i19-gang-preemptor-takes-all";
  const auto preempt = test::RunCommand({WASCHED_BINARY, "schedule", "-f", scenario, "-o", "html"});
  ASSERT_EQ(preempt.exit_code, 0) << preempt.err;
  const auto [pdom, pprobe] = Load(preempt.out, "probed-preempt.html", 1400);
  EXPECT_LE(pprobe.scroll_width, 1400);
  EXPECT_EQ(pprobe.errors, 0);
  for (const char* group : {"<b>default/preemptor</b>", "<b>default/victim-pg</b>"}) {
    EXPECT_NE(pdom.find(group), std::string::npos) << group;
  }
  size_t crossed = 0;
  for (size_t at = 0; (at = pdom.find("class=\"pod evicted\"", at)) != std::string::npos; ++at) ++crossed;
  EXPECT_EQ(crossed, 3u + 1u) << "three victims and the legend's sample";
  EXPECT_NE(pdom.find("default/v1 evicted from n1: preempted by PodGroup default/preemptor"), std::string::npos);
}

}  // namespace
}  // namespace wasched
