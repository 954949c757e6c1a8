// File: sim/html_report.cc
#include "sim/html_report.h"

#include <algorithm>
#include <ostream>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "util/html.h"

namespace wasched::sim {
namespace {

constexpr const char* kPalette[] = {"#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};
constexpr size_t kMaxPoints = 600;
constexpr int kTargetTicks = 5;

// Point: one sample of a line, x in hours.
struct Point {
  double x, y;
};

// Downsample: averages consecutive points (both coordinates) into at most kMaxPoints.
std::vector<Point> Downsample(const std::vector<Point>& v) {
  if (v.size() <= kMaxPoints) return v;
  std::vector<Point> out;
  const size_t group = (v.size() + kMaxPoints - 1) / kMaxPoints;
  for (size_t i = 0; i < v.size(); i += group) {
    double sx = 0, sy = 0;
    size_t n = 0;
    for (size_t k = i; k < std::min(v.size(), i + group); ++k, ++n) {
      sx += v[k].x;
      sy += v[k].y;
    }
    out.push_back({sx / static_cast<double>(n), sy / static_cast<double>(n)});
  }
  return out;
}

// PlotX / PlotY: data → SVG coordinates of the plot box.
double PlotX(double x, double x_top) {
  return kPlotLeft + (kPlotRight - kPlotLeft) * std::clamp(x / x_top, 0.0, 1.0);
}
double PlotY(double y, double y_top) {
  return kPlotBottom - (kPlotBottom - kPlotTop) * std::clamp(y / y_top, 0.0, 1.0);
}

// SvgHeight: room for the plot, its axis labels and every legend row.
int SvgHeight(size_t runs) {
  const size_t per_row = static_cast<size_t>(kLegendPerRow);
  const int rows = std::max(1, static_cast<int>((runs + per_row - 1) / per_row));
  return kLegendTop + rows * 18 + 6;
}

// SvgOpen: the <svg> element and its white background.
std::string SvgOpen(const std::string& id, size_t runs) {
  const int height = SvgHeight(runs);
  return fmt::format("<svg class=\"plot\" id=\"{}\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" "
                     "xmlns=\"http://www.w3.org/2000/svg\">\n"
                     "<rect x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>\n",
                     id, kSvgWidth, height, kSvgWidth, height, kSvgWidth, height);
}

// Frame: the plot box's axes, y ticks (round values, grid lines) and the axis labels.
void Frame(std::ostream& out, const std::vector<double>& y_ticks, const std::string& y_label,
           const std::string& x_label) {
  const double y_top = y_ticks.back();
  for (double t : y_ticks) {
    const double y = PlotY(t, y_top);
    out << fmt::format("<line class=\"grid\" x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"#ddd\"/>", kPlotLeft,
                       y, kPlotRight, y);
    out << fmt::format("<line class=\"tick\" x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"#333\"/>",
                       kPlotLeft - 5, y, kPlotLeft, y);
    out << fmt::format("<text class=\"ytick\" x=\"{}\" y=\"{:.1f}\" font-size=\"11\" text-anchor=\"end\">{}</text>\n",
                       kPlotLeft - 8, y + 4, FormatTick(t));
  }
  out << fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#333\"/>\n", kPlotLeft, kPlotBottom,
                     kPlotRight, kPlotBottom);
  out << fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#333\"/>\n", kPlotLeft, kPlotBottom,
                     kPlotLeft, kPlotTop);
  out << fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\">{}</text>\n",
                     (kPlotLeft + kPlotRight) / 2, kPlotBottom + 34, HtmlEscape(x_label));
  out << fmt::format("<text x=\"14\" y=\"{}\" font-size=\"12\" transform=\"rotate(-90 14 {})\" "
                     "text-anchor=\"middle\">{}</text>\n",
                     (kPlotTop + kPlotBottom) / 2, (kPlotTop + kPlotBottom) / 2, HtmlEscape(y_label));
}

