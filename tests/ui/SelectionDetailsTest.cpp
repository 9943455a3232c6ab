// The details pane's numbers for a picked chip or link, against the closed forms of a ring
// all-reduce (plain C++: the window only words them).
#include "view/SelectionDetails.hpp"

#include <gtest/gtest.h>
#include <numeric>

namespace podscope::ui {
namespace {

// Eight chips in a wrapped ring, one ring all-reduce of 64 MiB in one chunk.
std::shared_ptr<const ScenarioRun> ringOfEight(Algorithm algorithm) {
    ViewScenario view;
    view.topology = "8";
    view.wrap = "x";
    view.collective.algorithm = algorithm;
    view.collective.chunks = 1;
    return runScenario(view);
}

TEST(SelectionDetails, AChipSendsAndReceivesWhatARingAllReduceMoves) {
    // Reduce-scatter then all-gather: each chip sends (and receives) 2 (n - 1) / n of its
    // payload, whichever way round the ring (the bidirectional ring halves each direction's).
    for (const Algorithm algorithm : {Algorithm::Ring, Algorithm::BidirRing}) {
        const auto run = ringOfEight(algorithm);
        const double payload = run->scenario.collective.bytesPerChip;
        for (ChipId chip = 0; chip < 8; ++chip) {
            const ChipDetails d = chipDetails(*run, chip);
            EXPECT_NEAR(d.sentBytes, 2.0 * 7 / 8 * payload, 1e-6 * payload) << chip;
            EXPECT_NEAR(d.receivedBytes, 2.0 * 7 / 8 * payload, 1e-6 * payload) << chip;
            EXPECT_EQ(d.coords, std::vector<int>{chip});
            EXPECT_EQ(d.lastCore - d.firstCore + 1, run->topology.coresPerChip());
            EXPECT_GT(d.busiestOutgoingUtilization, 0.0);
            EXPECT_LE(d.busiestOutgoingUtilization, 1.0 + 1e-9);
        }
    }
}

TEST(SelectionDetails, ALinkCarriesItsShareAndTheRingIsEveryChip) {
    const auto run = ringOfEight(Algorithm::Ring);
    const Topology& t = run->topology;
    const double payload = run->scenario.collective.bytesPerChip;
    // A one-way ring: the + link of each chip carries all it sends.
    const LinkId link = t.linkId(3, 0, Direction::Plus);
    const double duration = run->replay->durationS();
    const LinkDetails d = linkDetails(*run, link, duration / 2, duration / 10);
    EXPECT_EQ(d.from, 3);
    EXPECT_EQ(d.to, 4);
    EXPECT_FALSE(d.crossesPods);
    EXPECT_NEAR(d.carriedBytes, 2.0 * 7 / 8 * payload, 1e-6 * payload);
    EXPECT_GT(d.currentUtilization, 0.0); // mid-collective, every link of the ring is busy
    EXPECT_EQ(d.bandwidthBps, t.linkBandwidth(link));
    std::vector<ChipId> all(8);
    std::iota(all.begin(), all.end(), 0);
    EXPECT_EQ(ringMembers(*run, 5, duration / 2), all);
}

} // namespace
} // namespace podscope::ui
