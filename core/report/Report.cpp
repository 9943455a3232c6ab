#include "report/Report.hpp"

#include "analysis/ScalingSweeps.hpp"
#include "analysis/SweepGrid.hpp"
#include "common/AtomicFile.hpp"
#include "common/InputError.hpp"
#include "common/NumberFormat.hpp"
#include "trace/StepTrace.hpp"
#include "training/ScenarioJson.hpp"
#include "training/TrainingJson.hpp"

#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

namespace podscope::report {
namespace {

// Escapes &, <, >, " for HTML text and attributes.
std::string htmlEscape(const std::string& text) {
    std::string out;
    out.reserve(text.size());
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

nlohmann::json pointsJson(const std::vector<analysis::SweepPoint>& points) {
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
    const StepPlan plan = buildStepPlan(scenario);
    d.result = evaluateStepPlan(plan, scenario);
    d.layers = layerTable(plan);
    d.roofs = analysis::coreRoofs(plan);
    const std::size_t total =
        2 * analysis::sweepSliceChips(scenario.hardware).size() +
        analysis::sweepBatches(d.result.plan.replicas, scenario.globalBatch).size();
    std::size_t done = 0;
    const analysis::SweepProgress tick = [&](const std::string& what) {
        ++done;
        if (progress) {
            progress("[" + std::to_string(done) + "/" + std::to_string(total) + "] " + what);
        }
    };
    d.strongScaling = analysis::strongScaling(scenario, tick);
    d.weakScaling = analysis::weakScaling(scenario, d.result, tick);
    d.batches = analysis::batchSweep(scenario, d.result, tick);
    d.measured = analysis::measuredPoints(scenario.workload, scenario.hardware);
    return d;
}

std::string resultsJson(const ReportData& d) {
    nlohmann::json j;
    j["scenario"] = toJson(d.scenario);
    j["preset"] = d.preset ? nlohmann::json(d.preset->name) : nlohmann::json(nullptr);
    j["result"] = toJson(d.result);
    j["strong_scaling"] = pointsJson(d.strongScaling);
    j["weak_scaling"] = pointsJson(d.weakScaling);
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
    auto rows = [&](const char* name, const std::vector<analysis::SweepPoint>& points) {
        for (const auto& p : points) {
            s << name << "," << p.chips << "," << p.globalBatch << ",";
            if (p.result) {
                s << roundTripDigits(p.result->timeToTrainS, 9) << ","
                  << roundTripDigits(p.result->stepTimeS, 9) << ","
                  << roundTripDigits(p.result->throughputExamplesPerS, 9) << ","
                  << p.result->bottleneck << ",";
            } else {
                std::string message = p.error;
                std::replace(message.begin(), message.end(), ',', ';');
                s << ",,,," << message;
            }
            s << "\n";
        }
    };
    rows("base", {analysis::SweepPoint{d.result.chips, d.scenario.globalBatch, d.result, "",
                                       std::nullopt}});
    rows("strong_scaling", d.strongScaling);
    rows("weak_scaling", d.weakScaling);
    rows("batch", d.batches);
    return s.str();
}

std::string reportHtml(const ReportData& d, const std::vector<ReportFigure>& figures) {
    const auto& r = d.result;
    const auto& b = r.breakdown;
    std::ostringstream h;
    h << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>PodScope report: "
      << htmlEscape(d.preset ? d.preset->name : d.scenario.workload) << "</title>\n"
      << "<style>body{font-family:sans-serif;max-width:60em;margin:2em "
         "auto}table{border-collapse:collapse}"
         "td,th{border:1px solid #ccc;padding:.2em .6em;text-align:right}th{text-align:left}"
         "pre{background:#f4f4f4;padding:1em}figure{margin:1.5em 0}figure svg{width:100%;"
         "height:auto}figcaption{color:#333}</style></head><body>\n";
    h << "<h1>PodScope report: " << htmlEscape(d.preset ? d.preset->name : d.scenario.workload)
      << "</h1>\n";
    if (d.preset) {
        h << "<p>" << htmlEscape(d.preset->description) << "</p>\n";
    }
    h << "<h2>Configuration</h2>\n<pre id=\"configuration\">"
      << htmlEscape(toJson(d.scenario).dump(2)) << "</pre>\n";
    h << "<h2>Result</h2>\n<p>Time to train <b>" << significantDigits(r.timeToTrainS, 4)
      << " s</b>, step time " << significantDigits(r.stepTimeS * 1e3, 4) << " ms, "
      << significantDigits(r.throughputExamplesPerS, 6) << " examples/s on " << r.chips
      << " chips.</p>\n";
    h << "<p id=\"bottleneck\">Bottleneck: <b>" << htmlEscape(r.bottleneck) << "</b></p>\n";
    h << "<table id=\"breakdown\"><tr><th>part</th><th>ms per step</th><th>share</th></tr>\n";
    for (const BreakdownPart& part : kBreakdownParts) {
        const char* name = part.label;
        const double v = b.*part.seconds;
        h << "<tr><th>" << name << "</th><td>" << significantDigits(v * 1e3, 4) << "</td><td>"
          << significantDigits(100 * v / r.stepTimeS, 3) << " %</td></tr>\n";
    }
    h << "</table>\n";
    if (d.preset) {
        const auto& ref = d.preset->reference;
        h << "<h2>Comparison with the measured MLPerf v0.7 result</h2>\n<table id=\"reference\">"
          << "<tr><th></th><th>simulated</th><th>measured</th><th>difference</th></tr>\n"
          << "<tr><th>time to train (s)</th><td>" << significantDigits(r.timeToTrainS, 4)
          << "</td><td>" << significantDigits(ref.timeToTrainS, 4) << "</td><td>"
          << significantDigits(deviation(r.timeToTrainS, ref.timeToTrainS), 3) << " %</td></tr>\n";
        if (ref.stepTimeS) {
            const double sim = ref.stepTimeIncludesEval ? r.stepTimeS : r.trainStepS;
            h << "<tr><th>step time (ms)</th><td>" << significantDigits(sim * 1e3, 4) << "</td><td>"
              << significantDigits(*ref.stepTimeS * 1e3, 4) << "</td><td>"
              << significantDigits(deviation(sim, *ref.stepTimeS), 3) << " %</td></tr>\n";
        }
        h << "</table>\n<p>Source: " << htmlEscape(ref.source) << "</p>\n";
    }
    // Inline SVG: drop the XML declaration (and anything before the element), which is not
    // allowed inside HTML.
    auto inlineSvg = [](const std::string& svg) {
        const auto at = svg.find("<svg");
        return at == std::string::npos ? svg : svg.substr(at);
    };
    h << "<h2>Charts</h2>\n";
    if (figures.empty()) {
        h << "<p id=\"no-charts\">No charts: this program was built without its chart renderer "
             "(Qt). The numbers behind them are in results.json and results.csv.</p>\n";
    }
    for (const ReportFigure& f : figures) {
        h << "<figure id=\"figure-" << htmlEscape(f.name) << "\"><h3>" << htmlEscape(f.title)
          << "</h3>\n"
          << inlineSvg(f.svg) << "\n<figcaption>" << htmlEscape(f.caption) << " (<a href=\""
          << htmlEscape(f.name) << ".svg\">SVG</a>, <a href=\"" << htmlEscape(f.name)
          << ".png\">PNG</a>)</figcaption></figure>\n";
    }
    h << "<p>Made by podscope-cli report. The trace of one step is in trace.json (open it in "
         "ui.perfetto.dev).</p>\n</body></html>\n";
    return h.str();
}

ReportFiles writeReport(const ReportData& d, const std::vector<ReportFigure>& figures,
                        const std::string& dir, const Progress& progress) {
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
    if (figures.empty()) {
        files.warnings.push_back("no charts: built without the chart renderer (Qt)");
    }
    for (const ReportFigure& f : figures) {
        write(f.name + ".svg", f.svg);
        write(f.name + ".png", f.png);
    }
    write("report.html", reportHtml(d, figures));
    return files;
}

} // namespace podscope::report
