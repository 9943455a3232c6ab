#include "search/SearchSpace.hpp"

#include "common/InputError.hpp"
#include "common/Limits.hpp"
#include "machine/Machine.hpp"
#include "topology/TopologyPresets.hpp"
#include "training/ScenarioJson.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>

namespace podscope::search {
namespace {

constexpr int kSplitDegrees[] = {2, 4, 8, 16};
constexpr int kChunkChoices[] = {1, 2, 4, 8, 16};
constexpr int kSliceChoices[] = {1, 2, 4, 8, 16};
constexpr Algorithm kAlgorithms[] = {Algorithm::Ring, Algorithm::BidirRing, Algorithm::TwoD,
                                     Algorithm::TwoDDual, Algorithm::FlatRing};

std::string onOff(bool on) {
    return on ? "on" : "off";
}

std::string splitText(int degree, ModelParallelKind kind) {
    return degree == 1 ? "none" : toString(kind) + ":" + std::to_string(degree);
}

std::int64_t wholeNumber(const std::string& key, const std::string& text, std::int64_t lowest,
                         std::int64_t highest) {
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
        throw InputError("fix", key + ": '" + text + "' is not a whole number");
    }
    if (value < lowest || value > highest) {
        throw InputError("fix", key + ": " + text + " must be between " + std::to_string(lowest) +
                                    " and " + std::to_string(highest));
    }
    return value;
}

bool onOffValue(const std::string& key, const std::string& text) {
    if (text == "on" || text == "true" || text == "yes") {
        return true;
    }
    if (text == "off" || text == "false" || text == "no") {
        return false;
    }
    throw InputError("fix", key + ": '" + text + "' is neither on nor off");
}

// Re-throws a parser's InputError as a problem of --fix, keeping its words.
template <typename Parse> auto parsedFix(const std::string& key, Parse parse) {
    try {
        return parse();
    } catch (const InputError& e) {
        const std::string what = e.what();
        throw InputError("fix", key + ": " + what.substr(e.field().size() + 2));
    }
}

std::vector<std::string> permutations(int rank) {
    std::string letters = std::string("xyzw").substr(0, static_cast<std::size_t>(rank));
    std::vector<std::string> all;
    do {
        all.push_back(letters);
    } while (std::next_permutation(letters.begin(), letters.end()));
    return all;
}

bool isStandardSlice(const std::vector<std::int64_t>& standard, std::int64_t chips) {
    return std::find(standard.begin(), standard.end(), chips) != standard.end();
}

} // namespace

std::vector<int> offeredSliceCounts(const Scenario& base) {
    std::set<int> counts = {std::max(base.slices, 1)};
    if (base.dcnBandwidthGBps || bundledMachine(base.hardware).dcnBpsPerHost) {
        counts.insert(std::begin(kSliceChoices), std::end(kSliceChoices));
    }
    return {counts.begin(), counts.end()};
}

const std::array<std::string, kDimensionCount>& dimensionKeys() {
    static const std::array<std::string, kDimensionCount> keys = {"chips",
                                                                  "slices",
                                                                  "global_batch",
                                                                  "model_parallel",
                                                                  "weight_update_sharding",
                                                                  "gradient.precision",
                                                                  "gradient.overlap",
                                                                  "gradient.algorithm",
                                                                  "gradient.dim_order",
                                                                  "gradient.chunks",
                                                                  "eval_mode",
                                                                  "decoded_cache"};
    return keys;
}

