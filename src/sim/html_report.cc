// File: sim/html_report.cc
#include "sim/html_report.h"

#include <algorithm>
#include <ostream>
#include <string>

#include <fmt/format.h>

namespace wasched::sim {
namespace {

constexpr const char* kPalette[] = {"#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};
constexpr int kWidth = 800, kHeight = 300, kLeft = 60, kRight = 20, kTop = 20, kBottom = 40;
constexpr size_t kMaxPoints = 600;

std::string Escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '&': o += "&amp;"; break;
      case '"': o += "&quot;"; break;
      default: o += c;
    }
  }
  return o;
}

// Downsample: averages consecutive values into at most kMaxPoints.
std::vector<double> Downsample(const std::vector<double>& v) {
  if (v.size() <= kMaxPoints) return v;
  std::vector<double> out;
  const size_t group = (v.size() + kMaxPoints - 1) / kMaxPoints;
  for (size_t i = 0; i < v.size(); i += group) {
    double sum = 0;
    size_t n = 0;
    for (size_t k = i; k < std::min(v.size(), i + group); ++k, ++n) sum += v[k];
    out.push_back(sum / static_cast<double>(n));
  }
  return out;
}

void Axes(std::ostream& out, double y_max, const std::string& y_label, const std::string& x_label) {
  const int x0 = kLeft, y0 = kHeight - kBottom, x1 = kWidth - kRight, y1 = kTop;
  out << fmt::format("<rect x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>\n", kWidth, kHeight);
  out << fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#333\"/>\n", x0, y0, x1, y0);
  out << fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#333\"/>\n", x0, y0, x0, y1);
  for (int k = 0; k <= 4; ++k) {
    const double y = y0 - (y0 - y1) * k / 4.0;
    out << fmt::format("<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"#ddd\"/>", x0, y, x1, y);
    out << fmt::format("<text x=\"{}\" y=\"{:.1f}\" font-size=\"11\" text-anchor=\"end\">{:.4g}</text>\n", x0 - 4,
                       y + 4, y_max * k / 4.0);
  }
  out << fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\">{}</text>\n", (x0 + x1) / 2,
                     kHeight - 8, Escape(x_label));
  out << fmt::format("<text x=\"14\" y=\"{}\" font-size=\"12\" transform=\"rotate(-90 14 {})\" "
                     "text-anchor=\"middle\">{}</text>\n",
                     (y0 + y1) / 2, (y0 + y1) / 2, Escape(y_label));
}

void Legend(std::ostream& out, const std::vector<SimResult>& runs) {
  for (size_t i = 0; i < runs.size(); ++i) {
    const int x = kLeft + 10 + static_cast<int>(i) * 150;
    out << fmt::format("<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{}\"/>", x, kTop, kPalette[i % 6]);
    out << fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"12\">{}</text>\n", x + 16, kTop + 11, Escape(runs[i].policy));
  }
}

// LinePlot: one polyline per run of `series(run)` against bucket index (hours).
template <typename F>
void LinePlot(std::ostream& out, const std::string& id, const std::string& title, const std::vector<SimResult>& runs,
              double y_max, const std::string& y_label, F series) {
  out << fmt::format("<h2>{}</h2>\n<svg class=\"plot\" id=\"{}\" width=\"{}\" height=\"{}\" "
                     "xmlns=\"http://www.w3.org/2000/svg\">\n",
                     Escape(title), id, kWidth, kHeight);
  size_t longest = 1;
  double days = 0;
  for (const SimResult& r : runs) {
    longest = std::max(longest, r.timeseries.size());
    if (!r.timeseries.empty()) days = std::max(days, (r.timeseries.back().start_seconds + 3600) / 86400.0);
  }
  if (y_max <= 0) y_max = 1;
  Axes(out, y_max, y_label, fmt::format("simulated time (0 .. {:.1f} days)", days));
  const double x_span = kWidth - kLeft - kRight, y_span = kHeight - kTop - kBottom;
  for (size_t i = 0; i < runs.size(); ++i) {
    std::vector<double> v;
    for (const Sample& s : runs[i].timeseries) v.push_back(series(s));
    const std::vector<double> d = Downsample(v);
    const double scale = static_cast<double>(v.size()) / static_cast<double>(longest);
    std::string pts;
    for (size_t k = 0; k < d.size(); ++k) {
      const double x = kLeft + x_span * scale * (d.size() == 1 ? 0.0 : static_cast<double>(k) / (d.size() - 1));
      const double y = kHeight - kBottom - y_span * std::clamp(d[k] / y_max, 0.0, 1.0);
      pts += fmt::format("{:.1f},{:.1f} ", x, y);
    }
    out << fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\" points=\"{}\"/>\n", kPalette[i % 6], pts);
  }
  Legend(out, runs);
  out << "</svg>\n";
}

