#pragma once

#include <string>
#include <vector>

namespace podscope::report {

struct Series {
    std::string name;
    std::vector<double> x;
    std::vector<double> y;
    bool markersOnly = false; // measured points: markers, no line
};

struct LineChart {
    std::string title;
    std::string xLabel; // with unit, e.g. "chips"
    std::string yLabel; // with unit, e.g. "examples/s"
    bool logX = false;
    bool logY = false;
    std::vector<Series> series;
};

struct BarChart {
    std::string title;
    std::string valueLabel; // with unit
    std::vector<std::string> labels;
    std::vector<double> values;
};

// Hand-written SVG 1.1 (no Qt): axes, ticks with values, axis labels with units, a legend. Each
// series is a <g class="series" data-name="..."> so that tests and scripts can find it.
std::string renderSvg(const LineChart& chart, int width = 720, int height = 440);
std::string renderSvg(const BarChart& chart, int width = 720, int height = 440);

// Escapes &, <, >, " for XML text and attributes.
std::string xmlEscape(const std::string& text);

} // namespace podscope::report