SearchSpace::SearchSpace(const SpaceRequest& request)
    : base_(request.base) {
    const Workload& workload = cachedWorkload(base_.workload); // InputError naming the model
    if (request.chips.empty()) {
        throw InputError("chips", "give at least one chip count");
    }
    // Slices: the counts offered, or the one fixed (taken here: the chips depend on it).
    std::vector<int> sliceCounts = offeredSliceCounts(base_);
    for (const auto& [key, value] : request.fixes) {
        if (key == "slices") {
            sliceCounts = {static_cast<int>(wholeNumber(key, value, 1, limits::kMaxSlices))};
        }
    }
    const std::vector<std::int64_t> standard = standardChipCounts(base_.hardware);
    std::set<int> slices;
    int rank = 0;
    for (const auto chips : request.chips) {
        bool any = false;
        for (const int n : sliceCounts) {
            if (chips % n == 0 && isStandardSlice(standard, chips / n)) {
                any = true;
                slices.insert(n);
                rank = std::max(
                    rank, static_cast<int>(standardSlice(base_.hardware, chips / n).dims.size()));
            }
        }
        if (!any) {
            if (sliceCounts == std::vector<int>{1}) {
                standardSlice(base_.hardware, chips); // InputError naming chips and the counts
            }
            std::string counts;
            for (const int n : sliceCounts) {
                counts += (counts.empty() ? "" : ", ") + std::to_string(n);
            }
            throw InputError("chips", std::to_string(chips) + " chips are not " + counts +
                                          " standard slices of " + base_.hardware +
                                          " (podscope-cli machines lists them)");
        }
        if (std::find(chips_.begin(), chips_.end(), chips) == chips_.end()) {
            chips_.push_back(chips);
        }
    }
    std::sort(chips_.begin(), chips_.end());
    slices_.assign(slices.begin(), slices.end());
    if (base_.batchNormGroup) {
        const int baseSplit = base_.modelParallel;
        baseBatchNormCores_ = static_cast<std::int64_t>(*base_.batchNormGroup) * baseSplit;
    }

    // Global batches: powers of two in the trusted range (or around it), and the base's batch.
    const Convergence& convergence = workload.convergence;
    const bool lengthGiven = base_.trainSteps || base_.trainExamples;
    if (!workload.hasConvergence() && !lengthGiven) {
        throw InputError("workload", workload.name +
                                         " has no convergence data, so no candidate has a time to "
                                         "train: give --train-steps N or --train-examples N");
    }
    // Without a convergence model every batch is as trusted as the run length the user gave.
    const auto trusted = [&](double batch) {
        return !workload.hasConvergence() ||
               !convergence.estimate(batch, base_.framework).extrapolated;
    };
    const double lowest = !workload.hasConvergence()   ? 1
                          : request.allowExtrapolation ? convergence.lowestMeasuredBatch() / 8
                                                       : 0;
    const double highest = !workload.hasConvergence() ? static_cast<double>(limits::kMaxGlobalBatch)
                           : request.allowExtrapolation ? convergence.highestMeasuredBatch() * 8
                                                        : 0;
    std::set<std::int64_t> batches;
    for (std::int64_t batch = 1; batch <= limits::kMaxGlobalBatch; batch *= 2) {
        const auto b = static_cast<double>(batch);
        if (request.allowExtrapolation ? (b >= lowest && b <= highest) : trusted(b)) {
            batches.insert(batch);
        }
    }
    if (base_.globalBatch > 0 &&
        (request.allowExtrapolation || trusted(static_cast<double>(base_.globalBatch)))) {
        batches.insert(base_.globalBatch);
    }
    batches_.assign(batches.begin(), batches.end());

    splits_.emplace_back(1, ModelParallelKind::None);
    for (const auto kind : {ModelParallelKind::Spatial, ModelParallelKind::Tensor}) {
        if (workload.supports(kind)) {
            for (const int degree : kSplitDegrees) {
                splits_.emplace_back(degree, kind);
            }
        }
    }
    sharding_ = {false, true};
    precisions_ = {ElementType::BF16, ElementType::FP32};
    overlaps_ = {GradientOverlap::AfterBackward, GradientOverlap::Bucketed};
    algorithms_.assign(std::begin(kAlgorithms), std::end(kAlgorithms));
    dimOrders_ = permutations(std::max(rank, 1));
    chunks_.assign(std::begin(kChunkChoices), std::end(kChunkChoices));
    if (std::find(chunks_.begin(), chunks_.end(), base_.gradient.chunks) == chunks_.end() &&
        base_.gradient.chunks >= 1) {
        chunks_.push_back(base_.gradient.chunks);
        std::sort(chunks_.begin(), chunks_.end());
    }
    evalModes_ = {EvalMode::Sync, EvalMode::Async};
    // The cache only matters to models that decode their input on the host.
    if (workload.input.decodeS > 0) {
        decodedCaches_ = {false, true};
    } else {
        decodedCaches_ = {base_.input.decodedCache};
    }

    // Pinned dimensions.
    const auto& keys = dimensionKeys();
    std::set<std::string> seen;
    for (const auto& fix : request.fixes) {
        // Plain references, not a structured binding: clang 14 cannot capture those in lambdas.
        const std::string& key = fix.first;
        const std::string& value = fix.second;
        const auto it = std::find(keys.begin(), keys.end(), key);
        if (it == keys.end()) {
            throw InputError("fix", "unknown key '" + key + "'");
        }
        if (!seen.insert(key).second) {
            throw InputError("fix", key + " is fixed twice");
        }
        switch (static_cast<Dimension>(it - keys.begin())) {
        case kChips:
            throw InputError("fix", "chips: give the chip counts with --chips");
        case kSlices:
            break; // taken with the chips
        case kGlobalBatch: {
            const auto batch = wholeNumber(key, value, 1, limits::kMaxGlobalBatch);
            if (!request.allowExtrapolation && !trusted(static_cast<double>(batch))) {
                throw InputError(
                    "fix", "global_batch: " + value +
                               " lies outside the convergence model's measured range (" +
                               std::to_string(
                                   static_cast<std::int64_t>(convergence.lowestMeasuredBatch())) +
                               " to " +
                               std::to_string(
                                   static_cast<std::int64_t>(convergence.highestMeasuredBatch())) +
                               "); add --allow-extrapolation to search beyond it");
            }
            batches_ = {batch};
            break;
        }
        case kModelParallel: {
            if (value == "none" || value == "1") {
                splits_ = {{1, ModelParallelKind::None}};
                break;
            }
            const auto colon = value.find(':');
            if (colon == std::string::npos) {
                throw InputError("fix", "model_parallel: '" + value +
                                            "' must be none or KIND:DEGREE, such as tensor:4");
            }
            const auto kind = parsedFix(key, [&] {
                return parseModelParallelKind(value.substr(0, colon), "model_parallel");
            });
            const auto degree = wholeNumber(key, value.substr(colon + 1), 2, 16);
            if (std::find(std::begin(kSplitDegrees), std::end(kSplitDegrees), degree) ==
                std::end(kSplitDegrees)) {
                throw InputError("fix", "model_parallel: the degree must be 2, 4, 8 or 16 cores");
            }
            if (kind == ModelParallelKind::None || !workload.supports(kind)) {
                throw InputError("fix", "model_parallel: " + workload.name +
                                            " has no layers that a " + toString(kind) +
                                            " split divides");
            }
            splits_ = {{static_cast<int>(degree), kind}};
            break;
        }
        case kWeightUpdateSharding:
            sharding_ = {onOffValue(key, value)};
            break;
        case kPrecision:
            precisions_ = {parsedFix(key, [&] { return parseElementType(value, key); })};
            break;
        case kOverlap:
            overlaps_ = {parsedFix(key, [&] { return parseGradientOverlap(value, key); })};
            break;
        case kAlgorithm:
            algorithms_ = {parsedFix(key, [&] { return parseAlgorithm(value, key); })};
            break;
        case kDimOrder:
            parsedFix(key, [&] { return parseDimOrder(value, std::max(rank, 1), key); });
            dimOrders_ = {value};
            break;
        case kChunks:
            chunks_ = {static_cast<int>(wholeNumber(key, value, 1, limits::kMaxChunks))};
            break;
        case kEvalMode:
            if (value != "sync" && value != "async") {
                throw InputError("fix", "eval_mode: '" + value + "' is neither sync nor async");
            }
            evalModes_ = {value == "sync" ? EvalMode::Sync : EvalMode::Async};
            break;
        case kDecodedCache:
            decodedCaches_ = {onOffValue(key, value)};
            break;
        case kDimensionCount:
            break;
        }
    }
    if (batches_.empty()) {
        throw InputError("global_batch",
                         "no power of two lies in the convergence model's measured range; "
                         "add --allow-extrapolation");
    }

    for (const auto chips : chips_) {
        text_[kChips].push_back(std::to_string(chips));
    }
    for (const int n : slices_) {
        text_[kSlices].push_back(std::to_string(n));
    }
    for (const auto batch : batches_) {
        text_[kGlobalBatch].push_back(std::to_string(batch));
    }
    for (const auto& [degree, kind] : splits_) {
        text_[kModelParallel].push_back(splitText(degree, kind));
    }
    for (const bool on : sharding_) {
        text_[kWeightUpdateSharding].push_back(onOff(on));
    }
    for (const auto p : precisions_) {
        text_[kPrecision].push_back(toString(p));
    }
    for (const auto o : overlaps_) {
        text_[kOverlap].push_back(toString(o));
    }
    for (const auto a : algorithms_) {
        text_[kAlgorithm].push_back(toString(a));
    }
    text_[kDimOrder] = dimOrders_;
    for (const int c : chunks_) {
        text_[kChunks].push_back(std::to_string(c));
    }
    for (const auto m : evalModes_) {
        text_[kEvalMode].push_back(toString(m));
    }
    for (const bool on : decodedCaches_) {
        text_[kDecodedCache].push_back(onOff(on));
    }
}

