#include "TuneCommand.hpp"

#include "NumberFlags.hpp"
#include "OutputPaths.hpp"
#include "Suggestion.hpp"
#include "TuneMpi.hpp"
#include "TuneText.hpp"
#include "common/InputError.hpp"
#include "report/AtomicFile.hpp"
#include "search/Search.hpp"
#include "search/StartingScenario.hpp"
#include "search/TuneReport.hpp"
#include "topology/TopologyPresets.hpp"
#include "training/Framework.hpp"
#include "training/Presets.hpp"

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

std::string suggestion(const std::string& word, const std::vector<std::string>& candidates) {
    const auto match = closestMatch(word, candidates);
    return match ? "; did you mean '" + *match + "'?" : "";
}

std::string joined(const std::vector<std::string>& words) {
    std::string text;
    for (const auto& w : words) {
        text += (text.empty() ? "" : ", ") + w;
    }
    return text;
}

// The standard slice sizes, smallest first.
std::int64_t chipCount(const std::string& text) {
    std::int64_t value = 0;
    try {
        std::size_t used = 0;
        value = std::stoll(text, &used);
        if (used != text.size()) {
            throw std::invalid_argument(text);
        }
    } catch (const std::exception&) {
        throw InputError("chips", "'" + text + "' is not a whole number");
    }
    return value;
}

// "4096", "512,4096" or "256..4096" (the standard slices in between).
std::vector<std::int64_t> parseChips(const std::string& text, const std::string& hardware) {
    if (text.empty()) {
        throw InputError("chips", "give a chip count, a list (512,4096) or a range (256..4096)");
    }
    std::vector<std::int64_t> chips;
    const auto range = text.find("..");
    if (range != std::string::npos) {
        const auto low = chipCount(text.substr(0, range));
        const auto high = chipCount(text.substr(range + 2));
        if (low > high) {
            throw InputError("chips",
                             "the range " + text + " is empty (the first count is larger)");
        }
        for (const auto n : standardChipCounts(hardware)) {
            if (n >= low && n <= high) {
                chips.push_back(n);
            }
        }
        if (chips.empty()) {
            throw InputError("chips", "no standard slice lies in " + text);
        }
        return chips;
    }
    std::stringstream list(text);
    for (std::string item; std::getline(list, item, ',');) {
        const auto n = chipCount(item);
        standardSlice(hardware, n); // InputError naming chips, with the known counts
        chips.push_back(n);
    }
    return chips;
}

// The base scenario: a preset, or the model's preset (of --framework, TF first otherwise).
Scenario baseScenario(const TuneOptions& o) {
    if (o.model && o.preset) {
        throw InputError("model", "give either --model or --preset, not both");
    }
    if (o.preset) {
        if (o.framework) {
            throw InputError("framework",
                             "the preset sets the framework; use --model with --framework");
        }
        return loadPreset(*o.preset).scenario;
    }
    if (!o.model) {
        throw InputError("model",
                         "give --model NAME (" + joined(workloadNames()) + ") or --preset NAME");
    }
    const auto models = workloadNames();
    if (std::find(models.begin(), models.end(), *o.model) == models.end()) {
        throw InputError("model", "unknown model '" + *o.model + "'" +
                                      suggestion(*o.model, models) + " (known: " + joined(models) +
                                      ")");
    }
    if (o.framework) {
        loadFramework(*o.framework); // InputError naming the framework
    }
    const std::optional<Scenario> chosen = startingScenario(*o.model, o.framework);
    if (!chosen) {
        throw InputError("model", *o.model + " has no preset to start from");
    }
    return *chosen;
}

std::vector<std::pair<std::string, std::string>> parseFixes(const std::vector<std::string>& fixes) {
    std::vector<std::string> keys(dimensionKeys().begin(), dimensionKeys().end());
    std::vector<std::pair<std::string, std::string>> parsed;
    for (const auto& fix : fixes) {
        const auto equals = fix.find('=');
        if (equals == std::string::npos || equals == 0) {
            throw InputError("fix", "'" + fix + "' must read key=value, such as gradient.chunks=8");
        }
        std::string key = fix.substr(0, equals);
        // The gradient's keys may leave out "gradient.".
        if (std::find(keys.begin(), keys.end(), key) == keys.end() &&
            std::find(keys.begin(), keys.end(), "gradient." + key) != keys.end()) {
            key = "gradient." + key;
        }
        if (key == "wus") {
            key = "weight_update_sharding";
        }
        if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
            throw InputError("fix", "unknown key '" + key + "'" + suggestion(key, keys) +
                                        " (keys: " + joined(keys) + ")");
        }
        parsed.emplace_back(key, fix.substr(equals + 1));
    }
    return parsed;
}

