#include "report/SvgChart.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>

namespace podscope::report {
namespace {

constexpr const char* kColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                    "#9467bd", "#8c564b", "#e377c2"};
constexpr int kLeft = 80, kRight = 190, kTop = 40, kBottom = 60;

std::string fmt(double v) {
    std::ostringstream s;
    // Whole tick values such as 65536 read better in full than as 6.554e+04.
    if (std::abs(v) >= 1000 && std::abs(v) < 1e9 && v == std::round(v)) {
        s << static_cast<long long>(v);
        return s.str();
    }
    s << std::setprecision(4) << v;
    return s.str();
}

std::string px(double v) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(1) << v;
    return s.str();
}

// Maps data to pixels on one axis, linear or logarithmic.
struct Axis {
    double lo = 0, hi = 1;
    bool log = false;
    double p0 = 0, p1 = 1; // pixel positions of lo and hi
    double map(double v) const {
        const double t = log ? (std::log10(v) - std::log10(lo)) / (std::log10(hi) - std::log10(lo))
                             : (v - lo) / (hi - lo);
        return p0 + t * (p1 - p0);
    }
    std::vector<double> ticks() const {
        std::vector<double> t;
        if (log) {
            for (double d = std::pow(10.0, std::floor(std::log10(lo))); d <= hi * 1.0001; d *= 10) {
                for (const double m : {1.0, 2.0, 5.0}) {
                    if (d * m >= lo * 0.9999 && d * m <= hi * 1.0001) {
                        t.push_back(d * m);
                    }
                }
            }
            return t;
        }
        const double raw = (hi - lo) / 5;
        const double mag = std::pow(10.0, std::floor(std::log10(raw)));
        const double step = raw / mag < 2 ? 2 * mag : raw / mag < 5 ? 5 * mag : 10 * mag;
        for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-6; v += step) {
            t.push_back(std::abs(v) < step * 1e-9 ? 0.0 : v);
        }
        return t;
    }
};

Axis fitAxis(double lo, double hi, bool log, double p0, double p1) {
    Axis a;
    a.log = log;
    if (log) {
        lo = std::max(lo, 1e-300);
        a.lo = std::pow(10.0, std::floor(std::log10(lo)));
        a.hi = std::pow(10.0, std::ceil(std::log10(std::max(hi, lo * 1.0001))));
    } else {
        a.lo = std::min(lo, 0.0);
        a.hi = hi > a.lo ? hi * 1.05 : a.lo + 1;
    }
    a.p0 = p0;
    a.p1 = p1;
    return a;
}

void header(std::ostringstream& s, int w, int h, const std::string& title) {
    s << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" << w << "\" height=\""
      << h << "\" viewBox=\"0 0 " << w << " " << h
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text class=\"title\" x=\"" << w / 2
      << "\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">" << xmlEscape(title) << "</text>\n";
}

} // namespace