std::uint64_t SearchSpace::planCount() const {
    std::uint64_t n = 1;
    for (int d = 0; d < kPlanDimensions; ++d) {
        n *= size(d);
    }
    return n;
}

std::uint64_t SearchSpace::configurationsPerPlan() const {
    std::uint64_t n = 1;
    for (int d = kPlanDimensions; d < kDimensionCount; ++d) {
        n *= size(d);
    }
    return n;
}

std::size_t SearchSpace::digit(std::uint64_t index, int dimension) const {
    for (int d = kDimensionCount - 1; d > dimension; --d) {
        index /= size(d);
    }
    return static_cast<std::size_t>(index % size(dimension));
}

Configuration SearchSpace::configuration(std::uint64_t index) const {
    Configuration c;
    c.chips = chips_[digit(index, kChips)];
    c.slices = slices_[digit(index, kSlices)];
    c.globalBatch = batches_[digit(index, kGlobalBatch)];
    std::tie(c.modelParallel, c.modelParallelKind) = splits_[digit(index, kModelParallel)];
    c.weightUpdateSharding = sharding_[digit(index, kWeightUpdateSharding)];
    c.precision = precisions_[digit(index, kPrecision)];
    c.overlap = overlaps_[digit(index, kOverlap)];
    c.algorithm = algorithms_[digit(index, kAlgorithm)];
    c.dimOrder = dimOrders_[digit(index, kDimOrder)];
    c.chunks = chunks_[digit(index, kChunks)];
    c.evalMode = evalModes_[digit(index, kEvalMode)];
    c.decodedCache = decodedCaches_[digit(index, kDecodedCache)];
    return c;
}

