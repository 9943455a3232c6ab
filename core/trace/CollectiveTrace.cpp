#include "trace/CollectiveTrace.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace podscope::trace {
namespace {

constexpr const char* kDimNames[] = {"x", "y", "z", "w"};

// Which block (pod or host) a chip's links are accounted to.
struct Grouping {
    std::string kind; // "pod" or "host"
    int count = 1;
    bool byHost = false;
    int of(const Topology& t, ChipId chip) const { return byHost ? t.hostOf(chip) : t.podOf(chip); }
};

Grouping chooseGrouping(const Topology& t, int maxHostTracks) {
    if (t.hostCount() > 1 && t.hostCount() <= maxHostTracks) {
        return {"host", t.hostCount(), true};
    }
    return {"pod", std::max(t.podCount(), 1), false};
}

// Spreads [startS, endS) over the bins it overlaps, adding the overlap in seconds.
template <typename Add>
void spreadOverBins(double startS, double endS, double binS, int bins, Add&& add) {
    if (!(endS > startS) || binS <= 0) {
        return;
    }
    int first = std::clamp(static_cast<int>(startS / binS), 0, bins - 1);
    for (int b = first; b < bins; ++b) {
        const double lo = std::max(startS, b * binS);
        const double hi = std::min(endS, (b + 1) * binS);
        if (hi > lo) {
            add(b, hi - lo);
        }
        if ((b + 1) * binS >= endS) {
            break;
        }
    }
}

} // namespace

