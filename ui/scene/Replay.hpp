#pragma once

#include "collective/Record.hpp"
#include "topology/Topology.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace podscope::ui {

enum class ChipActivity : std::uint8_t { Idle = 0, Communicating = 1, Waiting = 2 };

// Answers what the 3-D view needs at a replay time t (seconds of simulated time) from an event
// engine record, independent of how fast the animation plays. Built once per record.
class Replay {
public:
    Replay(const Topology& topology, const Record& record);

    double durationS() const noexcept { return durationS_; }

    // Fraction of [t - window, t] during which each link slot was busy (0..1); `out` is resized
    // to the topology's link slot count.
    void linkUtilization(double t, double windowS, std::vector<float>& out) const;

    struct InFlight {
        LinkId link;
        double progress; // 0 at the transfer's start on this link, 1 when its bytes are through
        std::int32_t chunk;
    };
    // Link occupancies in progress at t.
    void inFlight(double t, std::vector<InFlight>& out) const;

    // Per chip: Communicating if it is sending on some link at t; Waiting if its collective has
    // started but it is not sending; Idle before the first and after the last transfer.
    void chipActivity(double t, std::vector<ChipActivity>& out) const;

    // "reduce-scatter along Y, chunk 3 of 4" (chunks counted from 1), or "idle" outside the record.
    std::string caption(double t) const;

private:
    const Topology& topology_;
    const Record& record_;
    double durationS_ = 0;
    // Transfers in start order (indices into record.transfers) and their start times, so a
    // time window is found by binary search: an occupancy overlapping [a, b] started after
    // a - longestOccupancyS_.
    std::vector<std::int32_t> byStart_;
    std::vector<double> startS_;
    double longestOccupancyS_ = 0;
    double longestTransferS_ = 0; // start to delivery, latency included
    double firstStartS_ = 0;
    double lastEndS_ = 0;
    int chunkCount_ = 0;
    std::vector<std::int32_t> firstCollectivePhases_; // indices into record.phases

    // The links of each ring grouped by occupancy duration (usually one group per ring), so a
    // window's busy time is summed once per group and transfer, then spread over its links.
    struct DurationGroup {
        double durationS = 0;
        std::int32_t linkBegin = 0; // into groupLinks_
        std::int32_t linkEnd = 0;
    };
    std::vector<DurationGroup> groups_;
    std::vector<std::int32_t> ringGroupBegin_; // per ring, and one past the last
    std::vector<LinkId> groupLinks_;

    void groupLinksByDuration();

    // Range [begin, end) of byStart_ whose transfers start in [fromS, toS) (toS inclusive when
    // `includeTo`).
    std::pair<std::size_t, std::size_t> startingBetween(double fromS, double toS,
                                                        bool includeTo) const;
};

} // namespace podscope::ui