std::array<std::string, kDimensionCount> SearchSpace::settings(std::uint64_t index) const {
    std::array<std::string, kDimensionCount> s;
    for (int d = 0; d < kDimensionCount; ++d) {
        s[static_cast<std::size_t>(d)] = text_[static_cast<std::size_t>(d)][digit(index, d)];
    }
    return s;
}

int SearchSpace::batchNormGroupFor(int modelParallel) const {
    return static_cast<int>(std::max<std::int64_t>(1, baseBatchNormCores_ / modelParallel));
}

Scenario SearchSpace::scenario(const Configuration& c) const {
    Scenario s = base_;
    if (c.slices < 1 || c.chips % c.slices != 0) {
        throw InputError("chips", std::to_string(c.chips) + " chips do not divide into " +
                                      std::to_string(c.slices) + " slices");
    }
    useStandardSlice(s, c.chips / c.slices); // InputError naming chips: no standard slice
    s.slices = c.slices;
    s.globalBatch = c.globalBatch;
    s.modelParallel = c.modelParallel;
    s.modelParallelKind = c.modelParallelKind;
    s.weightUpdateSharding = c.weightUpdateSharding;
    s.gradient.precision = c.precision;
    s.gradient.overlap = c.overlap;
    s.gradient.algorithm = c.algorithm;
    s.gradient.dimOrder = c.dimOrder;
    s.gradient.chunks = c.chunks;
    s.evalMode = c.evalMode;
    s.input.decodedCache = c.decodedCache;
    if (baseBatchNormCores_ > 0) {
        s.batchNormGroup = batchNormGroupFor(c.modelParallel);
    }
    return s;
}

} // namespace podscope::search