// XTicks: tick marks and round labels under the x axis.
void XTicks(std::ostream& out, const std::vector<double>& x_ticks) {
  const double x_top = x_ticks.back();
  for (double t : x_ticks) {
    const double x = PlotX(t, x_top);
    out << fmt::format("<line class=\"tick\" x1=\"{:.1f}\" y1=\"{}\" x2=\"{:.1f}\" y2=\"{}\" stroke=\"#333\"/>", x,
                       kPlotBottom, x, kPlotBottom + 5);
    out << fmt::format("<text class=\"xtick\" x=\"{:.1f}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\">{}</text>\n",
                       x, kPlotBottom + 18, FormatTick(t));
  }
}

// Legend: below the plot box and its axis labels (rows of kLegendPerRow entries), never over a line.
void Legend(std::ostream& out, const std::vector<SimResult>& runs) {
  for (size_t i = 0; i < runs.size(); ++i) {
    const size_t per_row = static_cast<size_t>(kLegendPerRow);
    const int x = kPlotLeft + static_cast<int>(i % per_row) * 150;
    const int y = kLegendTop + static_cast<int>(i / per_row) * 18;
    out << fmt::format("<g class=\"legend\"><rect x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{}\"/>", x, y,
                       kPalette[i % 6]);
    out << fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"12\">{}</text></g>\n", x + 16, y + 11,
                       HtmlEscape(runs[i].policy));
  }
}

// LinePlot: one polyline per run of `series(sample)` against simulated time in hours.
template <typename F>
void LinePlot(std::ostream& out, const std::string& id, const std::string& title, const std::vector<SimResult>& runs,
              double y_max, const std::string& y_label, F series) {
  out << fmt::format("<h2>{}</h2>\n", HtmlEscape(title)) << SvgOpen(id, runs.size());
  double hours = 0;
  for (const SimResult& r : runs) {
    if (r.timeseries.empty()) continue;
    const int64_t bucket =
        r.timeseries.size() > 1 ? r.timeseries[1].start_seconds - r.timeseries[0].start_seconds : int64_t{3600};
    hours = std::max(hours, static_cast<double>(r.timeseries.back().start_seconds + bucket) / 3600.0);
  }
  const std::vector<double> y_ticks = NiceTicks(y_max, kTargetTicks);
  const std::vector<double> x_ticks = NiceTicks(hours, 8);
  Frame(out, y_ticks, y_label, "simulated time (h)");
  XTicks(out, x_ticks);
  for (size_t i = 0; i < runs.size(); ++i) {
    std::vector<Point> v;
    for (const Sample& s : runs[i].timeseries) v.push_back({static_cast<double>(s.start_seconds) / 3600.0, series(s)});
    std::string pts;
    for (const Point& p : Downsample(v)) {
      pts += fmt::format("{:.1f},{:.1f} ", PlotX(p.x, x_ticks.back()), PlotY(p.y, y_ticks.back()));
    }
    out << fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\" points=\"{}\"/>\n", kPalette[i % 6], pts);
  }
  Legend(out, runs);
  out << "</svg>\n";
}

void DelayBars(std::ostream& out, const std::vector<SimResult>& runs) {
  out << "<h2>Queueing delay (h): p50, p90, p99</h2>\n" << SvgOpen("delay", runs.size());
  double y_max = 0;
  for (const SimResult& r : runs) y_max = std::max(y_max, r.queue_delay.p99 / 3600.0);
  const std::vector<double> y_ticks = NiceTicks(y_max, kTargetTicks);
  Frame(out, y_ticks, "queueing delay (h)", "percentile of the queueing delay, per policy");
  const double group_w = (kPlotRight - kPlotLeft) / 3.0;
  const double bar_w = std::min(40.0, group_w / (static_cast<double>(runs.size()) + 1));
  const char* names[] = {"p50", "p90", "p99"};
  for (int q = 0; q < 3; ++q) {
    const double centre = kPlotLeft + group_w * (q + 0.5);
    out << fmt::format("<line class=\"tick\" x1=\"{:.1f}\" y1=\"{}\" x2=\"{:.1f}\" y2=\"{}\" stroke=\"#333\"/>", centre,
                       kPlotBottom, centre, kPlotBottom + 5);
    out << fmt::format("<text class=\"xtick\" x=\"{:.1f}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\">{}</text>\n",
                       centre, kPlotBottom + 18, names[q]);
    for (size_t i = 0; i < runs.size(); ++i) {
      const Percentiles& p = runs[i].queue_delay;
      const double v = (q == 0 ? p.p50 : q == 1 ? p.p90 : p.p99) / 3600.0;
      const double h = std::max(1.0, kPlotBottom - PlotY(v, y_ticks.back()));
      const double x = kPlotLeft + group_w * q + bar_w * (0.5 + static_cast<double>(i));
      out << fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"{}\"/>\n", x,
                         kPlotBottom - h, bar_w * 0.9, h, kPalette[i % 6]);
    }
  }
  Legend(out, runs);
  out << "</svg>\n";
}

