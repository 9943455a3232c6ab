#include "scene/Replay.hpp"

#include <algorithm>
#include <numeric>

namespace podscope::ui {

Replay::Replay(const Topology& topology, const Record& record)
    : topology_(topology)
    , record_(record) {
    const auto& transfers = record_.transfers;
    // The engine records transfers in start order; sort only if a record ever is not.
    const auto earlier = [&](std::int32_t a, std::int32_t b) {
        return transfers[static_cast<std::size_t>(a)].startS <
               transfers[static_cast<std::size_t>(b)].startS;
    };
    byStart_.resize(transfers.size());
    std::iota(byStart_.begin(), byStart_.end(), 0);
    if (!std::is_sorted(byStart_.begin(), byStart_.end(), earlier)) {
        std::stable_sort(byStart_.begin(), byStart_.end(), earlier);
    }
    startS_.reserve(transfers.size());
    for (std::int32_t index : byStart_) {
        startS_.push_back(transfers[static_cast<std::size_t>(index)].startS);
    }

    for (double occupancy : record_.linkDurationS) {
        longestOccupancyS_ = std::max(longestOccupancyS_, occupancy);
    }
    if (!transfers.empty()) {
        firstStartS_ = startS_.front();
        lastEndS_ = firstStartS_;
    }
    for (const auto& transfer : transfers) {
        longestTransferS_ = std::max(longestTransferS_, transfer.endS - transfer.startS);
        lastEndS_ = std::max(lastEndS_, transfer.endS);
        if (record_.rings[static_cast<std::size_t>(transfer.ring)].collective == 0) {
            chunkCount_ = std::max(chunkCount_, transfer.chunk + 1);
        }
    }
    durationS_ = transfers.empty() ? 0.0 : lastEndS_;
    for (std::size_t p = 0; p < record_.phases.size(); ++p) {
        durationS_ = std::max(durationS_, record_.phases[p].endS);
        if (record_.phases[p].collective == 0) {
            firstCollectivePhases_.push_back(static_cast<std::int32_t>(p));
        }
    }
    groupLinksByDuration();
}

void Replay::groupLinksByDuration() {
    groupLinks_.reserve(record_.linkIds.size());
    ringGroupBegin_.reserve(record_.rings.size() + 1);
    std::vector<std::pair<double, LinkId>> links; // reused for every ring
    for (const auto& ring : record_.rings) {
        ringGroupBegin_.push_back(static_cast<std::int32_t>(groups_.size()));
        links.clear();
        for (auto k = static_cast<std::size_t>(ring.linkBegin);
             k < static_cast<std::size_t>(ring.linkEnd); ++k) {
            links.emplace_back(record_.linkDurationS[k], record_.linkIds[k]);
        }
        std::sort(links.begin(), links.end());
        for (std::size_t i = 0; i < links.size(); ++i) {
            if (i == 0 || links[i].first != links[i - 1].first) {
                const auto at = static_cast<std::int32_t>(groupLinks_.size());
                groups_.push_back({links[i].first, at, at});
            }
            groupLinks_.push_back(links[i].second);
            groups_.back().linkEnd = static_cast<std::int32_t>(groupLinks_.size());
        }
    }
    ringGroupBegin_.push_back(static_cast<std::int32_t>(groups_.size()));
}

std::pair<std::size_t, std::size_t> Replay::startingBetween(double fromS, double toS,
                                                            bool includeTo) const {
    const auto first = std::lower_bound(startS_.begin(), startS_.end(), fromS);
    const auto last = includeTo ? std::upper_bound(first, startS_.end(), toS)
                                : std::lower_bound(first, startS_.end(), toS);
    return {static_cast<std::size_t>(first - startS_.begin()),
            static_cast<std::size_t>(last - startS_.begin())};
}

void Replay::linkUtilization(double t, double windowS, std::vector<float>& out) const {
    out.assign(static_cast<std::size_t>(topology_.linkSlotCount()), 0.0f);
    if (!(windowS > 0)) {
        return;
    }
    const double from = t - windowS;
    const double perSecond = 1.0 / windowS;
    // Only occupancies that started within the longest occupancy before the window can reach
    // it. Busy time is summed per duration group first: a window holds many steps of few rings.
    std::vector<double> groupBusyS(groups_.size(), 0.0);
    std::vector<std::int32_t> touched;
    const auto [begin, end] = startingBetween(from - longestOccupancyS_, t, false);
    for (std::size_t i = begin; i < end; ++i) {
        const auto& transfer = record_.transfers[static_cast<std::size_t>(byStart_[i])];
        const double visibleFrom = std::max(transfer.startS, from);
        const auto ring = static_cast<std::size_t>(transfer.ring);
        for (std::int32_t g = ringGroupBegin_[ring]; g < ringGroupBegin_[ring + 1]; ++g) {
            const double overlap =
                std::min(transfer.startS + groups_[static_cast<std::size_t>(g)].durationS, t) -
                visibleFrom;
            if (overlap > 0) {
                double& busy = groupBusyS[static_cast<std::size_t>(g)];
                if (busy == 0) {
                    touched.push_back(g);
                }
                busy += overlap;
            }
        }
    }
    for (std::int32_t g : touched) {
        const DurationGroup& group = groups_[static_cast<std::size_t>(g)];
        const auto share = static_cast<float>(groupBusyS[static_cast<std::size_t>(g)] * perSecond);
        for (auto k = static_cast<std::size_t>(group.linkBegin);
             k < static_cast<std::size_t>(group.linkEnd); ++k) {
            out[static_cast<std::size_t>(groupLinks_[k])] += share;
        }
    }
    for (float& u : out) {
        u = std::clamp(u, 0.0f, 1.0f);
    }
}

void Replay::inFlight(double t, std::vector<InFlight>& out) const {
    out.clear();
    const auto [begin, end] = startingBetween(t - longestOccupancyS_, t, true);
    for (std::size_t i = begin; i < end; ++i) {
        const auto& transfer = record_.transfers[static_cast<std::size_t>(byStart_[i])];
        const auto& ring = record_.rings[static_cast<std::size_t>(transfer.ring)];
        const double elapsed = t - transfer.startS;
        for (auto k = static_cast<std::size_t>(ring.linkBegin);
             k < static_cast<std::size_t>(ring.linkEnd); ++k) {
            const double duration = record_.linkDurationS[k];
            if (elapsed < duration) {
                out.push_back({record_.linkIds[k], elapsed / duration, transfer.chunk});
            }
        }
    }
}

void Replay::chipActivity(double t, std::vector<ChipActivity>& out) const {
    const auto chips = static_cast<std::size_t>(topology_.chipCount());
    if (record_.transfers.empty() || t < firstStartS_ || t >= lastEndS_) {
        out.assign(chips, ChipActivity::Idle);
        return;
    }
    out.assign(chips, ChipActivity::Waiting);
    const auto [begin, end] = startingBetween(t - longestOccupancyS_, t, true);
    for (std::size_t i = begin; i < end; ++i) {
        const auto& transfer = record_.transfers[static_cast<std::size_t>(byStart_[i])];
        const auto& ring = record_.rings[static_cast<std::size_t>(transfer.ring)];
        const double elapsed = t - transfer.startS;
        for (auto k = static_cast<std::size_t>(ring.linkBegin);
             k < static_cast<std::size_t>(ring.linkEnd); ++k) {
            if (elapsed < record_.linkDurationS[k]) {
                const ChipId source = topology_.linkSource(record_.linkIds[k]);
                out[static_cast<std::size_t>(source)] = ChipActivity::Communicating;
            }
        }
    }
}

std::string Replay::caption(double t) const {
    const Record::PhaseSpan* phase = nullptr;
    for (std::int32_t p : firstCollectivePhases_) {
        const auto& span = record_.phases[static_cast<std::size_t>(p)];
        if (span.startS <= t && t < span.endS) {
            phase = &span;
            break;
        }
    }
    if (phase == nullptr) {
        return "idle";
    }
    // The earliest-started transfer of collective 0 still on its way at t.
    const auto [begin, end] = startingBetween(t - longestTransferS_, t, true);
    for (std::size_t i = begin; i < end; ++i) {
        const auto& transfer = record_.transfers[static_cast<std::size_t>(byStart_[i])];
        if (t < transfer.endS &&
            record_.rings[static_cast<std::size_t>(transfer.ring)].collective == 0) {
            return phase->name + ", chunk " + std::to_string(transfer.chunk + 1) + " of " +
                   std::to_string(chunkCount_);
        }
    }
    return phase->name;
}

} // namespace podscope::ui
