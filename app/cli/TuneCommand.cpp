#include "TuneCommand.hpp"

#include "NumberFlags.hpp"
#include "OutputPaths.hpp"
#include "TuneMpi.hpp"
#include "TuneText.hpp"
#include "api/TunePlan.hpp"
#include "common/AtomicFile.hpp"
#include "common/InputError.hpp"
#include "search/Search.hpp"
#include "search/TuneReport.hpp"
#include "settings/ScenarioSettings.hpp"
#include "settings/SettingValue.hpp"

#ifdef PODSCOPE_WITH_CHARTS
#include "export/ParetoExport.hpp"
#include "figure/ParetoFigure.hpp"
#endif

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace podscope::cli {
namespace {

using namespace search;
using api::withCommas;

// Set by SIGINT: the search stops and writes what it found.
std::atomic<bool> gInterrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void onInterrupt(int) {
    gInterrupted.store(true);
}

// Installs the Ctrl-C handler for the command's lifetime.
class InterruptGuard {
public:
    InterruptGuard() {
        gInterrupted = false;
        previous_ = std::signal(SIGINT, onInterrupt);
    }
    ~InterruptGuard() { std::signal(SIGINT, previous_); }

private:
    void (*previous_)(int) = SIG_DFL;
};

// --fix key=value, split (the API checks the keys).
std::vector<std::pair<std::string, std::string>> parseFixes(const std::vector<std::string>& fixes) {
    std::vector<std::pair<std::string, std::string>> parsed;
    for (const auto& fix : fixes) {
        const auto equals = fix.find('=');
        if (equals == std::string::npos || equals == 0) {
            throw InputError("fix", "'" + fix + "' must read key=value, such as gradient.chunks=8");
        }
        parsed.emplace_back(fix.substr(0, equals), fix.substr(equals + 1));
    }
    return parsed;
}

// The request of the public API (podscope/tune.hpp) that these flags make.
api::TuneRequest tuneRequest(const TuneOptions& o) {
    api::TuneRequest r;
    r.model = o.model.value_or("");
    r.preset = o.preset.value_or("");
    r.framework = o.framework.value_or("");
    r.chips = o.chips;
    r.objective = o.objective;
    r.goal = o.goal;
    r.fidelity = o.fidelity;
    r.pareto = o.pareto;
    r.top = o.top;
    r.fixes = parseFixes(o.fixes);
    r.allowExtrapolation = o.allowExtrapolation;
    r.threads = o.threads;
    for (const auto& [flag, value] :
         {std::pair{"hardware", &o.hardware}, std::pair{"dcn-bw", &o.dcnBandwidth},
          std::pair{"train-steps", &o.trainSteps}, std::pair{"train-examples", &o.trainExamples}}) {
        if (*value) {
            r.settings.emplace_back(flag, **value);
        }
    }
    return r;
}

// Runs the search on this process's threads, drawing a progress line with the time left when
// stderr is a terminal.
SearchTally searchWithProgress(const SearchSpace& space, SearchOptions options, bool showProgress,
                               std::ostream& err) {
    std::atomic<std::uint64_t> done{0};
    options.progress = &done;
    options.cancel = &gInterrupted;
    const std::uint64_t total = configurationsOfRank(space, options.rank, options.ranks);
    SearchTally tally;
    std::exception_ptr failure;
    std::atomic<bool> finished{false};
    const auto start = std::chrono::steady_clock::now();
    {
        std::jthread worker([&] {
            try {
                tally = runSearch(space, options);
            } catch (...) {
                failure = std::current_exception();
            }
            finished = true;
        });
        while (!finished.load()) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            if (!showProgress) {
                continue;
            }
            const double elapsed =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            const std::uint64_t n = done.load();
            std::string eta = "estimating the time left";
            if (n > 0) {
                const double left = elapsed * static_cast<double>(total - std::min(n, total)) /
                                    static_cast<double>(n);
                eta = "about " + formatSeconds(std::max(left, 0.0)) + " left";
            }
            err << "\rtune: " << withCommas(n) << " of " << withCommas(total) << " configurations ("
                << (total ? 100 * n / total : 100) << " %), " << eta << "      " << std::flush;
        }
    }
    if (showProgress) {
        err << "\r" << std::string(78, ' ') << "\r" << std::flush;
    }
    if (failure) {
        std::rethrow_exception(failure);
    }
    return tally;
}

// --chart: a file name the chart can be written to, and charts in this build.
void checkChartPath(const std::string& path) {
    std::string extension = std::filesystem::path(path).extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (extension != ".png" && extension != ".svg" && extension != ".pdf") {
        throw InputError("chart", "'" + path + "' must end in .png, .svg or .pdf");
    }
#ifndef PODSCOPE_WITH_CHARTS
    throw InputError("chart", "this podscope-cli was built without Qt Charts: --chart is "
                              "unavailable (the front is in the text, --json and --csv)");
#else
    checkOutputFile(path, "chart");
#endif
}

void writeChart([[maybe_unused]] const TuneReport& report,
                [[maybe_unused]] const std::string& path) {
#ifdef PODSCOPE_WITH_CHARTS
    if (const std::string problem = ui::writeParetoChart(ui::paretoFigure(report), path);
        !problem.empty()) {
        throw std::runtime_error(problem);
    }
#endif
}

} // namespace