std::string Hours(int64_t seconds) { return fmt::format("{:.2f}", static_cast<double>(seconds) / 3600.0); }

}  // namespace

void WriteHtmlReport(const RunContext& ctx, const std::vector<SimResult>& runs, std::ostream& out) {
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>wasched simulate report</title>\n"
         "<style>body{font-family:sans-serif;margin:20px;background:#ffffff;color:#222;max-width:1360px}"
         ".wrap{overflow-x:auto;max-width:100%}"
         "table{border-collapse:collapse;table-layout:auto}"
         "td,th{border:1px solid #ccc;padding:3px 6px;text-align:right;overflow-wrap:break-word;word-break:normal}"
         "th{font-weight:600;vertical-align:bottom}td:first-child,th:first-child{text-align:left}"
         "svg.plot{display:block;margin-bottom:16px;max-width:100%;height:auto}</style></head><body>\n";
  out << fmt::format("<h1>wasched simulate</h1>\n<p>Trace <code>{}</code> ({}, {} jobs) on {} nodes / {} GPUs, seed {}. "
                     "Times in hours (h).</p>\n",
                     HtmlEscape(ctx.trace_file), HtmlEscape(ctx.format), ctx.jobs, ctx.nodes, ctx.gpus, ctx.seed);
  out << "<div class=\"wrap\"><table id=\"summary\"><tr><th>policy</th><th>preemption</th><th>completed</th>"
         "<th>rejected</th><th>unfinished</th><th>GPU utilisation</th><th>partial GPU-hours</th>"
         "<th>delay p50 (h)</th><th>delay p90 (h)</th><th>delay p99 (h)</th><th>makespan (h)</th>"
         "<th>deadlocks</th><th>evictions</th><th>restarts</th><th>node failures</th></tr>\n";
  for (const SimResult& r : runs) {
    out << fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.1f}%</td><td>{:.1f}</td>"
                       "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                       HtmlEscape(r.policy), r.preemption ? "on" : "off", r.completed, r.rejected, r.unfinished,
                       100 * r.gpu_utilization, r.partial_gpu_hours, Hours(r.queue_delay.p50), Hours(r.queue_delay.p90),
                       Hours(r.queue_delay.p99), Hours(r.makespan_seconds), r.deadlock_episodes, r.evictions,
                       r.restarts, r.node_failures);
  }
  out << "</table></div>\n";
  double gpus = ctx.gpus > 0 ? ctx.gpus : 1;
  LinePlot(out, "utilization", "GPU utilisation over time (busy GPUs / all GPUs, hourly)", runs, 1.0, "utilisation",
           [gpus](const Sample& s) { return s.busy_gpus / gpus; });
  double partial_max = 0;
  for (const SimResult& r : runs) {
    for (const Sample& s : r.timeseries) partial_max = std::max(partial_max, s.partial_gpus);
  }
  LinePlot(out, "partial", "GPUs held by jobs below their minCount (hourly average)", runs,
           partial_max > 0 ? partial_max : 1.0, "GPUs", [](const Sample& s) { return s.partial_gpus; });
  DelayBars(out, runs);
  out << "</body></html>\n";
}

}  // namespace wasched::sim
