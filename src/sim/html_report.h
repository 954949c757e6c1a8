// File: sim/html_report.h
//
// `wasched simulate --report FILE.html`: one self-contained page (no scripts, no external
// resources) comparing the policies run, with inline SVG plots generated here:
// GPU utilisation over time (one line per policy), GPUs held by partially-bound jobs over time,
// queueing delay p50/p90/p99 per policy, and a summary table. Every plot is an <svg> with
// class "plot" and a white background; lines use the palette below. Deterministic bytes.
// Complexity: O(runs × samples); long runs are averaged down to at most 600 points per line.
#pragma once

#include <iosfwd>
#include <vector>

#include "sim/report.h"
#include "sim/simulator.h"

namespace wasched::sim {

void WriteHtmlReport(const RunContext& ctx, const std::vector<SimResult>& runs, std::ostream& out);

}  // namespace wasched::sim
