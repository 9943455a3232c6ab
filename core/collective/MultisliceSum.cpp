#include "collective/MultisliceSum.hpp"

#include <algorithm>

namespace podscope {
namespace {

double endOf(const Record& record) {
    double end = 0;
    for (const auto& transfer : record.transfers) {
        end = std::max(end, transfer.endS);
    }
    for (const auto& phase : record.phases) {
        end = std::max(end, phase.endS);
    }
    return end;
}

} // namespace

std::string dcnStageName(int slices) {
    return "gradient all-reduce across " + std::to_string(slices) + " slices (DCN)";
}

Record joinRecords(const Record& first, double gapS, const std::string& gapName,
                   const Record& second) {
    Record out = first;
    const double gapStartS = endOf(first);
    const double offsetS = gapStartS + gapS;
    out.phases.push_back({0, gapName, gapStartS, offsetS});
    const auto ringOffset = static_cast<std::int32_t>(out.rings.size());
    const auto linkOffset = static_cast<std::int32_t>(out.linkIds.size());
    const auto phaseOffset = static_cast<std::int32_t>(out.phases.size());
    for (Record::RingEntry ring : second.rings) {
        ring.linkBegin += linkOffset;
        ring.linkEnd += linkOffset;
        ring.phase += phaseOffset;
        out.rings.push_back(ring);
    }
    out.linkIds.insert(out.linkIds.end(), second.linkIds.begin(), second.linkIds.end());
    out.linkDurationS.insert(out.linkDurationS.end(), second.linkDurationS.begin(),
                             second.linkDurationS.end());
    for (Record::Transfer transfer : second.transfers) {
        transfer.startS += offsetS;
        transfer.endS += offsetS;
        transfer.ring += ringOffset;
        out.transfers.push_back(transfer);
    }
    for (Record::PhaseSpan phase : second.phases) {
        phase.startS += offsetS;
        phase.endS += offsetS;
        out.phases.push_back(std::move(phase));
    }
    return out;
}

EventSimulation multisliceGradientSum(const Topology& topology, const CollectiveSpec& allReduce,
                                      int slices, double dcnS, const StopFlag* stop) {
    CollectiveSpec scatter = allReduce;
    scatter.op = CollectiveOp::ReduceScatter;
    CollectiveSpec gather = allReduce;
    gather.op = CollectiveOp::AllGather;
    const EventSimulation a = runEventEngine(topology, scatter, stop);
    const EventSimulation b = runEventEngine(topology, gather, stop);

    EventSimulation out;
    out.record = joinRecords(a.record, dcnS, dcnStageName(slices), b.record);
    const CollectiveResult& ra = a.results.front();
    const CollectiveResult& rb = b.results.front();
    CollectiveResult sum = ra;
    sum.timeS = ra.timeS + dcnS + rb.timeS;
    sum.phases.push_back({dcnStageName(slices), dcnS});
    sum.phases.insert(sum.phases.end(), rb.phases.begin(), rb.phases.end());
    sum.lowerBoundS = ra.lowerBoundS + dcnS + rb.lowerBoundS;
    sum.efficiency = sum.timeS > 0 ? sum.lowerBoundS / sum.timeS : 0;
    // Bandwidths of the slice's ICI group (NCCL's conventions) over the whole sum.
    const int n = std::max(ra.groupSize, 1);
    sum.algbwBps = sum.timeS > 0 ? allReduce.bytesPerChip / sum.timeS : 0;
    sum.busbwBps = sum.algbwBps * 2.0 * (n - 1) / n;
    sum.events = ra.events + rb.events;
    sum.linkOccupancies = ra.linkOccupancies + rb.linkOccupancies;
    // The ICI links over the whole sum, the DCN stage included (they idle through it).
    out.links.busyS = a.links.busyS;
    out.links.bytes = a.links.bytes;
    for (std::size_t l = 0; l < out.links.busyS.size() && l < b.links.busyS.size(); ++l) {
        out.links.busyS[l] += b.links.busyS[l];
        out.links.bytes[l] += b.links.bytes[l];
    }
    out.links.makespanS = sum.timeS;
    double busiest = 0, busySum = 0;
    int used = 0;
    for (const double busy : out.links.busyS) {
        busiest = std::max(busiest, busy);
        if (busy > 0) {
            busySum += busy;
            ++used;
        }
    }
    sum.maxLinkUtilization = sum.timeS > 0 ? busiest / sum.timeS : 0;
    sum.meanLinkUtilization = used > 0 && sum.timeS > 0 ? busySum / used / sum.timeS : 0;
    out.results.push_back(std::move(sum));
    return out;
}

} // namespace podscope
