#include "collective/EventEngine.hpp"

#include "collective/CollectiveMetrics.hpp"
#include "collective/Schedule.hpp"
#include "common/InputError.hpp"
#include "common/Limits.hpp"

#include <algorithm>
#include <queue>

namespace podscope {
namespace {

struct Event {
    double ready;
    std::int32_t ring;
    std::int32_t chunk;
    std::int32_t step;
};

struct LaterFirst {
    bool operator()(const Event& a, const Event& b) const {
        if (a.ready != b.ready) {
            return a.ready > b.ready;
        }
        if (a.ring != b.ring) {
            return a.ring > b.ring;
        }
        return a.chunk > b.chunk;
    }
};

// The latest free time over a ring's links. Four independent maxima keep the loop from
// waiting on one long dependency chain; this is the engine's hot spot.
double latestFree(const double* freeAt, const LinkId* begin, const LinkId* end, double floor) {
    double m0 = floor, m1 = floor, m2 = floor, m3 = floor;
    const LinkId* k = begin;
    for (; k + 4 <= end; k += 4) {
        m0 = std::max(m0, freeAt[k[0]]);
        m1 = std::max(m1, freeAt[k[1]]);
        m2 = std::max(m2, freeAt[k[2]]);
        m3 = std::max(m3, freeAt[k[3]]);
    }
    for (; k < end; ++k) {
        m0 = std::max(m0, freeAt[*k]);
    }
    return std::max(std::max(m0, m1), std::max(m2, m3));
}

// Mutable state of one ring during the run.
struct RingState {
    std::int32_t steps = 0;
    std::int32_t chunks = 0;
    double slowestHopS = 0;
    // Every link of the ring is held for this long and none appears twice: the event loop
    // can then skip the per-link durations.
    double uniformDurationS = -1;
    std::int32_t pendingDependencies = 0;
    std::int32_t chunksDone = 0;
    double readyS = 0;
    double endS = 0;
    std::vector<std::int32_t> dependents; // rings of the next phase waiting for this one
};

constexpr std::uint32_t kEventsPerStopCheck = 4096;

class Simulator {
public:
    Simulator(const Topology& topology, const std::vector<CollectiveLaunch>& launches,
              const StopFlag* stop)
        : topology_(topology)
        , launches_(launches)
        , stop_(stop) {}

    EventSimulation run() {
        build();
        simulate();
        return finish();
    }

private:
    void build() {
        throwIfStopped(stop_);
        std::int64_t events = 0;
        const auto chips = static_cast<std::size_t>(topology_.chipCount());
        std::vector<std::int32_t> previousRingOfChip(chips, -1);
        std::vector<std::int32_t> seenBy;
        for (std::size_t c = 0; c < launches_.size(); ++c) {
            const auto& launch = launches_[c];
            schedules_.push_back(buildSchedule(topology_, launch.spec, ScheduleScope::Full));
            const Schedule& schedule = schedules_.back();
            phaseEnds_.emplace_back(static_cast<std::size_t>(schedule.phaseCount()), launch.startS);
            // Phase by phase over the streams: a chip enters phase p of any stream only once
            // it has finished phase p-1 of all of them (the directions of a bidirectional
            // pair run as one operation per dimension; 2d-dual's halves keep step although
            // their phases use different dimensions).
            const std::size_t streams = schedule.streams.size();
            std::vector<std::int32_t> previousFirst(streams, -1);
            for (int p = 0; p < schedule.phaseCount(); ++p) {
                std::vector<std::int32_t> first(streams);
                for (std::size_t s = 0; s < streams; ++s) {
                    const Phase& phase = schedule.streams[s].phases[static_cast<std::size_t>(p)];
                    const RingSet& set = phase.rings;
                    const double bytes = phase.bytesPerMember / set.ringSize / launch.spec.chunks;
                    first[s] = static_cast<std::int32_t>(states_.size());
                    events += static_cast<std::int64_t>(set.ringCount()) * (set.ringSize - 1) *
                              launch.spec.chunks;
                    if (events > limits::kMaxEventEngineEvents) {
                        throw InputError(
                            "chunks", "the event engine would simulate more than " +
                                          std::to_string(limits::kMaxEventEngineEvents) +
                                          " ring steps; use fewer chunks or the analytic engine");
                    }
                    for (int r = 0; r < set.ringCount(); ++r) {
                        addRing(static_cast<std::int32_t>(c), static_cast<std::int32_t>(s), p, set,
                                r, bytes, launch);
                        if (p == 0) {
                            states_.back().readyS = launch.startS;
                        }
                    }
                }
                if (p > 0) {
                    for (std::size_t from = 0; from < streams; ++from) {
                        const RingSet& previous =
                            schedule.streams[from].phases[static_cast<std::size_t>(p - 1)].rings;
                        for (std::size_t to = 0; to < streams; ++to) {
                            const RingSet& next =
                                schedule.streams[to].phases[static_cast<std::size_t>(p)].rings;
                            linkPhases(previous, previousFirst[from], next, first[to],
                                       previousRingOfChip, seenBy);
                        }
                    }
                }
                previousFirst = first;
            }
        }
        usage_.busyS.assign(static_cast<std::size_t>(topology_.linkSlotCount()), 0.0);
        usage_.bytes.assign(static_cast<std::size_t>(topology_.linkSlotCount()), 0.0);
        freeAt_.assign(static_cast<std::size_t>(topology_.linkSlotCount()), 0.0);
        record_.transfers.reserve(static_cast<std::size_t>(events));
    }

