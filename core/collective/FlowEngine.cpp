#include "collective/FlowEngine.hpp"

#include "collective/CollectiveMetrics.hpp"
#include "collective/Schedule.hpp"

#include <algorithm>
#include <limits>
#include <queue>

namespace podscope {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// A flow with less than this share of its bytes left has ended (rounding of rate * time).
constexpr double kDoneFraction = 1e-9;
// A link with less than this share of its capacity left is full.
constexpr double kFullResidual = 1e-12;

// One ring of one phase of one stream.
struct Flow {
    std::int32_t collective = 0;
    std::int32_t phase = 0;
    double volume = 0;                       // bytes across each hop over the phase
    double capBps = 0;                       // the fastest its chunk pipeline lets it move them
    double tailS = 0;                        // from the last byte sent to the last step delivered
    std::int32_t linkBegin = 0, linkEnd = 0; // into the incidence arrays
    std::int32_t pending = 0;                // rings of the previous phase still running
    double readyS = 0;
    double remaining = 0;
    double rate = 0;
    std::vector<std::int32_t> dependents;
};

struct Ready {
    double timeS;
    std::int32_t flow;
    bool operator>(const Ready& other) const {
        return timeS != other.timeS ? timeS > other.timeS : flow > other.flow;
    }
};

class Simulator {
public:
    Simulator(const Topology& topology, const std::vector<CollectiveLaunch>& launches,
              const StopFlag* stop)
        : topology_(topology)
        , launches_(launches)
        , stop_(stop) {}

    FlowSimulation run() {
        build();
        simulate();
        return finish();
    }

private:
    void build() {
        throwIfStopped(stop_);
        const auto chips = static_cast<std::size_t>(topology_.chipCount());
        const auto slots = static_cast<std::size_t>(topology_.linkSlotCount());
        std::vector<std::int32_t> ringOfChip(chips, -1);
        std::vector<std::int32_t> seenBy;
        std::vector<double> weightOf(slots, 0.0); // scratch: per link, the ring's weight
        for (std::size_t c = 0; c < launches_.size(); ++c) {
            const CollectiveLaunch& launch = launches_[c];
            schedules_.push_back(buildSchedule(topology_, launch.spec, ScheduleScope::Full));
            const Schedule& schedule = schedules_.back();
            phaseEnds_.emplace_back(static_cast<std::size_t>(schedule.phaseCount()), launch.startS);
            const std::size_t streams = schedule.streams.size();
            std::vector<std::int32_t> previousFirst(streams, -1);
            for (int p = 0; p < schedule.phaseCount(); ++p) {
                std::vector<std::int32_t> first(streams);
                for (std::size_t s = 0; s < streams; ++s) {
                    const Phase& phase = schedule.streams[s].phases[static_cast<std::size_t>(p)];
                    first[s] = static_cast<std::int32_t>(flows_.size());
                    for (int r = 0; r < phase.rings.ringCount(); ++r) {
                        addRing(static_cast<std::int32_t>(c), p, phase, r, launch, weightOf);
                    }
                }
                if (p > 0) {
                    for (std::size_t from = 0; from < streams; ++from) {
                        const RingSet& previous =
                            schedule.streams[from].phases[static_cast<std::size_t>(p - 1)].rings;
                        for (std::size_t to = 0; to < streams; ++to) {
                            const RingSet& next =
                                schedule.streams[to].phases[static_cast<std::size_t>(p)].rings;
                            linkPhases(previous, previousFirst[from], next, first[to], ringOfChip,
                                       seenBy);
                        }
                    }
                }
                previousFirst = first;
            }
        }
        residual_.assign(slots, 1.0);
        unfrozenWeight_.assign(slots, 0.0);
        unfrozenFlows_.assign(slots, 0);
    }

