// File: util/html.cc
#include "util/html.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace wasched {

std::string HtmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

double NiceStep(double span, int target) {
  if (!(span > 0) || !std::isfinite(span) || target < 1) return 1;
  const double raw = span / target;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double fraction = raw / magnitude;
  // The smallest of 1, 2, 5, 10 that is at least the raw step (so at most `target` intervals).
  double nice = 10;
  if (fraction <= 1 + 1e-9) {
    nice = 1;
  } else if (fraction <= 2 + 1e-9) {
    nice = 2;
  } else if (fraction <= 5 + 1e-9) {
    nice = 5;
  }
  return nice * magnitude;
}

std::vector<double> NiceTicks(double max, int target) {
  if (!(max > 0) || !std::isfinite(max)) return {0, 1};
  const double step = NiceStep(max, target);
  // Round every tick to the step's precision, so that k × 0.1 prints as a short decimal.
  const double digits = std::max(0.0, -std::floor(std::log10(step))) + 1;
  const double scale = std::pow(10.0, digits);
  std::vector<double> ticks;
  for (int k = 0;; ++k) {
    const double v = std::round(k * step * scale) / scale;
    ticks.push_back(v);
    if (v >= max * (1 - 1e-12)) break;
  }
  return ticks;
}

std::string FormatTick(double value) {
  if (value == 0) return "0";  // also -0
  std::string s = fmt::format("{:.6f}", value);
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  // Fewer than 6 significant digits kept after the point for tiny values; enough for ticks.
  return s;
}

}  // namespace wasched