    void addRing(std::int32_t collective, std::int32_t stream, std::int32_t phase,
                 const RingSet& set, int r, double bytes, const CollectiveLaunch& launch) {
        Record::RingEntry entry;
        entry.collective = collective;
        entry.stream = stream;
        entry.phase = phase;
        entry.bytesPerHop = bytes;
        entry.linkBegin = static_cast<std::int32_t>(record_.linkIds.size());
        RingState state;
        for (int i = 0; i < set.ringSize; ++i) {
            const auto hop = set.hop(r, i);
            double bandwidth = topology_.spec().linkBandwidthBps;
            for (LinkId link : hop) {
                bandwidth = std::min(bandwidth, topology_.linkBandwidth(link));
            }
            const double transfer = bytes / bandwidth;
            for (LinkId link : hop) {
                record_.linkIds.push_back(link);
                record_.linkDurationS.push_back(transfer);
            }
            state.slowestHopS =
                std::max(state.slowestHopS,
                         static_cast<double>(hop.size()) * topology_.linkLatency() + transfer);
        }
        entry.linkEnd = static_cast<std::int32_t>(record_.linkIds.size());
        state.uniformDurationS = uniformDuration(entry);
        state.steps = set.ringSize - 1;
        state.chunks = launch.spec.chunks;
        record_.rings.push_back(entry);
        states_.push_back(std::move(state));
    }

    double uniformDuration(const Record::RingEntry& entry) const {
        const auto begin = record_.linkDurationS.begin() + entry.linkBegin;
        const auto end = record_.linkDurationS.begin() + entry.linkEnd;
        if (begin == end || std::any_of(begin, end, [&](double d) { return d != *begin; })) {
            return -1;
        }
        std::vector<LinkId> links(record_.linkIds.begin() + entry.linkBegin,
                                  record_.linkIds.begin() + entry.linkEnd);
        std::sort(links.begin(), links.end());
        return std::adjacent_find(links.begin(), links.end()) == links.end() ? *begin : -1;
    }

    // Each ring of `next` waits for the rings of `previous` that hold any of its members.
    void linkPhases(const RingSet& previous, std::int32_t previousFirst, const RingSet& next,
                    std::int32_t nextFirst, std::vector<std::int32_t>& ringOfChip,
                    std::vector<std::int32_t>& seenBy) {
        for (int r = 0; r < previous.ringCount(); ++r) {
            for (ChipId chip : previous.ring(r)) {
                ringOfChip[static_cast<std::size_t>(chip)] = previousFirst + r;
            }
        }
        seenBy.assign(states_.size(), -1);
        for (int r = 0; r < next.ringCount(); ++r) {
            const std::int32_t ring = nextFirst + r;
            for (ChipId chip : next.ring(r)) {
                const std::int32_t dependency = ringOfChip[static_cast<std::size_t>(chip)];
                if (dependency >= 0 && seenBy[static_cast<std::size_t>(dependency)] != ring) {
                    seenBy[static_cast<std::size_t>(dependency)] = ring;
                    states_[static_cast<std::size_t>(dependency)].dependents.push_back(ring);
                    ++states_[static_cast<std::size_t>(ring)].pendingDependencies;
                }
            }
        }
    }

    void launchRing(std::int32_t ring) {
        const RingState& state = states_[static_cast<std::size_t>(ring)];
        if (state.steps == 0) {
            return;
        }
        for (std::int32_t chunk = 0; chunk < state.chunks; ++chunk) {
            queue_.push({state.readyS, ring, chunk, 0});
        }
    }