    // The ring's flow: per link, the seconds it holds the link per byte a hop carries (a link
    // two hops share is held for both), and the ring's bounds alone.
    void addRing(std::int32_t collective, int p, const Phase& phase, int r,
                 const CollectiveLaunch& launch, std::vector<double>& weightOf) {
        const RingSet& set = phase.rings;
        Flow flow;
        flow.collective = collective;
        flow.phase = p;
        flow.readyS = launch.startS;
        flow.linkBegin = static_cast<std::int32_t>(links_.size());
        const int steps = set.ringSize - 1;
        const int chunks = launch.spec.chunks;
        const double bytes = phase.bytesPerMember / set.ringSize / chunks; // per step and chunk
        double slowestHopS = 0;
        for (int i = 0; i < set.ringSize && steps > 0; ++i) {
            const auto hop = set.hop(r, i);
            double bandwidth = topology_.spec().linkBandwidthBps;
            for (LinkId link : hop) {
                bandwidth = std::min(bandwidth, topology_.linkBandwidth(link));
            }
            for (LinkId link : hop) {
                double& w = weightOf[static_cast<std::size_t>(link)];
                if (w == 0) {
                    links_.push_back(link);
                }
                w += 1 / bandwidth;
            }
            slowestHopS =
                std::max(slowestHopS, static_cast<double>(hop.size()) * topology_.linkLatency() +
                                          bytes / bandwidth);
        }
        flow.linkEnd = static_cast<std::int32_t>(links_.size());
        double busiest = 0; // seconds per byte on the ring's busiest link
        for (auto k = flow.linkBegin; k < flow.linkEnd; ++k) {
            double& w = weightOf[static_cast<std::size_t>(links_[static_cast<std::size_t>(k)])];
            weights_.push_back(w);
            busiest = std::max(busiest, w);
            w = 0;
        }
        if (steps > 0 && busiest > 0) {
            // Per step and chunk the busiest link is held `unit`; alone, the ring is bound by
            // throughput (every step of every chunk through that link, then one delivery) or by
            // latency (the last chunk's steps one after another).
            const double unitS = bytes * busiest;
            const double latencyBoundS = steps * slowestHopS + (chunks - 1) * unitS;
            flow.volume = static_cast<double>(steps) * chunks * bytes;
            flow.tailS = slowestHopS - unitS;
            const double drainS = latencyBoundS - flow.tailS; // > 0: steps >= 1
            flow.capBps = flow.volume / drainS;
        }
        flows_.push_back(std::move(flow));
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
        seenBy.resize(flows_.size(), -1);
        for (int r = 0; r < next.ringCount(); ++r) {
            const std::int32_t ring = nextFirst + r;
            for (ChipId chip : next.ring(r)) {
                const std::int32_t dependency = ringOfChip[static_cast<std::size_t>(chip)];
                if (dependency >= 0 && seenBy[static_cast<std::size_t>(dependency)] != ring) {
                    seenBy[static_cast<std::size_t>(dependency)] = ring;
                    flows_[static_cast<std::size_t>(dependency)].dependents.push_back(ring);
                    ++flows_[static_cast<std::size_t>(ring)].pending;
                }
            }
        }
    }

    // The ring is done at `endS`: its phase may end later, and the rings waiting for it may go.
    void finishFlow(std::int32_t index, double endS) {
        const Flow& flow = flows_[static_cast<std::size_t>(index)];
        double& phaseEnd = phaseEnds_[static_cast<std::size_t>(flow.collective)]
                                     [static_cast<std::size_t>(flow.phase)];
        phaseEnd = std::max(phaseEnd, endS);
        for (std::int32_t dependent : flow.dependents) {
            Flow& next = flows_[static_cast<std::size_t>(dependent)];
            next.readyS = std::max(next.readyS, endS);
            if (--next.pending == 0) {
                ready_.push({next.readyS, dependent});
            }
        }
    }

    void simulate() {
        for (std::size_t f = 0; f < flows_.size(); ++f) {
            if (flows_[f].pending == 0) {
                ready_.push({flows_[f].readyS, static_cast<std::int32_t>(f)});
            }
        }
        double now = 0;
        while (!ready_.empty() || !active_.empty()) {
            throwIfStopped(stop_);
            double next = ready_.empty() ? kInfinity : std::max(ready_.top().timeS, now);
            for (std::int32_t f : active_) {
                const Flow& flow = flows_[static_cast<std::size_t>(f)];
                next = std::min(next, now + flow.remaining / flow.rate);
            }
            const double elapsed = next - now;
            bool changed = false;
            // Flows that have moved their bytes end (those whose end set `next` among them, so
            // that every pass makes progress); their ring's last step is delivered later.
            std::size_t kept = 0;
            for (std::int32_t f : active_) {
                Flow& flow = flows_[static_cast<std::size_t>(f)];
                const bool done = now + flow.remaining / flow.rate <= next;
                flow.remaining -= flow.rate * elapsed;
                if (done || flow.remaining <= kDoneFraction * flow.volume) {
                    finishFlow(f, std::max(next + flow.tailS, flow.readyS));
                    changed = true;
                } else {
                    active_[kept++] = f;
                }
            }
            active_.resize(kept);
            now = next;
            // Rings whose members are ready start (a ring with no step ends at once).
            while (!ready_.empty() && ready_.top().timeS <= now) {
                const std::int32_t f = ready_.top().flow;
                ready_.pop();
                Flow& flow = flows_[static_cast<std::size_t>(f)];
                if (flow.volume <= 0) {
                    finishFlow(f, flow.readyS);
                    continue;
                }
                flow.remaining = flow.volume;
                active_.push_back(f);
                changed = true;
            }
            if (changed && !active_.empty()) {
                shareLinks();
            }
        }
    }

