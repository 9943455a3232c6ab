#include "TestTopologies.hpp"
#include "collective/AnalyticEngine.hpp"
#include "collective/EventEngine.hpp"
#include "common/InputError.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

namespace podscope {
namespace {

CollectiveSpec allReduce(Algorithm algorithm, double bytes, int chunks = 1) {
    CollectiveSpec spec;
    spec.algorithm = algorithm;
    spec.bytesPerChip = bytes;
    spec.chunks = chunks;
    return spec;
}

TEST(EventEngine, TwoCollectivesAtOnceContendForLinks) {
    const Topology ring = test::grid({16}, {true}, 100e9, 0);
    const CollectiveSpec spec = allReduce(Algorithm::Ring, 64e6);
    const double alone = runAnalytic(ring, spec).timeS;
    const auto both = runEventEngine(ring, {{spec, 0.0}, {spec, 0.0}});
    ASSERT_EQ(both.results.size(), 2u);
    // They share every link, so together they take twice as long as one alone.
    const double together = std::max(both.results[0].timeS, both.results[1].timeS);
    EXPECT_NEAR(together / alone, 2.0, 0.02);
    // One that starts after the first has finished does not contend.
    const auto staggered = runEventEngine(ring, {{spec, 0.0}, {spec, 10 * alone}});
    EXPECT_NEAR(staggered.results[1].timeS / alone, 1.0, 1e-9);
}

TEST(EventEngine, FoldedLineUsesBothDirectionsOfItsLinks) {
    const Topology line = test::grid({8}, {false}, 100e9, 0);
    const Topology ring = test::grid({8}, {true}, 100e9, 0);
    const auto folded = runEventEngine(line, allReduce(Algorithm::Ring, 8e6));
    const auto torus = runEventEngine(ring, allReduce(Algorithm::Ring, 8e6));
    int minusUsedFolded = 0, minusUsedTorus = 0;
    for (LinkId l = 0; l < line.linkSlotCount(); ++l) {
        if (line.linkExists(l) && line.linkDirection(l) == Direction::Minus) {
            minusUsedFolded += folded.links.busyS[static_cast<std::size_t>(l)] > 0;
        }
        if (ring.linkDirection(l) == Direction::Minus) {
            minusUsedTorus += torus.links.busyS[static_cast<std::size_t>(l)] > 0;
        }
    }
    EXPECT_EQ(minusUsedFolded, 7); // every link of the line, in both directions
    EXPECT_EQ(minusUsedTorus, 0);
    // A bidirectional ring on the folded line competes with itself: no faster than one ring.
    const auto bidir = runEventEngine(line, allReduce(Algorithm::BidirRing, 8e6)).results.front();
    EXPECT_NEAR(bidir.timeS / folded.results.front().timeS, 1.0, 0.02);
    EXPECT_GT(bidir.maxLinkUtilization, 0.95);
}

TEST(EventEngine, LinksCarryTheRingsBytes) {
    const int p = 8;
    const double bytes = 8e6;
    const Topology ring = test::grid({p}, {true}, 100e9, 1e-6);
    const auto run = runEventEngine(ring, allReduce(Algorithm::Ring, bytes, 4));
    for (ChipId c = 0; c < p; ++c) {
        // 2(p-1) steps, each moving S/p over every + link.
        EXPECT_NEAR(run.links.bytes[static_cast<std::size_t>(ring.linkId(c, 0, Direction::Plus))],
                    2.0 * (p - 1) * bytes / p, 1e-6);
        EXPECT_EQ(run.links.bytes[static_cast<std::size_t>(ring.linkId(c, 0, Direction::Minus))], 0);
    }
}

TEST(EventEngine, RecordIsConsistent) {
    const Topology t = test::grid({6, 4}, {false, true}, 50e9, 2e-6);
    const auto run = runEventEngine(t, allReduce(Algorithm::TwoD, 4e6, 3));
    const Record& record = run.record;
    const auto& result = run.results.front();
    EXPECT_EQ(static_cast<std::int64_t>(record.transfers.size()), result.events);
    // No link is ever held by two transfers at once.
    std::map<LinkId, std::vector<std::pair<double, double>>> held;
    std::int64_t occupancies = 0;
    for (const auto& transfer : record.transfers) {
        EXPECT_LE(transfer.startS, transfer.endS);
        record.forEachOccupancy(transfer, [&](LinkId link, double start, double end, double bytes) {
            EXPECT_TRUE(t.linkExists(link));
            EXPECT_GT(bytes, 0);
            held[link].push_back({start, end});
            ++occupancies;
        });
    }
    EXPECT_EQ(occupancies, result.linkOccupancies);
    for (auto& [link, spans] : held) {
        std::sort(spans.begin(), spans.end());
        for (std::size_t i = 1; i < spans.size(); ++i) {
            EXPECT_GE(spans[i].first, spans[i - 1].second - 1e-15) << "link " << link;
        }
    }
    // Steps of one chunk on one ring follow each other.
    std::map<std::pair<int, int>, std::pair<int, double>> last;
    for (const auto& transfer : record.transfers) {
        const auto key = std::make_pair(transfer.ring, transfer.chunk);
        if (last.count(key)) {
            EXPECT_EQ(transfer.step, last[key].first + 1);
            EXPECT_GE(transfer.startS, last[key].second);
        }
        last[key] = {transfer.step, transfer.endS};
    }
    // Phases tile the collective's time.
    ASSERT_EQ(record.phases.size(), result.phases.size());
    EXPECT_EQ(record.phases.front().startS, 0);
    for (std::size_t p = 1; p < record.phases.size(); ++p) {
        EXPECT_EQ(record.phases[p].startS, record.phases[p - 1].endS);
    }
    EXPECT_DOUBLE_EQ(record.phases.back().endS, result.timeS);
    // Utilisation is busy time over the makespan, never above one.
    for (LinkId l = 0; l < t.linkSlotCount(); ++l) {
        EXPECT_LE(run.links.utilization(l), 1.0 + 1e-9);
    }
}

TEST(EventEngine, RefusesRunsTooLargeToSimulate) {
    const Topology t = test::grid({256, 256}, {true, true});
    EXPECT_THROW(runEventEngine(t, allReduce(Algorithm::TwoD, 1e9, 1024)), InputError);
}

} // namespace
} // namespace podscope