void DelayBars(std::ostream& out, const std::vector<SimResult>& runs) {
  out << fmt::format("<h2>Queueing delay (hours): p50, p90, p99</h2>\n<svg class=\"plot\" id=\"delay\" width=\"{}\" "
                     "height=\"{}\" xmlns=\"http://www.w3.org/2000/svg\">\n",
                     kWidth, kHeight);
  double y_max = 0;
  for (const SimResult& r : runs) y_max = std::max(y_max, r.queue_delay.p99 / 3600.0);
  if (y_max <= 0) y_max = 1;
  Axes(out, y_max, "hours", "p50 | p90 | p99 per policy");
  const double y_span = kHeight - kTop - kBottom;
  const double group_w = (kWidth - kLeft - kRight) / 3.0;
  const double bar_w = std::min(40.0, group_w / (static_cast<double>(runs.size()) + 1));
  for (int q = 0; q < 3; ++q) {
    for (size_t i = 0; i < runs.size(); ++i) {
      const Percentiles& p = runs[i].queue_delay;
      const double v = (q == 0 ? p.p50 : q == 1 ? p.p90 : p.p99) / 3600.0;
      const double h = std::max(1.0, y_span * std::clamp(v / y_max, 0.0, 1.0));
      const double x = kLeft + group_w * q + bar_w * (0.5 + static_cast<double>(i));
      out << fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"{}\"/>\n", x,
                         kHeight - kBottom - h, bar_w * 0.9, h, kPalette[i % 6]);
    }
  }
  Legend(out, runs);
  out << "</svg>\n";
}

}  // namespace

void WriteHtmlReport(const RunContext& ctx, const std::vector<SimResult>& runs, std::ostream& out) {
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>wasched simulate report</title>\n"
         "<style>body{font-family:sans-serif;margin:20px;background:#ffffff;color:#222}"
         "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}"
         "svg.plot{display:block;margin-bottom:16px}</style></head><body>\n";
  out << fmt::format("<h1>wasched simulate</h1>\n<p>Trace <code>{}</code> ({}, {} jobs) on {} nodes / {} GPUs, seed {}.</p>\n",
                     Escape(ctx.trace_file), Escape(ctx.format), ctx.jobs, ctx.nodes, ctx.gpus, ctx.seed);
  out << "<table><tr><th>policy</th><th>preemption</th><th>completed</th><th>rejected</th><th>unfinished</th>"
         "<th>GPU utilisation</th><th>partial GPU-hours</th><th>delay p50 s</th><th>delay p90 s</th><th>delay p99 s</th>"
         "<th>makespan s</th><th>deadlocks</th><th>evictions</th><th>restarts</th><th>node failures</th></tr>\n";
  for (const SimResult& r : runs) {
    out << fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.1f}%</td><td>{:.1f}</td>"
                       "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                       Escape(r.policy), r.preemption ? "on" : "off", r.completed, r.rejected, r.unfinished,
                       100 * r.gpu_utilization, r.partial_gpu_hours, r.queue_delay.p50, r.queue_delay.p90,
                       r.queue_delay.p99, r.makespan_seconds, r.deadlock_episodes, r.evictions, r.restarts,
                       r.node_failures);
  }
  out << "</table>\n";
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