    // Max-min fair rates by progressive filling: every unfrozen flow's rate rises alike until a
    // link it crosses is full (it freezes there) or it reaches its pipeline's rate.
    void shareLinks() {
        ++rateUpdates_;
        touched_.clear();
        for (std::int32_t f : active_) {
            Flow& flow = flows_[static_cast<std::size_t>(f)];
            flow.rate = 0;
            for (auto k = flow.linkBegin; k < flow.linkEnd; ++k) {
                const auto link = static_cast<std::size_t>(links_[static_cast<std::size_t>(k)]);
                if (unfrozenFlows_[link]++ == 0) {
                    touched_.push_back(static_cast<LinkId>(link));
                }
                unfrozenWeight_[link] += weights_[static_cast<std::size_t>(k)];
            }
        }
        unfrozen_ = active_;
        double level = 0;
        while (!unfrozen_.empty()) {
            double step = kInfinity;
            for (LinkId l : touched_) {
                const auto link = static_cast<std::size_t>(l);
                if (unfrozenFlows_[link] > 0) {
                    step = std::min(step, residual_[link] / unfrozenWeight_[link]);
                }
            }
            for (std::int32_t f : unfrozen_) {
                step = std::min(step, flows_[static_cast<std::size_t>(f)].capBps - level);
            }
            step = std::max(step, 0.0);
            level += step;
            for (LinkId l : touched_) {
                const auto link = static_cast<std::size_t>(l);
                if (unfrozenFlows_[link] > 0) {
                    residual_[link] -= step * unfrozenWeight_[link];
                }
            }
            std::size_t kept = 0;
            for (std::int32_t f : unfrozen_) {
                Flow& flow = flows_[static_cast<std::size_t>(f)];
                bool full = flow.capBps - level <= kFullResidual * flow.capBps;
                for (auto k = flow.linkBegin; k < flow.linkEnd && !full; ++k) {
                    full =
                        residual_[static_cast<std::size_t>(links_[static_cast<std::size_t>(k)])] <=
                        kFullResidual;
                }
                if (full) {
                    flow.rate = level;
                    frozenNow_.push_back(f);
                } else {
                    unfrozen_[kept++] = f;
                }
            }
            // Frozen flows no longer take a share of their links' remaining capacity.
            for (std::int32_t f : frozenNow_) {
                const Flow& flow = flows_[static_cast<std::size_t>(f)];
                for (auto k = flow.linkBegin; k < flow.linkEnd; ++k) {
                    const auto link = static_cast<std::size_t>(links_[static_cast<std::size_t>(k)]);
                    --unfrozenFlows_[link];
                    unfrozenWeight_[link] -= weights_[static_cast<std::size_t>(k)];
                }
            }
            if (frozenNow_.empty()) {
                // Only rounding can leave the binding constraint short of full: it is full.
                for (std::int32_t f : unfrozen_) {
                    flows_[static_cast<std::size_t>(f)].rate = level;
                }
                kept = 0;
            }
            unfrozen_.resize(kept);
            frozenNow_.clear();
        }
        for (LinkId l : touched_) {
            const auto link = static_cast<std::size_t>(l);
            residual_[link] = 1.0;
            unfrozenWeight_[link] = 0;
            unfrozenFlows_[link] = 0;
        }
    }

    FlowSimulation finish() {
        FlowSimulation out;
        out.flows = static_cast<std::int64_t>(flows_.size());
        out.rateUpdates = rateUpdates_;
        for (std::size_t c = 0; c < launches_.size(); ++c) {
            const Schedule& schedule = schedules_[c];
            CollectiveResult result;
            result.engine = "flow";
            double previous = launches_[c].startS;
            for (int p = 0; p < schedule.phaseCount(); ++p) {
                const double end = std::max(previous, phaseEnds_[c][static_cast<std::size_t>(p)]);
                result.phases.push_back(
                    {schedule.phaseNames[static_cast<std::size_t>(p)], end - previous});
                previous = end;
            }
            result.timeS = previous - launches_[c].startS;
            completeMetrics(topology_, launches_[c].spec, result);
            out.results.push_back(std::move(result));
        }
        return out;
    }

    const Topology& topology_;
    const std::vector<CollectiveLaunch>& launches_;
    const StopFlag* stop_;
    std::vector<Schedule> schedules_;
    std::vector<std::vector<double>> phaseEnds_;
    std::vector<Flow> flows_;
    // Flat incidences: flow f crosses links_[k] with weights_[k] seconds per byte, k in
    // [linkBegin, linkEnd).
    std::vector<LinkId> links_;
    std::vector<double> weights_;
    std::priority_queue<Ready, std::vector<Ready>, std::greater<>> ready_;
    std::vector<std::int32_t> active_;
    std::vector<std::int32_t> unfrozen_;
    std::vector<std::int32_t> frozenNow_;
    std::vector<LinkId> touched_;
    std::vector<double> residual_;       // per link: share of its capacity not yet given
    std::vector<double> unfrozenWeight_; // per link: the unfrozen flows' weights
    std::vector<std::int32_t> unfrozenFlows_;
    std::int64_t rateUpdates_ = 0;
};

} // namespace

FlowSimulation runFlowEngine(const Topology& topology,
                             const std::vector<CollectiveLaunch>& launches, const StopFlag* stop) {
    return Simulator(topology, launches, stop).run();
}

} // namespace podscope
