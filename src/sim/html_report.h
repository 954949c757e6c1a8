// File: sim/html_report.h
//
// `wasched simulate --report FILE.html`: one self-contained page (no scripts, no external
// resources) comparing the policies run, with inline SVG plots generated here:
// GPU utilisation over time (one line per policy), GPUs held by partially-bound jobs over time,
// queueing delay p50/p90/p99 per policy, and a summary table. Every plot is an <svg> with
// class "plot" and a white background; lines use the palette of html_report.cc. Deterministic
// bytes. Complexity: O(runs × samples); long runs are averaged down to at most 600 points per line.
//
// One unit of time everywhere: hours. The table's delay and makespan columns say "(h)", the
// delay plot's axis is in hours, and the time axis of the line plots is simulated hours.
// Every axis has tick marks at round values (1-2-5 steps, util/html.h NiceTicks) and ends on
// one. The legend sits below the plot box and its axis labels (at y ≥ kLegendTop), never over a
// line. The table is wrapped in an `overflow-x: auto` box and its cells break long words, so the
// page fits a 1400 px window.
#pragma once

#include <iosfwd>
#include <vector>

#include "sim/report.h"
#include "sim/simulator.h"

namespace wasched::sim {

// Plot geometry, SVG user units: every plot is kSvgWidth wide; its data lie in the box
// [kPlotLeft, kPlotRight] × [kPlotTop, kPlotBottom] (the axes are its left and bottom edges);
// tick labels and the axis title lie below it, the legend from kLegendTop down, kLegendPerRow
// entries per row. The SVG is tall enough for every legend row.
inline constexpr int kSvgWidth = 800;
inline constexpr int kPlotLeft = 60, kPlotRight = 780, kPlotTop = 20, kPlotBottom = 260;
inline constexpr int kLegendTop = 304;
inline constexpr int kLegendPerRow = 5;

// WriteHtmlReport: the page described above for `runs` (in the order given: colours follow it).
void WriteHtmlReport(const RunContext& ctx, const std::vector<SimResult>& runs, std::ostream& out);

}  // namespace wasched::sim