std::string withCommas(std::uint64_t n) {
    std::string digits = std::to_string(n);
    for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) {
        digits.insert(static_cast<std::size_t>(i), 1, ','); // a char: GCC 12's false -Wrestrict
    }
    return digits;
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
                    "The model: resnet50, bert, transformer, gnmt, ssd, maskrcnn");
    cmd->add_option("--preset", o.preset, "Start from this MLPerf preset instead of the model's");
    cmd->add_option("--framework", o.framework, "tf, jax or tf2 (default: the model's TF preset)");
    cmd->add_option("--chips", o.chips,
                    "Chip count, list (512,4096) or range (256..4096) of standard slices")
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
    const Scenario base = baseScenario(o);
    SpaceRequest request;
    request.base = base;
    request.chips = parseChips(o.chips, base.hardware);
    request.allowExtrapolation = o.allowExtrapolation;
    request.fixes = parseFixes(o.fixes);
    TuneSettings settings;
    {
        const auto& names = objectiveNames();
        const std::vector<std::string> known(names.begin(), names.end());
        if (std::find(known.begin(), known.end(), o.objective) == known.end()) {
            throw InputError("objective", "unknown objective '" + o.objective + "'" +
                                              suggestion(o.objective, known) + " (" +
                                              joined(known) + ")");
        }
        settings.objective = parseObjective(o.objective);
    }
    if (o.goal && !(*o.goal > 0)) {
        throw InputError("goal",
                         "must be a positive " + objectiveUnit(settings.objective) + " value");
    }
    if (o.fidelity != "analytic" && o.fidelity != "timeline") {
        throw InputError("fidelity", "'" + o.fidelity + "' is neither analytic nor timeline" +
                                         suggestion(o.fidelity, {"analytic", "timeline"}));
    }
    settings.fidelity = o.fidelity == "timeline" ? Fidelity::Timeline : Fidelity::Analytic;
    if (o.pareto != "chips" && o.pareto != "chip-seconds") {
        throw InputError("pareto", "'" + o.pareto + "' is neither chips nor chip-seconds");
    }
    settings.axis = o.pareto == "chips" ? ParetoAxis::Chips : ParetoAxis::ChipSeconds;
    if (o.top < 1 || o.top > 100) {
        throw InputError("top", "must be between 1 and 100 configurations");
    }
    settings.top = static_cast<std::size_t>(o.top);
    const int hardware = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    if (o.threads && (*o.threads < 1 || *o.threads > 1024)) {
        throw InputError("threads", "must be between 1 and 1024");
    }
    settings.threads = o.threads.value_or(hardware);
    if (o.out) {
        checkOutputFile(*o.out, "out");
    }
    if (o.chart) {
        checkChartPath(*o.chart);
    }
    const SearchSpace space(request);

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

    const SkipCounts& skipped = tally.skipped();
    if (tally.evaluated() == 0) {
        if (gInterrupted.load()) {
            err << "tune: interrupted before any configuration was evaluated\n";
            return 130;
        }
        throw InputError("space", "all " + withCommas(space.configurationCount()) +
                                      " configurations were skipped (" + withCommas(skipped.hbm) +
                                      " do not fit in HBM, " + withCommas(skipped.uneven) +
                                      " do not divide evenly, " + withCommas(skipped.unsupported) +
                                      " unsupported): loosen --fix or use other chip counts");
    }
    const TuneReport report = buildTuneReport(space, tally, settings);
    if (o.goal && !meetsGoal(settings.objective, report.top.front().score, *o.goal)) {
        const double best = objectiveValue(settings.objective, report.top.front().score);
        throw InputError("goal", "no configuration reaches " +
                                     formatObjective(settings.objective, *o.goal) + " (" +
                                     toString(settings.objective) + "); the best of " +
                                     withCommas(tally.evaluated()) + " reaches " +
                                     formatObjective(settings.objective, best));
    }
    const std::string text = o.json  ? toJson(report).dump(2) + "\n"
                             : o.csv ? tuneCsv(report)
                                     : tuneText(report);
    if (o.out) {
        report::writeFileAtomically(*o.out, text, "out");
    } else {
        out << text;
    }
    if (o.chart) {
        writeChart(report, *o.chart);
    }
    if (!report.complete) {
        err << "tune: interrupted: the result covers "
            << withCommas(report.evaluated + skipped.total()) << " of "
            << withCommas(report.configurations) << " configurations\n";
        return 130;
    }
    return 0;
}

} // namespace podscope::cli
