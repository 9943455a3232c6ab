#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <vector>

namespace podscope::search {

// One evaluated configuration, as much of it as ranking needs.
struct Candidate {
    std::uint64_t index = 0; // in the search space's numbering: the stable tie-break
    double score = 0;        // the objective's, lower is better
    double timeToTrainS = 0;
    double throughputExamplesPerS = 0;
    std::int64_t chips = 0;

    double chipSeconds() const { return timeToTrainS * static_cast<double>(chips); }
};

// Configurations left out, by reason.
struct SkipCounts {
    std::uint64_t hbm = 0;         // does not fit in a core's HBM
    std::uint64_t uneven = 0;      // the batch, the split or the batch-norm group do not divide
    std::uint64_t unsupported = 0; // a setting the slice or the collective cannot run

    std::uint64_t total() const { return hbm + uneven + unsupported; }
};

// What a part of a search found: counts, the best `keep` by objective, the fastest per chip
// count and the time-to-train/chip-seconds Pareto front. Every selection breaks ties by index,
// so merging tallies gives the same result whatever the order and however the space was split
// among threads or ranks.
class SearchTally {
public:
    explicit SearchTally(std::size_t keep = 10)
        : keep_(keep) {}

    void add(const Candidate& candidate);
    void skip(std::uint64_t count, std::uint64_t SkipCounts::*reason) { skipped_.*reason += count; }
    void merge(const SearchTally& other);

    std::uint64_t evaluated() const { return evaluated_; }
    const SkipCounts& skipped() const { return skipped_; }
    // Sorted by (score, index).
    const std::vector<Candidate>& best() const { return best_; }
    // The fastest configuration (time to train, then index) at each chip count.
    const std::map<std::int64_t, Candidate>& fastestPerChips() const { return fastestPerChips_; }
    // Non-dominated in (chip-seconds, time to train), sorted by chip-seconds.
    std::vector<Candidate> chipSecondsFront() const;

    // Exact round trip (doubles keep every bit), for gathering tallies from MPI ranks.
    nlohmann::json toJson() const;
    static SearchTally fromJson(const nlohmann::json& json);

private:
    void compactFront() const;

    std::size_t keep_;
    std::uint64_t evaluated_ = 0;
    SkipCounts skipped_;
    std::vector<Candidate> best_;
    std::map<std::int64_t, Candidate> fastestPerChips_;
    mutable std::vector<Candidate> front_; // a superset of the front until compacted
    mutable std::size_t compactedSize_ = 0;
};

// Strict order of candidates: lower score, then lower index.
bool rankedBefore(const Candidate& a, const Candidate& b);

} // namespace podscope::search
