#include "report/Report.hpp"

#include "common/InputError.hpp"
#include "report/AtomicFile.hpp"
#include "report/SvgChart.hpp"
#include "trace/StepTrace.hpp"
#include "training/ScenarioJson.hpp"
#include "training/TrainingJson.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unistd.h>

namespace podscope::report {
namespace {

constexpr std::int64_t kScalingChips[] = {16, 32, 64, 128, 256, 512, 1024, 2048, 4096};
constexpr double kBatchFactors[] = {0.125, 0.25, 0.5, 1, 2, 4};

SweepPoint evaluate(const Scenario& base, std::int64_t chips, std::int64_t batch, bool setSlice) {
    SweepPoint p{chips, batch, std::nullopt, ""};
    try {
        Scenario s = base;
        if (setSlice) {
            useStandardSlice(s, chips);
        }
        s.globalBatch = batch;
        p.result = simulateTraining(s);
    } catch (const InputError& e) {
        p.error = e.what();
    }
    return p;
}

std::string number(double v, int precision = 6) {
    std::ostringstream s;
    s << std::setprecision(precision) << v;
    return s.str();
}

nlohmann::json pointsJson(const std::vector<SweepPoint>& points) {
    auto array = nlohmann::json::array();
    for (const auto& p : points) {
        nlohmann::json j = p.result ? toJson(*p.result) : nlohmann::json::object();
        j["chips"] = p.chips;
        j["global_batch"] = p.globalBatch;
        if (!p.result) {
            j["error"] = p.error;
        }
        array.push_back(j);
    }
    return array;
}

// Percent difference of the simulation from the measurement.
double deviation(double simulated, double measured) {
    return 100.0 * (simulated - measured) / measured;
}

} // namespace

ReportData computeReport(const Scenario& scenario, const std::optional<Preset>& preset,
                         const Progress& progress) {
    ReportData d;
    d.scenario = scenario;
    d.preset = preset;
    d.result = simulateTraining(scenario);
    const double batchPerChip =
        static_cast<double>(scenario.globalBatch) / static_cast<double>(d.result.chips);
    const std::size_t total = std::size(kScalingChips) + std::size(kBatchFactors);
    std::size_t done = 0;
    auto tick = [&](const std::string& what) {
        ++done;
        if (progress) {
            progress("[" + std::to_string(done) + "/" + std::to_string(total) + "] " + what);
        }
    };
    for (const auto chips : kScalingChips) {
        const auto batch =
            std::max<std::int64_t>(1, std::llround(batchPerChip * static_cast<double>(chips)));
        d.scaling.push_back(evaluate(scenario, chips, batch, true));
        tick("scaling: " + std::to_string(chips) + " chips, global batch " + std::to_string(batch));
    }
    for (const double f : kBatchFactors) {
        const auto batch =
            std::max<std::int64_t>(1, std::llround(f * static_cast<double>(scenario.globalBatch)));
        d.batches.push_back(evaluate(scenario, d.result.chips, batch, false));
        tick("batch: global batch " + std::to_string(batch) + " on " +
             std::to_string(d.result.chips) + " chips");
    }
    for (const auto& name : presetNames()) {
        const Preset p = loadPreset(name);
        if (p.scenario.workload != scenario.workload) {
            continue;
        }
        MeasuredPoint m;
        m.preset = name;
        m.globalBatch = p.scenario.globalBatch;
        m.timeToTrainS = p.reference.timeToTrainS;
        try {
            m.chips = simulateTraining(p.scenario).chips;
        } catch (const InputError&) {
            continue;
        }
        if (p.reference.stepTimeS && *p.reference.stepTimeS > 0) {
            m.throughputExamplesPerS = static_cast<double>(m.globalBatch) / *p.reference.stepTimeS;
        }
        d.measured.push_back(m);
    }
    return d;
}

std::string resultsJson(const ReportData& d) {
    nlohmann::json j;
    j["scenario"] = toJson(d.scenario);
    j["preset"] = d.preset ? nlohmann::json(d.preset->name) : nlohmann::json(nullptr);
    j["result"] = toJson(d.result);
    j["scaling"] = pointsJson(d.scaling);
    j["batch_sweep"] = pointsJson(d.batches);
    if (d.preset) {
        const auto& ref = d.preset->reference;
        j["reference"] = {{"time_to_train_s", ref.timeToTrainS}, {"source", ref.source}};
        if (ref.stepTimeS) {
            j["reference"]["step_time_s"] = *ref.stepTimeS;
        }
    }
    return j.dump(2) + "\n";
}

std::string resultsCsv(const ReportData& d) {
    std::ostringstream s;
    // The configuration as one JSON line, so that the rows can be regenerated from the file.
    s << "# scenario: " << toJson(d.scenario).dump() << "\n";
    s << "sweep,chips,global_batch,time_to_train_s,step_time_s,throughput_examples_per_s,"
         "bottleneck,error\n";
    auto rows = [&](const char* name, const std::vector<SweepPoint>& points) {
        for (const auto& p : points) {
            s << name << "," << p.chips << "," << p.globalBatch << ",";
            if (p.result) {
                s << number(p.result->timeToTrainS, 9) << "," << number(p.result->stepTimeS, 9)
                  << "," << number(p.result->throughputExamplesPerS, 9) << ","
                  << p.result->bottleneck << ",";
            } else {
                std::string message = p.error;
                std::replace(message.begin(), message.end(), ',', ';');
                s << ",,,," << message;
            }
            s << "\n";
        }
    };
    rows("base", {SweepPoint{d.result.chips, d.scenario.globalBatch, d.result, ""}});
    rows("scaling", d.scaling);
    rows("batch", d.batches);
    return s.str();
}

std::string scalingSvg(const ReportData& d) {
    LineChart c;
    c.title = "Throughput against chips (" + d.scenario.workload + ", per-chip batch kept)";
    c.xLabel = "chips";
    c.yLabel = "throughput (examples/s)";
    c.logX = c.logY = true;
    Series sim{"simulated", {}, {}, false};
    for (const auto& p : d.scaling) {
        if (p.result) {
            sim.x.push_back(static_cast<double>(p.chips));
            sim.y.push_back(p.result->throughputExamplesPerS);
        }
    }
    Series ideal{"ideal scaling", {}, {}, false};
    if (!sim.x.empty()) {
        for (const double x : sim.x) {
            ideal.x.push_back(x);
            ideal.y.push_back(sim.y.front() * x / sim.x.front());
        }
    }
    Series measured{"MLPerf v0.7 measured", {}, {}, true};
    for (const auto& m : d.measured) {
        if (m.throughputExamplesPerS) {
            measured.x.push_back(static_cast<double>(m.chips));
            measured.y.push_back(*m.throughputExamplesPerS);
        }
    }
    c.series = {sim, ideal};
    if (!measured.x.empty()) {
        c.series.push_back(measured);
    }
    return renderSvg(c);
}

std::string breakdownSvg(const ReportData& d) {
    const auto& b = d.result.breakdown;
    BarChart c;
    c.title = "Step breakdown (" + std::to_string(d.result.chips) + " chips, batch " +
              std::to_string(d.scenario.globalBatch) + ")";
    c.valueLabel = "time per step (ms)";
    for (const BreakdownPart& part : kBreakdownParts) {
        c.labels.push_back(part.label);
        c.values.push_back(b.*part.seconds * 1e3);
    }
    return renderSvg(c);
}

std::string batchSvg(const ReportData& d) {
    LineChart c;
    c.title = "Time to train against global batch (" + std::to_string(d.result.chips) + " chips)";
    c.xLabel = "global batch (examples)";
    c.yLabel = "time to train (min)";
    c.logX = true;
    Series sim{"simulated", {}, {}, false};
    for (const auto& p : d.batches) {
        if (p.result) {
            sim.x.push_back(static_cast<double>(p.globalBatch));
            sim.y.push_back(p.result->timeToTrainS / 60);
        }
    }
    c.series = {sim};
    Series measured{"MLPerf v0.7 measured", {}, {}, true};
    for (const auto& m : d.measured) {
        if (m.chips == d.result.chips) {
            measured.x.push_back(static_cast<double>(m.globalBatch));
            measured.y.push_back(m.timeToTrainS / 60);
        }
    }
    if (!measured.x.empty()) {
        c.series.push_back(measured);
    }
    return renderSvg(c);
}

std::string reportHtml(const ReportData& d) {
    const auto& r = d.result;
    const auto& b = r.breakdown;
    std::ostringstream h;
    h << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>PodScope report: "
      << xmlEscape(d.preset ? d.preset->name : d.scenario.workload) << "</title>\n"
      << "<style>body{font-family:sans-serif;max-width:60em;margin:2em "
         "auto}table{border-collapse:collapse}"
         "td,th{border:1px solid #ccc;padding:.2em .6em;text-align:right}th{text-align:left}"
         "pre{background:#f4f4f4;padding:1em}</style></head><body>\n";
    h << "<h1>PodScope report: " << xmlEscape(d.preset ? d.preset->name : d.scenario.workload)
      << "</h1>\n";
    if (d.preset) {
        h << "<p>" << xmlEscape(d.preset->description) << "</p>\n";
    }
    h << "<h2>Configuration</h2>\n<pre id=\"configuration\">"
      << xmlEscape(toJson(d.scenario).dump(2)) << "</pre>\n";
    h << "<h2>Result</h2>\n<p>Time to train <b>" << number(r.timeToTrainS, 4)
      << " s</b>, step time " << number(r.stepTimeS * 1e3, 4) << " ms, "
      << number(r.throughputExamplesPerS, 6) << " examples/s on " << r.chips << " chips.</p>\n";
    h << "<p id=\"bottleneck\">Bottleneck: <b>" << xmlEscape(r.bottleneck) << "</b></p>\n";
    h << "<table id=\"breakdown\"><tr><th>part</th><th>ms per step</th><th>share</th></tr>\n";
    for (const BreakdownPart& part : kBreakdownParts) {
        const char* name = part.label;
        const double v = b.*part.seconds;
        h << "<tr><th>" << name << "</th><td>" << number(v * 1e3, 4) << "</td><td>"
          << number(100 * v / r.stepTimeS, 3) << " %</td></tr>\n";
    }
    h << "</table>\n";
    if (d.preset) {
        const auto& ref = d.preset->reference;
        h << "<h2>Comparison with the measured MLPerf v0.7 result</h2>\n<table id=\"reference\">"
          << "<tr><th></th><th>simulated</th><th>measured</th><th>difference</th></tr>\n"
          << "<tr><th>time to train (s)</th><td>" << number(r.timeToTrainS, 4) << "</td><td>"
          << number(ref.timeToTrainS, 4) << "</td><td>"
          << number(deviation(r.timeToTrainS, ref.timeToTrainS), 3) << " %</td></tr>\n";
        if (ref.stepTimeS) {
            const double sim = ref.stepTimeIncludesEval ? r.stepTimeS : r.trainStepS;
            h << "<tr><th>step time (ms)</th><td>" << number(sim * 1e3, 4) << "</td><td>"
              << number(*ref.stepTimeS * 1e3, 4) << "</td><td>"
              << number(deviation(sim, *ref.stepTimeS), 3) << " %</td></tr>\n";
        }
        h << "</table>\n<p>Source: " << xmlEscape(ref.source) << "</p>\n";
    }
    // Inline SVG: drop the XML declaration, which is not allowed inside HTML.
    auto inlineSvg = [](const std::string& svg) {
        const auto at = svg.find("<svg");
        return at == std::string::npos ? svg : svg.substr(at);
    };
    h << "<h2>Scaling</h2>\n"
      << inlineSvg(scalingSvg(d)) << "<h2>Step breakdown</h2>\n"
      << inlineSvg(breakdownSvg(d)) << "<h2>Global batch</h2>\n"
      << inlineSvg(batchSvg(d));
    h << "<p>Made by podscope-cli report. The trace of one step is in trace.json (open it in "
         "ui.perfetto.dev).</p>\n</body></html>\n";
    return h.str();
}

ReportFiles writeReport(const ReportData& d, const std::string& dir, const Progress& progress) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec || !fs::is_directory(dir)) {
        throw InputError("out", "cannot create directory '" + dir + "'");
    }
    ReportFiles files;
    auto write = [&](const std::string& name, const std::string& content) {
        const std::string path = (fs::path(dir) / name).string();
        writeFileAtomically(path, content, "out");
        files.written.push_back(path);
        if (progress) {
            progress("wrote " + path);
        }
    };
    write("results.json", resultsJson(d));
    write("results.csv", resultsCsv(d));
    if (progress) {
        progress("simulating the gradient collective for trace.json...");
    }
    write("trace.json", trace::buildStepTrace(d.scenario, d.result).dump());
    const std::pair<const char*, std::string> charts[] = {
        {"scaling", scalingSvg(d)}, {"breakdown", breakdownSvg(d)}, {"batch", batchSvg(d)}};
    const bool haveRsvg = std::system("command -v rsvg-convert >/dev/null 2>&1") == 0;
    if (!haveRsvg) {
        files.warnings.push_back(
            "rsvg-convert not found on PATH: PNG charts skipped (install librsvg2-bin)");
    }
    for (const auto& [name, svg] : charts) {
        write(std::string(name) + ".svg", svg);
        if (!haveRsvg) {
            continue;
        }
        // Rendered to a temporary name and renamed, like every other file.
        const fs::path png = fs::path(dir) / (std::string(name) + ".png");
        const fs::path temp =
            fs::path(dir) / ("." + std::string(name) + ".png.tmp" + std::to_string(::getpid()));
        const fs::path svgPath = fs::path(dir) / (std::string(name) + ".svg");
        const std::string command =
            "rsvg-convert -f png -o '" + temp.string() + "' '" + svgPath.string() + "'";
        if (dir.find('\'') != std::string::npos || std::system(command.c_str()) != 0) {
            fs::remove(temp, ec);
            files.warnings.push_back("rsvg-convert failed on " + svgPath.string() +
                                     ": PNG skipped");
            continue;
        }
        fs::rename(temp, png, ec);
        if (ec) {
            fs::remove(temp, ec);
            throw InputError("out", "cannot replace '" + png.string() + "'");
        }
        files.written.push_back(png.string());
    }
    write("report.html", reportHtml(d));
    return files;
}

} // namespace podscope::report
