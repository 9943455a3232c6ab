#include "view/SelectionDetails.hpp"

#include "collective/Schedule.hpp"

#include <algorithm>

namespace podscope::ui {

ChipDetails chipDetails(const ScenarioRun& run, ChipId chip) {
    const Topology& t = run.topology;
    const auto& links = run.simulation.links;
    ChipDetails d;
    d.chip = chip;
    for (int dim = 0; dim < t.rank(); ++dim) {
        d.coords.push_back(t.coord(chip, dim));
        for (auto dir : {Direction::Plus, Direction::Minus}) {
            const LinkId out = t.linkId(chip, dim, dir);
            if (!t.linkExists(out)) {
                continue;
            }
            d.sentBytes += links.bytes[static_cast<std::size_t>(out)];
            d.busiestOutgoingUtilization =
                std::max(d.busiestOutgoingUtilization, links.utilization(out));
            // The neighbour's link back along the same dimension arrives here.
            const LinkId in = t.linkId(t.linkTarget(out), dim,
                                       dir == Direction::Plus ? Direction::Minus : Direction::Plus);
            d.receivedBytes += links.bytes[static_cast<std::size_t>(in)];
        }
    }
    d.firstCore = chip * t.coresPerChip();
    d.lastCore = d.firstCore + t.coresPerChip() - 1;
    d.host = t.hostOf(chip);
    d.pod = t.podOf(chip);
    const auto& tile = run.scenario.modelParallelTile;
    d.replicasOnChip = std::max(run.scenario.replicasPerChip, 1);
    d.firstReplica =
        groupOf(t, GroupLayout{GroupLayout::Kind::WithinTile, tile}, chip) * d.replicasOnChip;
    d.dataParallelGroup = groupOf(t, GroupLayout{GroupLayout::Kind::AcrossTiles, tile}, chip);
    return d;
}

LinkDetails linkDetails(const ScenarioRun& run, LinkId link, double timeS, double windowS) {
    const Topology& t = run.topology;
    LinkDetails d;
    d.from = t.linkSource(link);
    d.to = t.linkTarget(link);
    d.dim = t.linkDim(link);
    d.direction = t.linkDirection(link);
    d.crossesPods = t.linkCrossesPods(link);
    d.carriedBytes = run.simulation.links.bytes[static_cast<std::size_t>(link)];
    d.utilization = run.simulation.links.utilization(link);
    std::vector<float> now;
    run.replay->linkUtilization(timeS, windowS, now);
    d.currentUtilization = now[static_cast<std::size_t>(link)];
    d.bandwidthBps = t.linkBandwidth(link);
    return d;
}

std::vector<ChipId> ringMembers(const ScenarioRun& run, ChipId chip, double timeS) {
    const Record& record = run.simulation.record;
    int phase = 0;
    for (std::size_t p = 0; p < record.phases.size(); ++p) {
        if (record.phases[p].collective == 0 && timeS >= record.phases[p].startS) {
            phase = static_cast<int>(p);
        }
    }
    const auto sourceOf = [&](std::int64_t k) {
        return run.topology.linkSource(record.linkIds[static_cast<std::size_t>(k)]);
    };
    for (const auto& ring : record.rings) {
        if (ring.collective != 0 || ring.stream != 0 || ring.phase != phase) {
            continue;
        }
        bool contains = false;
        for (auto k = ring.linkBegin; k < ring.linkEnd && !contains; ++k) {
            contains = sourceOf(k) == chip;
        }
        if (contains) {
            std::vector<ChipId> members;
            for (auto k = ring.linkBegin; k < ring.linkEnd; ++k) {
                members.push_back(sourceOf(k));
            }
            std::sort(members.begin(), members.end());
            members.erase(std::unique(members.begin(), members.end()), members.end());
            return members;
        }
    }
    return {chip};
}

} // namespace podscope::ui