    void simulate() {
        for (std::size_t r = 0; r < states_.size(); ++r) {
            if (states_[r].pendingDependencies == 0) {
                launchRing(static_cast<std::int32_t>(r));
            }
        }
        auto* freeAt = freeAt_.data();
        const LinkId* linkIds = record_.linkIds.data();
        const double* durations = record_.linkDurationS.data();
        std::uint32_t sinceCheck = 0;
        while (!queue_.empty()) {
            // A relaxed load is cheap, but not free in a loop this tight: every 4,096 events.
            if (stop_ && ++sinceCheck == kEventsPerStopCheck) {
                sinceCheck = 0;
                throwIfStopped(stop_);
            }
            const Event event = queue_.top();
            queue_.pop();
            RingState& state = states_[static_cast<std::size_t>(event.ring)];
            const Record::RingEntry& entry = record_.rings[static_cast<std::size_t>(event.ring)];
            const double start =
                latestFree(freeAt, linkIds + entry.linkBegin, linkIds + entry.linkEnd, event.ready);
            if (state.uniformDurationS >= 0) {
                const double freeFrom = start + state.uniformDurationS;
                for (auto k = entry.linkBegin; k < entry.linkEnd; ++k) {
                    freeAt[linkIds[k]] = freeFrom;
                }
            } else {
                for (auto k = entry.linkBegin; k < entry.linkEnd; ++k) {
                    const LinkId link = linkIds[k];
                    // max() keeps a link that one step uses twice busy for both transfers.
                    freeAt[link] = std::max(freeAt[link], start) + durations[k];
                }
            }
            occupancies_ += entry.linkEnd - entry.linkBegin;
            const double end = start + state.slowestHopS;
            record_.transfers.push_back({start, end, event.ring, event.chunk, event.step});
            auto& phaseEnd = phaseEnds_[static_cast<std::size_t>(entry.collective)]
                                       [static_cast<std::size_t>(entry.phase)];
            phaseEnd = std::max(phaseEnd, end);
            if (event.step + 1 < state.steps) {
                queue_.push({end, event.ring, event.chunk, event.step + 1});
                continue;
            }
            state.endS = std::max(state.endS, end);
            if (++state.chunksDone < state.chunks) {
                continue;
            }
            for (std::int32_t dependent : state.dependents) {
                RingState& next = states_[static_cast<std::size_t>(dependent)];
                next.readyS = std::max(next.readyS, state.endS);
                if (--next.pendingDependencies == 0) {
                    launchRing(dependent);
                }
            }
        }
    }

    // Every ring runs all its steps for all chunks, so what each link carried follows from
    // the ring table; summing it here keeps the event loop to one read and one write per link.
    void accumulateLinkUsage() {
        for (std::size_t r = 0; r < states_.size(); ++r) {
            const RingState& state = states_[r];
            const Record::RingEntry& entry = record_.rings[r];
            const double transfers = static_cast<double>(state.steps) * state.chunks;
            for (auto k = entry.linkBegin; k < entry.linkEnd; ++k) {
                const auto link =
                    static_cast<std::size_t>(record_.linkIds[static_cast<std::size_t>(k)]);
                usage_.busyS[link] +=
                    transfers * record_.linkDurationS[static_cast<std::size_t>(k)];
                usage_.bytes[link] += transfers * entry.bytesPerHop;
            }
        }
    }

    EventSimulation finish() {
        accumulateLinkUsage();
        EventSimulation out;
        double makespan = 0;
        for (std::size_t c = 0; c < launches_.size(); ++c) {
            const Schedule& schedule = schedules_[c];
            CollectiveResult result;
            result.engine = "event";
            double previous = launches_[c].startS;
            for (int p = 0; p < schedule.phaseCount(); ++p) {
                // Phases may end out of order where rings have nothing to do; keep them monotone.
                const double end = std::max(previous, phaseEnds_[c][static_cast<std::size_t>(p)]);
                result.phases.push_back(
                    {schedule.phaseNames[static_cast<std::size_t>(p)], end - previous});
                record_.phases.push_back({static_cast<std::int32_t>(c),
                                          schedule.phaseNames[static_cast<std::size_t>(p)],
                                          previous, end});
                previous = end;
            }
            result.timeS = previous - launches_[c].startS;
            makespan = std::max(makespan, previous);
            out.results.push_back(std::move(result));
        }
        usage_.makespanS = makespan;
        double utilizationSum = 0;
        double used = 0;
        double maxUtilization = 0;
        for (std::size_t l = 0; l < usage_.busyS.size(); ++l) {
            if (usage_.busyS[l] > 0) {
                const double u = usage_.busyS[l] / makespan;
                maxUtilization = std::max(maxUtilization, u);
                utilizationSum += u;
                used += 1;
            }
        }
        const auto totalEvents = static_cast<std::int64_t>(record_.transfers.size());
        for (std::size_t c = 0; c < launches_.size(); ++c) {
            auto& result = out.results[c];
            result.maxLinkUtilization = maxUtilization;
            result.meanLinkUtilization = used > 0 ? utilizationSum / used : 0;
            result.events = totalEvents;
            result.linkOccupancies = occupancies_;
            completeMetrics(topology_, launches_[c].spec, result);
        }
        out.links = std::move(usage_);
        out.record = std::move(record_);
        return out;
    }

    const Topology& topology_;
    const std::vector<CollectiveLaunch>& launches_;
    const StopFlag* stop_;
    std::vector<Schedule> schedules_;
    std::vector<std::vector<double>> phaseEnds_;
    std::vector<RingState> states_;
    std::priority_queue<Event, std::vector<Event>, LaterFirst> queue_;
    std::vector<double> freeAt_;
    LinkUsage usage_;
    Record record_;
    std::int64_t occupancies_ = 0;
};

} // namespace

EventSimulation runEventEngine(const Topology& topology,
                               const std::vector<CollectiveLaunch>& launches,
                               const StopFlag* stop) {
    return Simulator(topology, launches, stop).run();
}

EventSimulation runEventEngine(const Topology& topology, const CollectiveSpec& spec,
                               const StopFlag* stop) {
    return runEventEngine(topology, std::vector<CollectiveLaunch>{{spec, 0.0}}, stop);
}

} // namespace podscope
