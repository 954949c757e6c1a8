// File: cli/bench_command.cc
#include "cli/bench_command.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <memory>
#include <ostream>
#include <sstream>
#include <string_view>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/subcommand.h"
#include "cli/schedule_command.h"
#include "perf/harness.h"
#include "perf/shapes.h"
#include "perf/upstream.h"

namespace wasched::cli {
namespace {

bool Selected(const perf::Shape& shape, const std::vector<std::string>& prefixes) {
  if (prefixes.empty()) return true;
  for (const std::string& p : prefixes) {
    if (shape.name.starts_with(p)) return true;
  }
  return false;
}

nlohmann::json Optional(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }

nlohmann::json ToJson(const perf::Measurement& m) {
  nlohmann::json j = nlohmann::json::object();
  j["shape"] = m.shape;
  // A correctness-only run (--scale tiny) has no value: nothing was timed (issue 20 item 15).
  j["value"] = m.timed ? nlohmann::json(m.value) : nlohmann::json(nullptr);
  // Nor a unit, a target or timings: the keys stay (the JSON shape is the same for every
  // scale), their values are null.
  j["unit"] = m.timed ? nlohmann::json(m.unit) : nlohmann::json(nullptr);
  j["target"] = m.timed ? Optional(m.target) : nlohmann::json(nullptr);
  j["meetsTarget"] = m.meets_target ? nlohmann::json(*m.meets_target) : nlohmann::json(nullptr);
  j["scanBoundRatio"] = Optional(m.scan_bound_ratio);
  j["naiveRatio"] = Optional(m.naive_ratio);
  j["seconds"] = m.timed ? nlohmann::json(m.seconds) : nlohmann::json(nullptr);
  j["wallSeconds"] = m.timed ? nlohmann::json(m.wall_seconds) : nlohmann::json(nullptr);
  j["bound"] = m.bound;
  j["expectedBound"] = m.expected_bound;
  j["scale"] = m.timed ? "full" : "tiny";
  j["instance"] = m.instance;
  if (m.bytes_per_pod) j["bytesPerPod"] = *m.bytes_per_pod;
  if (m.bytes_per_node) j["bytesPerNode"] = *m.bytes_per_node;
  if (m.file_mb) {
    j["fileMB"] = *m.file_mb;
    j["objectsPerSecond"] = Optional(m.objects_per_second);
    j["parserMBPerSecond"] = Optional(m.parser_mb_per_second);
    j["parserRatio"] = Optional(m.parser_ratio);
    j["rssAboveFileMiB"] = Optional(m.rss_above_file_mib);
    j["rssFileRatio"] = Optional(m.rss_file_ratio);
  }
  return j;
}

std::string Number(double v) {
  if (v >= 1000) return fmt::format("{:.0f}", v);
  if (v >= 10) return fmt::format("{:.1f}", v);
  return fmt::format("{:.3g}", v);
}

std::string Table(const std::vector<perf::Measurement>& rows) {
  std::string t = fmt::format("{:<58} {:>12} {:<20} {:>10} {:>6} {:>10} {:>10}\n", "SHAPE", "VALUE", "UNIT",
                              "TARGET", "MEETS", "SCANBOUND", "VS-NAIVE");
  for (const perf::Measurement& m : rows) {
    t += fmt::format("{:<58} {:>12} {:<20} {:>10} {:>6} {:>10} {:>10}\n", m.shape, Number(m.value), m.unit,
                     m.target ? Number(*m.target) : "-", m.meets_target ? (*m.meets_target ? "yes" : "NO") : "-",
                     m.scan_bound_ratio ? Number(*m.scan_bound_ratio) + "x" : "-",
                     m.naive_ratio ? Number(*m.naive_ratio) + "x" : "-");
    if (m.bytes_per_pod) {
      t += fmt::format("{:<58} {} bytes per pod, {} bytes per node\n", "", Number(*m.bytes_per_pod),
                       Number(m.bytes_per_node.value_or(0)));
    }
    if (m.file_mb && m.objects_per_second) {
      t += fmt::format("{:<58} {} MB file, {} objects/s; parser alone {} MB/s (ours/parser {}x); peak RSS "
                       "{} MiB above the file ({}x its size)\n",
                       "", Number(*m.file_mb), Number(*m.objects_per_second), Number(m.parser_mb_per_second.value_or(0)),
                       Number(m.parser_ratio.value_or(0)), Number(m.rss_above_file_mib.value_or(0)),
                       Number(m.rss_file_ratio.value_or(0)));
    }
  }
  t += "SCANBOUND: our time / (pods × one plain scan over the node arrays), same run; "
       "VS-NAIVE: our time / pod-at-a-time full scans, same run.\n";
  return t;
}

// TinyTable: a correctness-only run (--scale tiny, issue 20 item 15): what was checked and
// whether it held, for each shape at the size that actually ran; no values, units, targets or
// ratios (nothing was timed, and a 0 MiB or a pods/s of a 100-pod run would read as a result).
std::string TinyTable(const std::vector<perf::Measurement>& rows,
                      const std::vector<const perf::Shape*>& shapes) {
  std::vector<std::array<std::string, 3>> cells;
  for (size_t i = 0; i < rows.size(); ++i) {
    const perf::Measurement& m = rows[i];
    const perf::Measure measure = shapes[i]->measure;
    std::string check;
    if (measure == perf::Measure::kLoad) {
      check = fmt::format("decoded {} of {} objects", m.bound, m.expected_bound);
    } else if (measure == perf::Measure::kRunSeconds) {
      check = fmt::format("completed {} of {} jobs", m.bound, m.expected_bound);
    } else {
      check = fmt::format("bound {} of {} pods", m.bound, m.expected_bound);
    }
    cells.push_back({fmt::format("{} [tiny: {}]", m.shape, m.instance), std::move(check),
                     m.correct() ? "ok" : "WRONG"});
  }
  size_t shape_width = 5;
  size_t check_width = 5;
  for (const auto& c : cells) {
    shape_width = std::max(shape_width, c[0].size());
    check_width = std::max(check_width, c[1].size());
  }
  std::string t =
      "--scale tiny checks counts only: each shape runs once at about 1/100 of its size (the size "
      "in brackets) and what a correct run binds, completes or decodes is compared; nothing is "
      "timed or measured, so no values, targets or memory are shown (run without --scale tiny "
      "for those).\n";
  t += fmt::format("{:<{}}  {:<{}}  {}\n", "SHAPE", shape_width, "CHECK", check_width, "RESULT");
  for (const auto& c : cells) {
    t += fmt::format("{:<{}}  {:<{}}  {}\n", c[0], shape_width, c[1], check_width, c[2]);
  }
  return t;
}

// RunScript: runs `command`, returns its stdout (its stderr passes through: progress) or why not.
tl::expected<std::string, std::string> RunScript(const std::string& command) {
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return tl::unexpected("cannot run " + command);
  std::string text;
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) text.append(buf.data(), n);
  const int status = pclose(pipe);
  if (status != 0) return tl::unexpected(fmt::format("{} exited with status {}", command, status));
  return text;
}

std::string ShellQuote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// UpstreamRow: one compared workload.
struct UpstreamRow {
  std::string name;
  std::string suite;
  std::string status;  // upstream's status, or "not run" / "wasched only" / "no mapping"
  int64_t pods = 0;
  std::optional<double> upstream;  // pods/s
  bool upstream_from_duration = false;
  std::optional<double> ours;      // pods/s
  std::optional<double> ours_seconds;
  std::optional<double> upstream_seconds;  // SchedulingDuration
  int64_t bound = 0;
  int64_t expected_bound = 0;
  std::string note;
};

nlohmann::json OptionalJson(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }

std::string UpstreamTable(const std::vector<UpstreamRow>& rows) {
  auto label = [](const UpstreamRow& r) { return r.suite.empty() ? r.name : r.suite + "/" + r.name; };
  size_t width = 8;
  for (const UpstreamRow& r : rows) width = std::max(width, label(r).size());
  std::string t = fmt::format("{:<{}} {:>6} {:>12} {:>12} {:>9}  {}\n", "WORKLOAD", width, "PODS", "UPSTREAM/s",
                              "OURS/s", "OURS/UP", "NOTE");
  for (const UpstreamRow& r : rows) {
    std::string up = r.upstream ? Number(*r.upstream) + (r.upstream_from_duration ? "*" : "") : r.status;
    std::string ratio = r.upstream && r.ours ? Number(*r.ours / *r.upstream) + "x" : "-";
    t += fmt::format("{:<{}} {:>6} {:>12} {:>12} {:>9}  {}\n", label(r), width, r.pods, up,
                     r.ours ? Number(*r.ours) : "-", ratio, r.note);
  }
  t += "UPSTREAM/s: kube-scheduler v1.37.2's scheduler_perf SchedulingThroughput average (pods/s of wall time, "
       "its whole scheduler: informers, queue and binding API calls against an in-process kube-apiserver and "
       "etcd on this machine); * = pods / SchedulingDuration (the run was shorter than the 1-s samples).\n"
       "OURS/s: the same node and pod counts through wasched's engine alone (sched::Schedule from memory), pods / "
       "median CPU seconds of the scheduling thread. Not the same measurement: the ratio says how far the engine "
       "is from being the bottleneck of a scheduler, not that wasched schedules a cluster that much faster.\n";
  return t;
}

int RunAgainstUpstream(const BenchOptions& options, std::ostream& out, std::ostream& err) {
  std::string text;
  if (!options.upstream_json.empty()) {
    std::ifstream in(options.upstream_json);
    if (!in) {
      err << "error: cannot read " << options.upstream_json << "\n";
      return kExitUsage;
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    text = ss.str();
  } else {
    const std::string script = perf::UpstreamScriptPath();
    err << "bench: running upstream's scheduler_perf: " << script << " (minutes per workload)\n";
    auto ran = RunScript("bash " + ShellQuote(script));
    if (!ran) {
      err << "error: " << ran.error() << "\n";
      return kExitInternal;
    }
    text = std::move(*ran);
  }
  auto results = perf::ParseUpstreamResults(text);
  if (!results) {
    err << "error: upstream results: " << results.error() << "\n";
    return kExitInternal;
  }
  std::vector<UpstreamRow> rows;
  int code = kExitOk;
  std::vector<const perf::UpstreamWorkload*> used;
  for (const perf::UpstreamResult& u : *results) {
    UpstreamRow row;
    row.name = u.test_case + "/" + u.workload;
    row.suite = u.suite;
    row.status = u.status;
    const perf::UpstreamWorkload* w = nullptr;
    for (const perf::UpstreamWorkload& c : perf::UpstreamWorkloads()) {
      if (c.suite == u.suite && c.test_case == u.test_case && c.workload == u.workload) w = &c;
    }
    const bool has_values = u.status == "ok" || u.status == "below-threshold";
    if (has_values) {
      row.upstream_seconds = u.scheduling_seconds;
      if (u.throughput_average) {
        row.upstream = u.throughput_average;
      } else if (u.scheduling_seconds && w != nullptr && *u.scheduling_seconds > 0) {
        row.upstream = static_cast<double>(w->measured_pods) / *u.scheduling_seconds;
        row.upstream_from_duration = true;
      }
    }
    if (w == nullptr) {
      row.note = "no wasched mapping for this workload (perf/upstream.cc)";
    } else {
      used.push_back(w);
      row.pods = w->measured_pods;
      row.note = w->note;
      if (!w->build) {
        row.note = "wasched cannot express it: " + w->note;
      } else {
        err << "bench: engine " << row.name << " …\n";
        const perf::EngineReading e = perf::MeasureEngine(*w, options.repetitions);
        row.ours = e.pods_per_second;
        row.ours_seconds = e.seconds;
        row.bound = e.bound;
        row.expected_bound = e.expected_bound;
        if (e.bound != e.expected_bound) {
          err << "error: " << row.name << ": the engine bound " << e.bound << " pods, a correct run binds "
              << e.expected_bound << "\n";
          row.note = fmt::format("WRONG: engine bound {} of {}", e.bound, e.expected_bound);
          code = kExitInternal;
        }
      }
    }
    if (u.status == "below-threshold") {
      row.note = fmt::format("below upstream's CI threshold {} pods/s (set for 16-core runners){}",
                             u.threshold ? Number(*u.threshold) : "?", row.note.empty() ? "" : "; " + row.note);
    } else if (!has_values) {
      row.note = fmt::format("upstream {}{} (log {}){}", u.status, u.error.empty() ? "" : ": " + u.error, u.log,
                             row.note.empty() ? "" : "; " + row.note);
    }
    rows.push_back(std::move(row));
  }
  // wasched shapes upstream has no workload for.
  for (const perf::UpstreamWorkload& w : perf::UpstreamWorkloads()) {
    if (!w.suite.empty()) continue;
    UpstreamRow row;
    row.name = w.Name();
    row.status = "none";
    row.pods = w.measured_pods;
    row.note = w.note;
    rows.push_back(std::move(row));
  }
  std::string output;
  if (options.output == "json") {
    nlohmann::json list = nlohmann::json::array();
    for (const UpstreamRow& r : rows) {
      nlohmann::json j;
      j["suite"] = r.suite;
      j["workload"] = r.name;
      j["upstreamStatus"] = r.status;
      j["pods"] = r.pods;
      j["upstreamPodsPerSecond"] = OptionalJson(r.upstream);
      j["upstreamMetric"] = r.upstream ? nlohmann::json(r.upstream_from_duration ? "pods/SchedulingDuration"
                                                                                 : "SchedulingThroughput.Average")
                                       : nlohmann::json(nullptr);
      j["upstreamSchedulingSeconds"] = OptionalJson(r.upstream_seconds);
      j["oursPodsPerSecond"] = OptionalJson(r.ours);
      j["oursSeconds"] = OptionalJson(r.ours_seconds);
      j["ratio"] = r.upstream && r.ours ? nlohmann::json(*r.ours / *r.upstream) : nlohmann::json(nullptr);
      j["bound"] = r.bound;
      j["expectedBound"] = r.expected_bound;
      j["note"] = r.note;
      list.push_back(std::move(j));
    }
    output = list.dump(2) + "\n";
  } else {
    output = UpstreamTable(rows);
  }
  return WriteOutput(out, err, output, code);
}

}  // namespace

int RunBench(const BenchOptions& options, std::ostream& out, std::ostream& err) {
  if (options.list) {
    std::string text;
    for (const perf::Shape& s : perf::Shapes()) text += fmt::format("{}  ({})\n", s.name, s.description);
    return WriteOutput(out, err, text, kExitOk);
  }
  if (options.against_upstream) return RunAgainstUpstream(options, out, err);
  std::vector<const perf::Shape*> selected;
  for (const perf::Shape& s : perf::Shapes()) {
    if (Selected(s, options.shapes)) selected.push_back(&s);
  }
  if (selected.empty()) {
    err << "error: no benchmark shape matches";
    for (const std::string& p : options.shapes) err << " \"" << p << "\"";
    err << " (see wasched bench --list)\n";
    return kExitUsage;
  }
  perf::RunOptions run;
  run.scale = options.scale == "tiny" ? perf::Scale::kTiny : perf::Scale::kFull;
  run.timing = run.scale == perf::Scale::kFull;
  run.repetitions = options.repetitions;
  std::vector<perf::Measurement> rows;
  std::vector<const perf::Shape*> row_shapes;  // the shape of each row
  int code = kExitOk;
  for (const perf::Shape* s : selected) {
    err << "bench: " << s->name << " …\n";
    auto m = perf::RunShape(*s, run);
    if (!m) {
      err << "error: " << s->name << ": " << m.error() << "\n";
      code = kExitInternal;
      continue;
    }
    if (!m->correct() && s->measure == perf::Measure::kLoad) {
      err << "error: " << s->name << ": decoded " << m->bound << " objects, the dump holds " << m->expected_bound
          << "\n";
      code = kExitInternal;
    } else if (!m->correct() && s->measure == perf::Measure::kRunSeconds) {
      err << "error: " << s->name << ": completed " << m->bound << " jobs, a correct run completes "
          << m->expected_bound << "\n";
      code = kExitInternal;
    } else if (!m->correct()) {
      err << "error: " << s->name << ": bound " << m->bound << " pods, a correct run binds " << m->expected_bound
          << "\n";
      code = kExitInternal;
    }
    rows.push_back(std::move(*m));
    row_shapes.push_back(s);
  }
  std::string text;
  if (options.output == "json") {
    nlohmann::json list = nlohmann::json::array();
    for (const perf::Measurement& m : rows) list.push_back(ToJson(m));
    text = list.dump(2) + "\n";
  } else {
    text = run.timing ? Table(rows) : TinyTable(rows, row_shapes);
  }
  return WriteOutput(out, err, text, code);
}

std::optional<int> RunBenchIfSelected(CLI::App& app, int argc, const char* const* argv, std::ostream& out,
                                      std::ostream& err) {
  CLI::App* bench = app.add_subcommand(
      "bench", "Measure the scheduler on kube-scheduler's scheduler_perf shapes against wasched's targets");
  auto options = std::make_shared<BenchOptions>();
  bench->callback([options] {});
  bench->add_option("--shape", options->shapes, "Run only shapes whose name starts with NAME (repeatable)")
      ->type_name("NAME");
  bench->add_option("--scale", options->scale, "full (the target sizes) or tiny (correctness only, no timing)")
      ->check(CLI::IsMember({"full", "tiny"}))
      ->capture_default_str();
  bench->add_option("--repetitions", options->repetitions, "Timed runs per shape; the median is reported")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  bench->add_option("-o,--output", options->output, "Output format: table (for people) or json")
      ->check(CLI::IsMember({"table", "json"}))
      ->capture_default_str();
  bench->add_flag("--list", options->list, "List the shapes and exit");
  bench->add_flag("--against-upstream", options->against_upstream,
                  "Run kube-scheduler's own scheduler_perf workloads (scripts/bench-upstream.sh) and the same "
                  "shapes through the engine; print both");
  bench->add_option("--upstream-json", options->upstream_json,
                    "With --against-upstream: read scripts/bench-upstream.sh's output from FILE instead of running it")
      ->type_name("FILE");
  if (!IsSelected(argc, argv, "bench")) return std::nullopt;
  if (auto code = ParseOrExitCode(app, argc, argv, out, err)) return code;
  return RunBench(*options, out, err);
}

}  // namespace wasched::cli
