// The configuration search (issue 14): enumeration counts against a configuration-by-
// configuration reference, determinism across threads and ranks, the presets as lower bounds,
// and the Pareto front.
#include "search/Search.hpp"

#include "common/InputError.hpp"
#include "search/SearchSpace.hpp"
#include "search/TuneReport.hpp"
#include "topology/TopologyPresets.hpp"
#include "training/Presets.hpp"
#include "training/StepModel.hpp"
#include "training/StepPlan.hpp"

#include <array>
#include <atomic>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>

namespace podscope::search {
namespace {

SpaceRequest requestFor(const std::string& preset, std::vector<std::int64_t> chips,
                        std::vector<std::pair<std::string, std::string>> fixes = {}) {
    SpaceRequest request;
    request.base = loadPreset(preset).scenario;
    request.chips = std::move(chips);
    request.fixes = std::move(fixes);
    return request;
}

// BERT on small slices: many configurations do not fit in HBM, some batches do not divide among
// the replicas, and the rest are evaluated. Kept small so that the reference can run every one.
SearchSpace smallBertSpace() {
    return SearchSpace(requestFor("mlperf07-bert-tf-4096", {16, 32, 4096},
                                  {{"gradient.chunks", "4"},
                                   {"gradient.precision", "bf16"},
                                   {"eval_mode", "sync"},
                                   {"gradient.overlap", "after-backward"}}));
}

TEST(SearchSpace, SizeIsTheProductOfTheDimensions) {
    const SearchSpace space = smallBertSpace();
    std::uint64_t product = 1;
    for (int d = 0; d < kDimensionCount; ++d) {
        ASSERT_GE(space.size(d), 1u) << dimensionKeys()[static_cast<std::size_t>(d)];
        product *= space.size(d);
    }
    EXPECT_EQ(space.configurationCount(), product);
    EXPECT_EQ(space.size(kChunks), 1u);
    EXPECT_EQ(space.values(kChunks), std::vector<std::string>{"4"});
    // BERT splits by tensor only: none plus tensor:2 ... tensor:16.
    EXPECT_EQ(space.values(kModelParallel),
              (std::vector<std::string>{"none", "tensor:2", "tensor:4", "tensor:8", "tensor:16"}));
    // Every configuration decodes to different settings (the numbering is a bijection).
    std::set<std::array<std::string, kDimensionCount>> seen;
    for (std::uint64_t i = 0; i < space.configurationCount(); ++i) {
        seen.insert(space.settings(i));
    }
    EXPECT_EQ(seen.size(), space.configurationCount());
}

TEST(SearchSpace, BatchesStayInTheTrustedRangeUnlessExtrapolationIsAllowed) {
    auto request = requestFor("mlperf07-resnet50-tf-4096", {4096});
    const Workload w = loadWorkload("resnet50");
    const SearchSpace trusted(request);
    for (const auto& text : trusted.values(kGlobalBatch)) {
        EXPECT_FALSE(w.convergence.estimate(std::stod(text), "tf").extrapolated) << text;
    }
    request.allowExtrapolation = true;
    const SearchSpace wide(request);
    EXPECT_GT(wide.size(kGlobalBatch), trusted.size(kGlobalBatch));
    bool someExtrapolated = false;
    for (const auto& text : wide.values(kGlobalBatch)) {
        someExtrapolated |= w.convergence.estimate(std::stod(text), "tf").extrapolated;
    }
    EXPECT_TRUE(someExtrapolated);
}

TEST(SearchSpace, BadFixesNameTheProblem) {
    const auto problem = [](std::vector<std::pair<std::string, std::string>> fixes) {
        try {
            SearchSpace space(requestFor("mlperf07-transformer-tf-4096", {4096}, std::move(fixes)));
        } catch (const InputError& e) {
            EXPECT_EQ(e.field(), "fix");
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_NE(problem({{"gradient.chunks", "abc"}}).find("'abc' is not a whole number"),
              std::string::npos);
    EXPECT_NE(
        problem({{"model_parallel", "spatial:4"}}).find("no layers that a spatial split divides"),
        std::string::npos);
    EXPECT_NE(problem({{"gradient.algorithm", "tree"}}).find("gradient.algorithm"),
              std::string::npos);
    EXPECT_NE(problem({{"global_batch", "1048576"}}).find("--allow-extrapolation"),
              std::string::npos);
    EXPECT_NE(problem({{"eval_mode", "sometimes"}}).find("neither sync nor async"),
              std::string::npos);
    EXPECT_NE(problem({{"no_such", "1"}}).find("unknown key"), std::string::npos);
}

// The search's counts against the slow path: every configuration through simulateTraining,
// its refusals sorted by what they name.
TEST(Search, CountsEverySkippedConfigurationByReason) {
    const SearchSpace space = smallBertSpace();
    SkipCounts reference;
    std::uint64_t evaluated = 0;
    std::map<std::uint64_t, double> timeToTrain;
    for (std::uint64_t i = 0; i < space.configurationCount(); ++i) {
        try {
            timeToTrain[i] = simulateTraining(space.scenario(space.configuration(i))).timeToTrainS;
            ++evaluated;
        } catch (const InputError& e) {
            const std::string what = e.what();
            if (what.find("of HBM per core") != std::string::npos) {
                ++reference.hbm;
            } else if (e.field() == "global_batch" || e.field() == "model_parallel" ||
                       e.field() == "batch_norm_group" || e.field() == "chips") {
                ++reference.uneven;
            } else {
                ++reference.unsupported;
            }
        }
    }
    SearchOptions options;
    options.keep = space.configurationCount();
    const SearchTally tally = runSearch(space, options);
    EXPECT_EQ(tally.evaluated(), evaluated);
    EXPECT_EQ(tally.skipped().hbm, reference.hbm);
    EXPECT_EQ(tally.skipped().uneven, reference.uneven);
    EXPECT_EQ(tally.skipped().unsupported, reference.unsupported);
    EXPECT_EQ(tally.evaluated() + tally.skipped().total(), space.configurationCount());
    EXPECT_GT(reference.hbm, 0u);
    EXPECT_GT(reference.uneven, 0u);
    EXPECT_GT(evaluated, 0u);
    // The fast path (one plan for many collectives) gives the slow path's times to the bit.
    ASSERT_EQ(tally.best().size(), evaluated);
    for (const Candidate& c : tally.best()) {
        ASSERT_TRUE(timeToTrain.count(c.index)) << c.index;
        EXPECT_EQ(c.timeToTrainS, timeToTrain[c.index]) << c.index;
    }
}

// Issue 20: where the machine offers a DCN, the chip counts are totals and the slices a plan
// dimension: 1024 chips of a 256-chip pod are 4, 8 or 16 slices; a machine without one keeps
// one slice. Each multislice candidate's time is the model's for that scenario.
SpaceRequest multisliceRequest(const std::string& hardware, std::vector<std::int64_t> chips,
                               std::vector<std::pair<std::string, std::string>> fixes = {}) {
    SpaceRequest request = requestFor("mlperf07-resnet50-tf2-16", std::move(chips));
    request.base.hardware = hardware;
    request.base.wrap.reset();
    request.fixes = {{"global_batch", "4096"},
                     {"gradient.chunks", "4"},
                     {"eval_mode", "sync"},
                     {"gradient.precision", "bf16"},
                     {"model_parallel", "none"}};
    request.fixes.insert(request.fixes.end(), fixes.begin(), fixes.end());
    return request;
}

TEST(SearchSpace, SlicesAreSearchedWhereTheMachineOffersADcn) {
    const SearchSpace v5e(multisliceRequest("tpu-v5e", {1024}));
    EXPECT_EQ(v5e.values(kChips), std::vector<std::string>{"1024"});
    EXPECT_EQ(v5e.values(kSlices), (std::vector<std::string>{"4", "8", "16"}));
    // No DCN in the machine file and none given: one slice, and the chips a standard slice.
    const SearchSpace v3(requestFor("mlperf07-resnet50-tf2-16", {16, 4096}));
    EXPECT_EQ(v3.values(kSlices), std::vector<std::string>{"1"});
    try {
        SearchSpace(multisliceRequest("tpu-v5e", {1000}));
        FAIL() << "accepted 1000 chips";
    } catch (const InputError& e) {
        EXPECT_EQ(e.field(), "chips");
        EXPECT_NE(std::string(e.what()).find("1000 chips are not"), std::string::npos) << e.what();
    }
    const SearchSpace fixed(multisliceRequest("tpu-v5e", {1024}, {{"slices", "8"}}));
    EXPECT_EQ(fixed.values(kSlices), std::vector<std::string>{"8"});
    for (std::uint64_t i = 0; i < fixed.configurationCount(); ++i) {
        const Scenario s = fixed.scenario(fixed.configuration(i));
        EXPECT_EQ(s.slices, 8);
        EXPECT_EQ(scenarioTopology(s).chipCount(), 128);
    }
}

TEST(Search, FourSlicesOf256OrOneOf1024) {
    // A machine with 1024-chip slices and a DCN: every way of making 1024 chips is searched.
    const SearchSpace space(multisliceRequest("tpu-v5p", {1024}));
    EXPECT_EQ(space.values(kSlices), (std::vector<std::string>{"1", "2", "4", "8", "16"}));
    SearchOptions options;
    options.keep = space.configurationCount();
    const SearchTally tally = runSearch(space, options);
    ASSERT_GT(tally.evaluated(), 0u);
    std::map<int, double> fastest; // slices -> best time to train
    for (const Candidate& c : tally.best()) {
        const Configuration configuration = space.configuration(c.index);
        const Scenario s = space.scenario(configuration);
        EXPECT_EQ(c.chips, 1024);
        EXPECT_EQ(scenarioTopology(s).chipCount() * s.slices, 1024);
        if (!fastest.count(s.slices)) {
            fastest[s.slices] = c.timeToTrainS; // best() is in rank order
            // The search's time is the model's for that scenario, to the bit.
            const TrainingResult r = simulateTraining(s);
            EXPECT_EQ(r.timeToTrainS, c.timeToTrainS) << s.slices << " slices";
            EXPECT_EQ(r.slices, s.slices);
            EXPECT_EQ(r.dcnSyncS > 0, s.slices > 1);
        }
    }
    ASSERT_TRUE(fastest.count(1) && fastest.count(4));
    // The same 1024 chips all on the ICI beat four slices that sum over 25 GB/s per host.
    EXPECT_LT(fastest[1], fastest[4]);
}

TEST(Search, ResultsDoNotDependOnThreadsOrRanks) {
    const SearchSpace space(requestFor("mlperf07-transformer-tf-4096", {512, 4096}));
    TuneSettings settings;
    settings.top = 8;
    SearchOptions one;
    one.keep = settings.top + 1;
    one.objective = Objective::ChipSeconds;
    settings.objective = one.objective;
    SearchOptions two = one;
    two.threads = 2;
    const SearchTally a = runSearch(space, one);
    const SearchTally b = runSearch(space, two);
    EXPECT_EQ(a.toJson(), b.toJson());
    // Two ranks, gathered as the MPI root does.
    SearchOptions rank0 = one, rank1 = one;
    rank0.ranks = rank1.ranks = 2;
    rank1.rank = 1;
    SearchTally gathered = SearchTally::fromJson(runSearch(space, rank0).toJson());
    gathered.merge(SearchTally::fromJson(runSearch(space, rank1).toJson()));
    EXPECT_EQ(a.toJson(), gathered.toJson());
    EXPECT_EQ(toJson(buildTuneReport(space, a, settings)).dump(),
              toJson(buildTuneReport(space, gathered, settings)).dump());
}

// Cancel (Ctrl-C in the CLI, the dialog's Cancel button): a search cancelled before it starts
// evaluates nothing; one cancelled while it runs stops after the step plans under way and keeps
// whole plans only.
TEST(Search, CancelStopsAfterThePlansUnderWay) {
    const SearchSpace space(requestFor("mlperf07-resnet50-tf-4096", standardChipCounts("tpu-v3")));
    std::atomic<bool> cancel{true};
    std::atomic<std::uint64_t> done{0};
    SearchOptions options;
    options.cancel = &cancel;
    options.progress = &done;
    const SearchTally none = runSearch(space, options);
    EXPECT_EQ(none.evaluated() + none.skipped().total(), 0u);
    EXPECT_TRUE(none.best().empty());
    EXPECT_FALSE(buildTuneReport(space, none, TuneSettings{}).complete);

    cancel = false;
    std::jthread canceller([&] {
        while (done.load() == 0) {
            std::this_thread::yield();
        }
        cancel = true;
    });
    const SearchTally part = runSearch(space, options);
    canceller.join();
    const std::uint64_t covered = part.evaluated() + part.skipped().total();
    EXPECT_GT(covered, 0u);
    EXPECT_LT(covered, space.configurationCount());
    EXPECT_EQ(covered % space.configurationsPerPlan(), 0u);
    EXPECT_EQ(covered, done.load());
    EXPECT_FALSE(buildTuneReport(space, part, TuneSettings{}).complete);
}

// Every preset's own configuration lies in the space of its model at its chip count, so the
// best found can be no slower.
TEST(Search, BestIsNoWorseThanAnyPresetAtItsChipCount) {
    for (const auto& name : presetNames()) {
        const Preset preset = loadPreset(name);
        const TrainingResult measured = simulateTraining(preset.scenario);
        SearchOptions options;
        options.threads = 2;
        options.keep = 1;
        for (const Objective objective :
             {Objective::TimeToTrain, Objective::Throughput, Objective::ChipSeconds}) {
            options.objective = objective;
            const SearchSpace space(requestFor(name, {measured.chips}));
            const SearchTally tally = runSearch(space, options);
            ASSERT_FALSE(tally.best().empty()) << name;
            const double presetScore =
                objectiveScore(objective, measured.timeToTrainS, measured.throughputExamplesPerS,
                               measured.timeToTrainS * static_cast<double>(measured.chips));
            EXPECT_LE(tally.best().front().score, presetScore)
                << name << " " << toString(objective);
            if (objective == Objective::TimeToTrain) {
                break; // the other two are checked on one preset: each search takes a while
            }
        }
    }
}

TEST(Search, ParetoFrontIsNonDominatedAndCoversTheBestAtEachChipCount) {
    const SearchSpace space(
        requestFor("mlperf07-resnet50-tf-4096", {256, 512, 1024, 2048, 4096},
                   {{"gradient.chunks", "4"}, {"eval_mode", "sync"}, {"decoded_cache", "on"}}));
    SearchOptions options;
    options.threads = 2;
    options.keep = space.configurationCount();
    const SearchTally tally = runSearch(space, options);
    const std::vector<Candidate>& all = tally.best();

    // Time to train against chips: the fastest per chip count, each faster than every front
    // point with fewer chips.
    TuneSettings settings;
    settings.top = 3;
    const TuneReport report = buildTuneReport(space, tally, settings);
    ASSERT_FALSE(report.front.empty());
    for (std::size_t i = 1; i < report.front.size(); ++i) {
        EXPECT_GT(report.front[i].chips, report.front[i - 1].chips);
        EXPECT_LT(report.front[i].timeToTrainS, report.front[i - 1].timeToTrainS);
    }
    std::map<std::int64_t, double> fastest;
    for (const Candidate& c : all) {
        auto [it, inserted] = fastest.emplace(c.chips, c.timeToTrainS);
        if (!inserted) {
            it->second = std::min(it->second, c.timeToTrainS);
        }
    }
    for (const auto& [chips, best] : fastest) {
        bool covered = false;
        for (const FrontPoint& p : report.front) {
            covered |= p.chips <= chips && p.timeToTrainS <= best;
        }
        EXPECT_TRUE(covered) << chips << " chips, " << best << " s";
    }

    // Against chip-seconds: no point of the whole space beats a front point in both.
    const std::vector<Candidate> front = tally.chipSecondsFront();
    ASSERT_FALSE(front.empty());
    for (const Candidate& p : front) {
        for (const Candidate& q : all) {
            const bool dominates =
                q.chipSeconds() <= p.chipSeconds() && q.timeToTrainS <= p.timeToTrainS &&
                (q.chipSeconds() < p.chipSeconds() || q.timeToTrainS < p.timeToTrainS);
            ASSERT_FALSE(dominates) << q.index << " dominates " << p.index;
        }
    }
    // ... and every point of the space is matched or beaten by a front point.
    for (const Candidate& q : all) {
        bool covered = false;
        for (const Candidate& p : front) {
            covered |= p.chipSeconds() <= q.chipSeconds() && p.timeToTrainS <= q.timeToTrainS;
        }
        ASSERT_TRUE(covered) << q.index;
    }
}

TEST(TuneReport, ExplainsEachLeadByThePartThatDiffersMost) {
    const SearchSpace space(requestFor("mlperf07-transformer-tf-4096", {4096}));
    SearchOptions options;
    options.threads = 2;
    options.keep = 6;
    const SearchTally tally = runSearch(space, options);
    TuneSettings settings;
    settings.top = 5;
    const TuneReport report = buildTuneReport(space, tally, settings);
    ASSERT_EQ(report.top.size(), 5u);
    for (std::size_t i = 0; i < report.top.size(); ++i) {
        const auto& row = report.top[i];
        EXPECT_EQ(row.result.timeToTrainS, row.score);
        EXPECT_FALSE(row.whyBeatsNext.empty()) << i; // the last explains its lead over #6
        if (i + 1 < report.top.size()) {
            EXPECT_LE(row.score, report.top[i + 1].score);
        }
        if (row.whyBeatsNext.rfind("ties", 0) != 0) {
            EXPECT_NE(row.whyBeatsNext.find("less"), std::string::npos) << row.whyBeatsNext;
            EXPECT_NE(row.whyBeatsNext.find("differs in"), std::string::npos) << row.whyBeatsNext;
        }
    }
}

TEST(TuneReport, TimelineFidelityRanksTheConfirmedRowsByTheTimeline) {
    const SearchSpace space(requestFor(
        "mlperf07-resnet50-tf-4096", {256},
        {{"eval_mode", "sync"}, {"decoded_cache", "on"}, {"gradient.precision", "fp32"}}));
    SearchOptions options;
    options.threads = 2;
    options.keep = 5;
    const SearchTally tally = runSearch(space, options);
    TuneSettings settings;
    settings.top = 4;
    settings.threads = 2;
    settings.fidelity = Fidelity::Timeline;
    const TuneReport report = buildTuneReport(space, tally, settings);
    ASSERT_EQ(report.top.size(), 4u);
    std::set<int> analyticRanks;
    std::size_t moved = 0;
    for (std::size_t i = 0; i < report.top.size(); ++i) {
        const auto& row = report.top[i];
        EXPECT_TRUE(row.confirmed);
        EXPECT_GT(row.timelineStepS, 0);
        EXPECT_EQ(row.score, row.timelineTimeToTrainS);
        analyticRanks.insert(row.analyticRank);
        moved += row.analyticRank != static_cast<int>(i + 1) ? 1 : 0;
        if (i > 0) {
            EXPECT_LE(report.top[i - 1].score, row.score);
        }
    }
    EXPECT_EQ(analyticRanks, (std::set<int>{1, 2, 3, 4}));
    EXPECT_EQ(report.orderChanges.size(), moved);
}

} // namespace
} // namespace podscope::search
