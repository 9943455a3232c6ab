#pragma once

#include "collective/CollectiveSpec.hpp"
#include "training/Scenario.hpp"
#include "workload/Workload.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace podscope::search {

// One point of the search space: the settings a search varies (docs/tune.md).
struct Configuration {
    std::int64_t chips = 0; // in all: slices x the standard slice's chips
    int slices = 1;         // multislice: copies of the slice joined over the DCN
    std::int64_t globalBatch = 0;
    int modelParallel = 1;
    ModelParallelKind modelParallelKind = ModelParallelKind::None;
    bool weightUpdateSharding = false;
    ElementType precision = ElementType::BF16;
    GradientOverlap overlap = GradientOverlap::AfterBackward;
    Algorithm algorithm = Algorithm::TwoD;
    std::string dimOrder;
    int chunks = 1;
    EvalMode evalMode = EvalMode::Sync;
    bool decodedCache = true;
};

// The dimensions in enumeration order. The first kPlanDimensions change the step plan; the rest
// only change how its exchanges and evaluations are timed, so a search builds one plan for all
// of them.
enum Dimension : int {
    kChips,
    kSlices,
    kGlobalBatch,
    kModelParallel,
    kWeightUpdateSharding,
    kPrecision,
    kOverlap,
    kAlgorithm,
    kDimOrder,
    kChunks,
    kEvalMode,
    kDecodedCache,
    kDimensionCount
};
inline constexpr int kPlanDimensions = 7;

// The keys of the dimensions, as --fix and the output name them (configuration-file names).
const std::array<std::string, kDimensionCount>& dimensionKeys();

// The slice counts a search tries where the machine offers a data-centre network (its file
// states dcn_GBps_per_host, or the base gives dcn_bandwidth_GBps): 1, 2, 4, 8 and 16, and the
// base's own; otherwise only the base's (1). --fix slices=N tries N alone.
std::vector<int> offeredSliceCounts(const Scenario& base);

struct SpaceRequest {
    Scenario base; // workload, framework and everything the search does not vary
    // Chip counts in all: each a standard slice, or (where the machine offers a DCN) a number of
    // slices from offeredSliceCounts times one.
    std::vector<std::int64_t> chips;
    bool allowExtrapolation = false; // batches outside the convergence model's measured range
    std::vector<std::pair<std::string, std::string>> fixes; // dimension key (exact), value text
};

// Every combination of the dimensions' values. A chip count and a slice count whose quotient is
// no standard slice make a configuration that the search skips as uneven. The global batches are
// the powers of two inside the convergence model's measured (trusted) range, plus the base
// scenario's batch; with extrapolation allowed, powers of two from an eighth of the lowest to eight
// times the highest measured batch. Model-parallel splits are the kinds the workload's layers
// support, at 2 to 16 cores. A fixed dimension has one value. Throws InputError naming `fix` (a
// value that does not parse or that the workload cannot use) or `chips`.
class SearchSpace {
public:
    explicit SearchSpace(const SpaceRequest& request);

    const Scenario& base() const { return base_; }
    std::size_t size(int dimension) const {
        return text_[static_cast<std::size_t>(dimension)].size();
    }
    // The values of a dimension as text (as --fix takes them).
    const std::vector<std::string>& values(int dimension) const {
        return text_[static_cast<std::size_t>(dimension)];
    }
    std::uint64_t configurationCount() const { return planCount() * configurationsPerPlan(); }
    std::uint64_t planCount() const;
    std::uint64_t configurationsPerPlan() const;
    // Configurations are numbered in mixed radix, chips the slowest dimension.
    Configuration configuration(std::uint64_t index) const;
    // The value of each dimension of a configuration, as text.
    std::array<std::string, kDimensionCount> settings(std::uint64_t index) const;
    Scenario scenario(const Configuration& configuration) const;
    // Cores that share batch statistics in the base scenario, kept whatever the split.
    int batchNormGroupFor(int modelParallel) const;

private:
    std::size_t digit(std::uint64_t index, int dimension) const;

    Scenario base_;
    std::int64_t baseBatchNormCores_ = 0; // 0: the base shares no batch statistics
    std::vector<std::int64_t> chips_;
    std::vector<int> slices_;
    std::vector<std::int64_t> batches_;
    std::vector<std::pair<int, ModelParallelKind>> splits_;
    std::vector<bool> sharding_;
    std::vector<ElementType> precisions_;
    std::vector<GradientOverlap> overlaps_;
    std::vector<Algorithm> algorithms_;
    std::vector<std::string> dimOrders_;
    std::vector<int> chunks_;
    std::vector<EvalMode> evalModes_;
    std::vector<bool> decodedCaches_;
    std::array<std::vector<std::string>, kDimensionCount> text_;
};

} // namespace podscope::search
