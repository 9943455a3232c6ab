#include "search/Search.hpp"

#include "common/InputError.hpp"
#include "common/Workers.hpp"
#include "training/ExchangeTimer.hpp"
#include "training/StepModel.hpp"
#include "training/StepPlan.hpp"

#include <algorithm>
#include <optional>
#include <vector>

namespace podscope::search {
namespace {

bool isGradientExchange(const Exchange& e) {
    return e.collective &&
           (e.kind == ExchangeKind::GradientReduce || e.kind == ExchangeKind::GradientGather ||
            e.kind == ExchangeKind::LayerNormSum);
}

// All configurations of one step plan (one value of each plan dimension).
class PlanEvaluator {
public:
    PlanEvaluator(const SearchSpace& space, const SearchOptions& options, SearchTally& tally)
        : space_(space)
        , options_(options)
        , tally_(tally) {}

    void run(std::uint64_t plan) {
        const std::uint64_t perPlan = space_.configurationsPerPlan();
        const std::uint64_t first = plan * perPlan;
        const Configuration c = space_.configuration(first);
        Scenario s;
        std::optional<StepPlan> built;
        try {
            s = space_.scenario(c); // chips that make no whole number of standard slices
            built.emplace(buildStepPlanUnchecked(s));
        } catch (const InputError& e) {
            const bool uneven = e.field() == "global_batch" || e.field() == "model_parallel" ||
                                e.field() == "batch_norm_group" || e.field() == "chips";
            tally_.skip(perPlan, uneven ? &SkipCounts::uneven : &SkipCounts::unsupported);
            return;
        }
        StepPlan& p = *built;
        if (!p.memory.fits()) {
            tally_.skip(perPlan, &SkipCounts::hbm);
            return;
        }
        const double evaluationS = evaluationDeviceSeconds(p, p.workload->evalExamples);
        // Exchanges the collective settings leave alone are timed once for the plan.
        std::vector<double> seconds(p.exchanges.size(), 0.0);
        {
            ExchangeTimer timer(p);
            for (std::size_t i = 0; i < p.exchanges.size(); ++i) {
                if (!isGradientExchange(p.exchanges[i])) {
                    seconds[i] = timer.seconds(p.exchanges[i]);
                }
            }
        }
        const int rank = p.topology.rank();
        const std::size_t algorithms = space_.size(kAlgorithm), orders = space_.size(kDimOrder),
                          chunks = space_.size(kChunks), modes = space_.size(kEvalMode),
                          caches = space_.size(kDecodedCache);
        const std::uint64_t perCollective = modes * caches;
        std::uint64_t index = first;
        for (std::size_t a = 0; a < algorithms; ++a) {
            for (std::size_t o = 0; o < orders; ++o) {
                for (std::size_t k = 0; k < chunks; ++k, index += perCollective) {
                    const Configuration collective = space_.configuration(index);
                    std::vector<int> order;
                    try {
                        order = parseDimOrder(collective.dimOrder, rank, "gradient.dim_order");
                    } catch (const InputError&) {
                        tally_.skip(perCollective, &SkipCounts::unsupported);
                        continue;
                    }
                    // The gradient collectives as buildStepPlan would make them for these settings.
                    ExchangeTimer timer(p);
                    try {
                        for (std::size_t i = 0; i < p.exchanges.size(); ++i) {
                            Exchange& e = p.exchanges[i];
                            if (isGradientExchange(e)) {
                                e.collective->algorithm = collective.algorithm;
                                e.collective->dimOrder = order;
                                e.collective->chunks =
                                    e.kind == ExchangeKind::LayerNormSum ? 1 : collective.chunks;
                                seconds[i] = timer.seconds(e);
                            }
                        }
                    } catch (const InputError&) {
                        tally_.skip(perCollective, &SkipCounts::unsupported);
                        continue;
                    }
                    s.gradient.algorithm = collective.algorithm;
                    s.gradient.dimOrder = collective.dimOrder;
                    s.gradient.chunks = collective.chunks;
                    evaluateSettings(p, s, index, evaluationS, seconds);
                }
            }
        }
    }

private:
    void evaluateSettings(const StepPlan& p, Scenario& s, std::uint64_t first, double evaluationS,
                          const std::vector<double>& seconds) {
        std::uint64_t index = first;
        for (std::size_t m = 0; m < space_.size(kEvalMode); ++m) {
            for (std::size_t d = 0; d < space_.size(kDecodedCache); ++d, ++index) {
                const Configuration c = space_.configuration(index);
                s.evalMode = c.evalMode;
                s.input.decodedCache = c.decodedCache;
                try {
                    const TrainingResult r = evaluateStepPlan(p, s, evaluationS, seconds);
                    Candidate candidate;
                    candidate.index = index;
                    candidate.timeToTrainS = r.timeToTrainS;
                    candidate.throughputExamplesPerS = r.throughputExamplesPerS;
                    candidate.chips = c.chips;
                    candidate.score =
                        objectiveScore(options_.objective, r.timeToTrainS, r.throughputExamplesPerS,
                                       candidate.chipSeconds());
                    tally_.add(candidate);
                } catch (const InputError&) {
                    tally_.skip(1, &SkipCounts::unsupported);
                }
            }
        }
    }

    const SearchSpace& space_;
    const SearchOptions& options_;
    SearchTally& tally_;
};

} // namespace

std::uint64_t configurationsOfRank(const SearchSpace& space, int rank, int ranks) {
    const std::uint64_t plans = space.planCount();
    const auto r = static_cast<std::uint64_t>(rank), n = static_cast<std::uint64_t>(ranks);
    const std::uint64_t mine = plans / n + (r < plans % n ? 1 : 0);
    return mine * space.configurationsPerPlan();
}

SearchTally runSearch(const SearchSpace& space, const SearchOptions& options) {
    const int threads = std::max(options.threads, 1);
    const auto ranks = static_cast<std::uint64_t>(std::max(options.ranks, 1));
    const auto rank = static_cast<std::uint64_t>(options.rank);
    const std::uint64_t plans = space.planCount();
    std::atomic<std::uint64_t> next{0}; // this rank's plans, counted from 0
    std::vector<SearchTally> tallies(static_cast<std::size_t>(threads), SearchTally(options.keep));
    runWorkers(threads, [&](std::size_t worker, const std::atomic<bool>& failed) {
        PlanEvaluator evaluator(space, options, tallies[worker]);
        while (!failed.load() && !(options.cancel && options.cancel->load())) {
            const std::uint64_t plan = next.fetch_add(1) * ranks + rank;
            if (plan >= plans) {
                return;
            }
            evaluator.run(plan);
            if (options.progress) {
                options.progress->fetch_add(space.configurationsPerPlan());
            }
        }
    });
    for (std::size_t t = 1; t < tallies.size(); ++t) {
        tallies.front().merge(tallies[t]);
    }
    return std::move(tallies.front());
}

} // namespace podscope::search