std::string xmlEscape(const std::string& text) {
    std::string out;
    for (const char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

std::string renderSvg(const LineChart& c, int w, int h) {
    double xlo = std::numeric_limits<double>::max(), xhi = -xlo, ylo = xlo, yhi = -xlo;
    for (const auto& s : c.series) {
        for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
            xlo = std::min(xlo, s.x[i]);
            xhi = std::max(xhi, s.x[i]);
            ylo = std::min(ylo, s.y[i]);
            yhi = std::max(yhi, s.y[i]);
        }
    }
    if (xlo > xhi) {
        xlo = ylo = 1;
        xhi = yhi = 10;
    }
    const Axis ax = fitAxis(xlo, xhi, c.logX, kLeft, w - kRight);
    const Axis ay = fitAxis(ylo, yhi, c.logY, h - kBottom, kTop);
    std::ostringstream s;
    header(s, w, h, c.title);
    // Axes, ticks and grid.
    s << "<g class=\"axes\" stroke=\"black\">\n<line x1=\"" << kLeft << "\" y1=\"" << h - kBottom
      << "\" x2=\"" << w - kRight << "\" y2=\"" << h - kBottom << "\"/>\n<line x1=\"" << kLeft
      << "\" y1=\"" << kTop << "\" x2=\"" << kLeft << "\" y2=\"" << h - kBottom << "\"/>\n</g>\n";
    for (const double t : ax.ticks()) {
        const double x = ax.map(t);
        s << "<line x1=\"" << px(x) << "\" y1=\"" << h - kBottom << "\" x2=\"" << px(x)
          << "\" y2=\"" << h - kBottom + 5 << "\" stroke=\"black\"/><text class=\"tick\" x=\""
          << px(x) << "\" y=\"" << h - kBottom + 18 << "\" text-anchor=\"middle\">" << fmt(t)
          << "</text>\n";
    }
    for (const double t : ay.ticks()) {
        const double y = ay.map(t);
        s << "<line x1=\"" << kLeft - 5 << "\" y1=\"" << px(y) << "\" x2=\"" << w - kRight
          << "\" y2=\"" << px(y) << "\" stroke=\"#ddd\"/><text class=\"tick\" x=\"" << kLeft - 8
          << "\" y=\"" << px(y + 4) << "\" text-anchor=\"end\">" << fmt(t) << "</text>\n";
    }
    s << "<text class=\"xlabel\" x=\"" << (kLeft + w - kRight) / 2 << "\" y=\"" << h - 15
      << "\" text-anchor=\"middle\">" << xmlEscape(c.xLabel) << "</text>\n";
    s << "<text class=\"ylabel\" transform=\"translate(18," << (kTop + h - kBottom) / 2
      << ") rotate(-90)\" text-anchor=\"middle\">" << xmlEscape(c.yLabel) << "</text>\n";
    // Series and legend.
    for (std::size_t i = 0; i < c.series.size(); ++i) {
        const auto& ser = c.series[i];
        const char* colour = kColours[i % std::size(kColours)];
        s << "<g class=\"series\" data-name=\"" << xmlEscape(ser.name) << "\" stroke=\"" << colour
          << "\" fill=\"" << colour << "\">\n";
        if (!ser.markersOnly && ser.x.size() > 1) {
            s << "<polyline fill=\"none\" stroke-width=\"2\" points=\"";
            for (std::size_t k = 0; k < ser.x.size() && k < ser.y.size(); ++k) {
                s << (k ? " " : "") << px(ax.map(ser.x[k])) << "," << px(ay.map(ser.y[k]));
            }
            s << "\"/>\n";
        }
        for (std::size_t k = 0; k < ser.x.size() && k < ser.y.size(); ++k) {
            s << "<circle cx=\"" << px(ax.map(ser.x[k])) << "\" cy=\"" << px(ay.map(ser.y[k]))
              << "\" r=\"" << (ser.markersOnly ? 6 : 3) << "\"/>\n";
        }
        const int ly = kTop + 10 + static_cast<int>(i) * 20;
        s << "<rect x=\"" << w - kRight + 15 << "\" y=\"" << ly - 8
          << "\" width=\"12\" height=\"12\"/>"
          << "<text class=\"legend\" stroke=\"none\" fill=\"black\" x=\"" << w - kRight + 32
          << "\" y=\"" << ly + 2 << "\">" << xmlEscape(ser.name) << "</text>\n</g>\n";
    }
    s << "</svg>\n";
    return s.str();
}

std::string renderSvg(const BarChart& c, int w, int h) {
    double hi = 0;
    for (const double v : c.values) {
        hi = std::max(hi, v);
    }
    const Axis ay = fitAxis(0, hi > 0 ? hi : 1, false, h - kBottom, kTop);
    std::ostringstream s;
    header(s, w, h, c.title);
    s << "<g class=\"axes\" stroke=\"black\">\n<line x1=\"" << kLeft << "\" y1=\"" << h - kBottom
      << "\" x2=\"" << w - kRight << "\" y2=\"" << h - kBottom << "\"/>\n<line x1=\"" << kLeft
      << "\" y1=\"" << kTop << "\" x2=\"" << kLeft << "\" y2=\"" << h - kBottom << "\"/>\n</g>\n";
    for (const double t : ay.ticks()) {
        const double y = ay.map(t);
        s << "<line x1=\"" << kLeft - 5 << "\" y1=\"" << px(y) << "\" x2=\"" << w - kRight
          << "\" y2=\"" << px(y) << "\" stroke=\"#ddd\"/><text class=\"tick\" x=\"" << kLeft - 8
          << "\" y=\"" << px(y + 4) << "\" text-anchor=\"end\">" << fmt(t) << "</text>\n";
    }
    s << "<text class=\"ylabel\" transform=\"translate(18," << (kTop + h - kBottom) / 2
      << ") rotate(-90)\" text-anchor=\"middle\">" << xmlEscape(c.valueLabel) << "</text>\n";
    const std::size_t n = std::max<std::size_t>(c.values.size(), 1);
    const double slot = static_cast<double>(w - kRight - kLeft) / static_cast<double>(n);
    for (std::size_t i = 0; i < c.values.size(); ++i) {
        const char* colour = kColours[i % std::size(kColours)];
        const double x = kLeft + slot * static_cast<double>(i) + slot * 0.15;
        const double y = ay.map(c.values[i]);
        const std::string label = i < c.labels.size() ? c.labels[i] : "";
        s << "<g class=\"series\" data-name=\"" << xmlEscape(label) << "\" fill=\"" << colour
          << "\">"
          << "<rect x=\"" << px(x) << "\" y=\"" << px(y) << "\" width=\"" << px(slot * 0.7)
          << "\" height=\"" << px(h - kBottom - y) << "\"/>"
          << "<text class=\"value\" fill=\"black\" x=\"" << px(x + slot * 0.35) << "\" y=\""
          << px(y - 4) << "\" text-anchor=\"middle\">" << fmt(c.values[i]) << "</text>";
        const int ly = kTop + 10 + static_cast<int>(i) * 20;
        s << "<rect x=\"" << w - kRight + 15 << "\" y=\"" << ly - 8
          << "\" width=\"12\" height=\"12\"/>"
          << "<text class=\"legend\" fill=\"black\" x=\"" << w - kRight + 32 << "\" y=\"" << ly + 2
          << "\">" << xmlEscape(label) << "</text></g>\n";
    }
    s << "</svg>\n";
    return s.str();
}

} // namespace podscope::report