void appendCollectiveTrace(TraceEvents& events, const Topology& topology, const Record& record,
                           const CollectiveTraceOptions& o) {
    const int pid = o.pid;
    events.processName(pid, o.processName, pid);

    // Phase names per collective, in the order the engine recorded them (RingEntry::phase
    // indexes into its own collective's list).
    int collectives = 0;
    for (const auto& p : record.phases) {
        collectives = std::max(collectives, p.collective + 1);
    }
    std::vector<std::vector<std::string>> phaseNames(static_cast<std::size_t>(collectives));
    double makespanS = 0;
    for (const auto& p : record.phases) {
        phaseNames[static_cast<std::size_t>(p.collective)].push_back(p.name);
        makespanS = std::max(makespanS, p.endS);
    }
    for (const auto& t : record.transfers) {
        makespanS = std::max(makespanS, t.endS);
    }

    // Phase tracks: one per collective.
    for (int c = 0; c < collectives; ++c) {
        const int tid = 1 + c;
        events.threadName(pid, tid,
                          collectives == 1 ? "phases" : "phases of collective " + std::to_string(c),
                          tid);
        for (const auto& p : record.phases) {
            if (p.collective == c && p.endS > p.startS) {
                events.span(pid, tid, p.name, o.offsetS + p.startS, p.endS - p.startS);
            }
        }
    }
    if (makespanS <= 0) {
        return;
    }

    // Busy link-seconds per time bin: per dimension, and per group and phase.
    const int bins = std::max(o.timeBins, 1);
    const double binS = makespanS / bins;
    const int rank = topology.rank();
    const Grouping grouping = chooseGrouping(topology, o.maxHostTracks);
    std::vector<std::int64_t> linksPerDim(static_cast<std::size_t>(rank), 0);
    std::vector<std::int64_t> linksPerGroup(static_cast<std::size_t>(grouping.count), 0);
    for (LinkId l = 0; l < topology.linkSlotCount(); ++l) {
        if (topology.linkExists(l)) {
            ++linksPerDim[static_cast<std::size_t>(topology.linkDim(l))];
            ++linksPerGroup[static_cast<std::size_t>(
                grouping.of(topology, topology.linkSource(l)))];
        }
    }
    int phaseSlots = 0;
    std::vector<int> phaseBase(static_cast<std::size_t>(collectives), 0);
    for (int c = 0; c < collectives; ++c) {
        phaseBase[static_cast<std::size_t>(c)] = phaseSlots;
        phaseSlots += static_cast<int>(phaseNames[static_cast<std::size_t>(c)].size());
    }
    phaseSlots = std::max(phaseSlots, 1);
    std::vector<double> dimBusy(static_cast<std::size_t>(rank * bins), 0.0);
    std::vector<double> groupBusy(static_cast<std::size_t>(grouping.count) * bins * phaseSlots,
                                  0.0);
    // Group of each chip, computed once: the loop below visits millions of occupancies.
    std::vector<int> groupOfChip(static_cast<std::size_t>(topology.chipCount()));
    for (ChipId chip = 0; chip < topology.chipCount(); ++chip) {
        groupOfChip[static_cast<std::size_t>(chip)] = grouping.of(topology, chip);
    }
    for (const auto& transfer : record.transfers) {
        const auto& ring = record.rings[static_cast<std::size_t>(transfer.ring)];
        const int slot = ring.collective < collectives
                             ? phaseBase[static_cast<std::size_t>(ring.collective)] + ring.phase
                             : 0;
        record.forEachOccupancy(transfer, [&](LinkId link, double startS, double endS, double) {
            const int dim = topology.linkDim(link);
            const int group = groupOfChip[static_cast<std::size_t>(topology.linkSource(link))];
            spreadOverBins(startS, endS, binS, bins, [&](int b, double seconds) {
                dimBusy[static_cast<std::size_t>(dim * bins + b)] += seconds;
                groupBusy[(static_cast<std::size_t>(group) * bins + b) * phaseSlots + slot] +=
                    seconds;
            });
        });
    }

    // Per-group tracks: runs of bins in which the group's links are busy, named by the phase
    // that kept them busiest, with the mean utilisation of the group's links.
    const int groupTidBase = 1 + collectives;
    auto slotName = [&](int slot) {
        for (int c = collectives - 1; c >= 0; --c) {
            if (slot >= phaseBase[static_cast<std::size_t>(c)]) {
                const auto& names = phaseNames[static_cast<std::size_t>(c)];
                const auto i =
                    static_cast<std::size_t>(slot - phaseBase[static_cast<std::size_t>(c)]);
                return i < names.size() ? names[i] : std::string("transfers");
            }
        }
        return std::string("transfers");
    };
    for (int g = 0; g < grouping.count; ++g) {
        const int tid = groupTidBase + g;
        events.threadName(pid, tid, grouping.kind + " " + std::to_string(g) + " links", tid);
        const double capacity =
            static_cast<double>(linksPerGroup[static_cast<std::size_t>(g)]) * binS;
        int runSlot = -1;
        int runStart = 0;
        double runBusy = 0;
        auto flush = [&](int endBin) {
            if (runSlot >= 0 && capacity > 0) {
                const double percent =
                    std::min(100.0, 100.0 * runBusy / (capacity * (endBin - runStart)));
                events.span(pid, tid, slotName(runSlot), o.offsetS + runStart * binS,
                            (endBin - runStart) * binS,
                            {{"link utilisation %", std::round(percent * 10) / 10}});
            }
            runSlot = -1;
            runBusy = 0;
        };
        for (int b = 0; b < bins; ++b) {
            const double* busy = &groupBusy[(static_cast<std::size_t>(g) * bins + b) * phaseSlots];
            const int best = static_cast<int>(std::max_element(busy, busy + phaseSlots) - busy);
            double total = 0;
            for (int s = 0; s < phaseSlots; ++s) {
                total += busy[s];
            }
            const int slot = total > 0 ? best : -1;
            if (slot != runSlot) {
                flush(b);
                runSlot = slot;
                runStart = b;
            }
            runBusy += total;
        }
        flush(bins);
    }

    // Utilisation counters per dimension, one sample per bin and a closing zero.
    for (int d = 0; d < rank; ++d) {
        const std::string name =
            std::string("link utilisation ") + kDimNames[std::min(d, 3)] + " (%)";
        const double capacity =
            static_cast<double>(linksPerDim[static_cast<std::size_t>(d)]) * binS;
        for (int b = 0; b < bins; ++b) {
            const double percent =
                capacity > 0
                    ? std::min(100.0,
                               100.0 * dimBusy[static_cast<std::size_t>(d * bins + b)] / capacity)
                    : 0.0;
            events.counter(pid, name, o.offsetS + b * binS,
                           {{"busy", std::round(percent * 10) / 10}});
        }
        events.counter(pid, name, o.offsetS + makespanS, {{"busy", 0.0}});
    }
}

} // namespace podscope::trace