CLI::App* addTuneCommand(CLI::App& app, TuneOptions& o) {
    auto* cmd = app.add_subcommand(
        "tune", "Find the fastest configuration of a model (search, Pareto front)");
    cmd->add_option("--model", o.model,
                    "The model: a bundled one (resnet50, bert, transformer, gnmt, ssd, maskrcnn) "
                    "or a file (.onnx, config.json, a workload .json; docs/workloads.md)");
    cmd->add_option("--preset", o.preset, "Start from this MLPerf preset instead of the model's");
    cmd->add_option("--framework", o.framework,
                    "tf, jax or tf2 (default: the model's TF preset; jax for a model file)");
    cmd->add_option("--chips", o.chips,
                    "Chip count in all, list (512,4096) or range (256..4096): standard slices, "
                    "or where the machine offers a DCN 2 to 16 of them (docs/tune.md)")
        ->required();
    cmd->add_option("--objective", o.objective, "time-to-train, throughput or chip-seconds")
        ->capture_default_str();
    cmd->add_option("--goal", o.goal,
                    "The best must reach this: at most S seconds (time-to-train), at least N "
                    "examples/s (throughput), at most N chip-seconds")
        ->check(realNumber());
    cmd->add_option("--fidelity", o.fidelity,
                    "analytic, or timeline: confirm the best K with the step timeline")
        ->capture_default_str();
    cmd->add_option("--pareto", o.pareto, "The Pareto front's cost axis: chips or chip-seconds")
        ->capture_default_str();
    cmd->add_option("--top", o.top, "Configurations to list (1 to 100)")
        ->capture_default_str()
        ->check(wholeNumberFor<int>());
    cmd->add_option("--fix", o.fixes, "Pin a dimension, e.g. --fix gradient.chunks=8 (repeatable)");
    cmd->add_flag("--allow-extrapolation", o.allowExtrapolation,
                  "Also search batches outside the convergence model's measured range");
    for (const auto& [flag, value] :
         {std::pair{"hardware", &o.hardware}, std::pair{"dcn-bw", &o.dcnBandwidth},
          std::pair{"train-steps", &o.trainSteps}, std::pair{"train-examples", &o.trainExamples}}) {
        const Setting& s = *findSettingByFlag(flag);
        cmd->add_option("--" + std::string(flag), *value, settingHelp(s))->type_name(valueName(s));
    }
    cmd->add_option("--threads", o.threads, "Threads (default: all cores)")
        ->check(wholeNumberFor<int>());
    cmd->add_option("--out", o.out, "Write the result to this file (atomically) instead of stdout");
    cmd->add_option(
        "--chart", o.chart,
        "Also draw the Pareto front to this .png, .svg or .pdf (1600x1000 px, 200 DPI)");
    auto* csv = cmd->add_flag("--csv", o.csv, "CSV: the top K and the Pareto front");
    cmd->add_flag("--json", o.json, "One JSON object")->excludes(csv);
    cmd->add_flag("--mpi", o.mpi, "Split the space among MPI ranks (mpirun, srun); rank 0 writes");
    return cmd;
}

int runTuneCommand(const TuneOptions& o, std::ostream& out, std::ostream& err) {
    // Everything a user can get wrong is checked before the search starts.
    const api::PreparedTune tune = api::prepareTune(tuneRequest(o));
    const TuneSettings& settings = tune.settings;
    if (o.out) {
        checkOutputFile(*o.out, "out");
    }
    if (o.chart) {
        checkChartPath(*o.chart);
    }
    const SearchSpace space(tune.space);

    std::optional<MpiSession> mpi;
    if (o.mpi) {
        mpi.emplace(); // InputError naming mpi without MPI
    }
    const bool root = !mpi || mpi->rank() == 0;
    const InterruptGuard interrupts;
    SearchOptions options;
    options.objective = settings.objective;
    options.keep = settings.top + 1;
    options.threads = settings.threads;
    options.rank = mpi ? mpi->rank() : 0;
    options.ranks = mpi ? mpi->size() : 1;
    const bool terminal = ::isatty(STDERR_FILENO) == 1;
    SearchTally tally = searchWithProgress(space, options, root && terminal, err);
    if (mpi) {
        tally = mpi->gather(tally);
    }
    if (!root) {
        return 0;
    }

    if (tally.evaluated() == 0 && gInterrupted.load()) {
        err << "tune: interrupted before any configuration was evaluated\n";
        return 130;
    }
    api::checkSomethingEvaluated(space, tally);
    const TuneReport report = buildTuneReport(space, tally, settings);
    api::checkGoal(tune, report);
    const std::string text = o.json  ? toJson(report).dump(2) + "\n"
                             : o.csv ? tuneCsv(report)
                                     : tuneText(report);
    if (o.out) {
        writeFileAtomically(*o.out, text, "out");
    } else {
        out << text;
    }
    if (o.chart) {
        writeChart(report, *o.chart);
    }
    if (!report.complete) {
        err << "tune: interrupted: the result covers "
            << withCommas(report.evaluated + tally.skipped().total()) << " of "
            << withCommas(report.configurations) << " configurations\n";
        return 130;
    }
    return 0;
}

} // namespace podscope::cli
