#include "scene/Replay.hpp"

#include "collective/EventEngine.hpp"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>

namespace podscope::ui {
namespace {

Topology grid(std::vector<int> dims, std::vector<bool> wrap) {
    TopologySpec spec;
    spec.name = "test";
    spec.dims = std::move(dims);
    spec.wrap = std::move(wrap);
    spec.linkBandwidthBps = 100e9;
    spec.linkLatencyS = 1e-6;
    return Topology(spec);
}

CollectiveSpec allReduce(Algorithm algorithm, double bytes, int chunks) {
    CollectiveSpec spec;
    spec.algorithm = algorithm;
    spec.bytesPerChip = bytes;
    spec.chunks = chunks;
    return spec;
}

const Record::PhaseSpan& phaseNamed(const Record& record, const std::string& prefix) {
    for (const auto& phase : record.phases) {
        if (phase.name.rfind(prefix, 0) == 0) {
            return phase;
        }
    }
    throw std::runtime_error("no phase " + prefix);
}

// A unidirectional all-reduce around 8 chips: each step holds every + link for 1 MB / 100 GB/s
// = 10 us and delivers 1 us of latency later, so the + links are busy 10 of every 11 us.
class RingReplay : public ::testing::Test {
protected:
    Topology ring = grid({8}, {true});
    EventSimulation run = runEventEngine(ring, allReduce(Algorithm::Ring, 8e6, 1));
    Replay replay{ring, run.record};
    double transferS = 1e6 / 100e9;
    double stepS = transferS + 1e-6;
};

TEST_F(RingReplay, SpansTheCollective) {
    EXPECT_NEAR(replay.durationS(), run.results.front().timeS, 1e-12);
    EXPECT_NEAR(replay.durationS(), 14 * stepS, 1e-9); // 2(p-1) steps
}

TEST_F(RingReplay, PlusLinksAreBusyTransferOverStepMidPhase) {
    std::vector<float> utilization;
    for (const char* name : {"reduce-scatter", "all-gather"}) {
        const auto& phase = phaseNamed(run.record, name);
        const double mid = (phase.startS + phase.endS) / 2;
        replay.linkUtilization(mid, 3 * stepS, utilization);
        ASSERT_EQ(static_cast<LinkId>(utilization.size()), ring.linkSlotCount());
        for (ChipId c = 0; c < 8; ++c) {
            const auto plus = static_cast<std::size_t>(ring.linkId(c, 0, Direction::Plus));
            const auto minus = static_cast<std::size_t>(ring.linkId(c, 0, Direction::Minus));
            EXPECT_NEAR(utilization[plus], transferS / stepS, 1e-4) << name << " chip " << c;
            EXPECT_EQ(utilization[minus], 0.0f) << name << " chip " << c;
        }
    }
}

TEST_F(RingReplay, ShortWindowsInsideATransferAreFullyBusy) {
    std::vector<float> utilization;
    const double start = run.record.transfers[3].startS;
    replay.linkUtilization(start + transferS / 2, transferS / 4, utilization);
    EXPECT_EQ(utilization[static_cast<std::size_t>(ring.linkId(2, 0, Direction::Plus))], 1.0f);
    // In the latency gap after the transfer, nothing is on the wire.
    replay.linkUtilization(start + transferS + 0.8e-6, 0.5e-6, utilization);
    EXPECT_TRUE(
        std::all_of(utilization.begin(), utilization.end(), [](float u) { return u == 0; }));
}

// Windows that tile the record add up to each link's busy time over the whole run.
void expectIntegratesToBusyTime(const Topology& topology, const EventSimulation& run) {
    const Replay replay(topology, run.record);
    const int windows = 97; // not a multiple of the step, so windows cut transfers
    const double window = replay.durationS() / windows;
    std::vector<double> busy(static_cast<std::size_t>(topology.linkSlotCount()), 0.0);
    std::vector<float> utilization;
    for (int i = 1; i <= windows; ++i) {
        replay.linkUtilization(i * window, window, utilization);
        for (std::size_t l = 0; l < busy.size(); ++l) {
            busy[l] += utilization[l] * window;
        }
    }
    for (std::size_t l = 0; l < busy.size(); ++l) {
        EXPECT_NEAR(busy[l], run.links.busyS[l], 1e-6 * replay.durationS()) << "link " << l;
    }
}

TEST_F(RingReplay, UtilizationIntegratesToEachLinksBusyTime) {
    expectIntegratesToBusyTime(ring, run);
    EXPECT_GT(run.links.busyS[static_cast<std::size_t>(ring.linkId(0, 0, Direction::Plus))], 0);
}

TEST(Replay, UtilizationIntegratesWhenLinksOfARingDiffer) {
    // Two pods of 4 joined by slower links: one ring holds its links for different times.
    TopologySpec spec;
    spec.name = "two pods";
    spec.dims = {8};
    spec.wrap = {true};
    spec.podDims = {4};
    spec.linkBandwidthBps = 100e9;
    spec.crossPodBandwidthBps = 25e9;
    const Topology twoPods(spec);
    const EventSimulation run = runEventEngine(twoPods, allReduce(Algorithm::BidirRing, 8e6, 3));
    expectIntegratesToBusyTime(twoPods, run);
    const auto inPod =
        run.links.busyS[static_cast<std::size_t>(twoPods.linkId(1, 0, Direction::Plus))];
    const auto crossPod =
        run.links.busyS[static_cast<std::size_t>(twoPods.linkId(3, 0, Direction::Plus))];
    EXPECT_NEAR(crossPod / inPod, 4.0, 1e-6);

    const Topology torus = grid({8, 4}, {true, false});
    expectIntegratesToBusyTime(torus, runEventEngine(torus, allReduce(Algorithm::TwoD, 4e6, 4)));
}

TEST_F(RingReplay, ZeroWindowAndTimesOutsideTheRecordAreIdle) {
    std::vector<float> utilization{0.5f};
    replay.linkUtilization(replay.durationS() / 2, 0, utilization);
    EXPECT_EQ(static_cast<LinkId>(utilization.size()), ring.linkSlotCount());
    EXPECT_TRUE(
        std::all_of(utilization.begin(), utilization.end(), [](float u) { return u == 0; }));
    replay.linkUtilization(-1e-3, 1e-4, utilization);
    EXPECT_TRUE(
        std::all_of(utilization.begin(), utilization.end(), [](float u) { return u == 0; }));
    replay.linkUtilization(replay.durationS() + 1e-3, 1e-4, utilization);
    EXPECT_TRUE(
        std::all_of(utilization.begin(), utilization.end(), [](float u) { return u == 0; }));
}

TEST_F(RingReplay, InFlightChunksMoveAlongPlusLinks) {
    std::vector<Replay::InFlight> flying;
    const auto& first = run.record.transfers.front();
    replay.inFlight(first.startS + 0.25 * transferS, flying);
    ASSERT_EQ(flying.size(), 8u); // every + link carries a piece of the step
    for (const auto& piece : flying) {
        EXPECT_EQ(ring.linkDirection(piece.link), Direction::Plus);
        EXPECT_NEAR(piece.progress, 0.25, 1e-9);
        EXPECT_EQ(piece.chunk, 0);
    }
    replay.inFlight(first.startS + transferS + 0.5e-6, flying); // latency: delivered soon
    EXPECT_TRUE(flying.empty());
    replay.inFlight(first.startS + transferS, flying); // the end itself is not in flight
    EXPECT_TRUE(flying.empty());
    replay.inFlight(first.startS, flying); // the start is
    EXPECT_EQ(flying.size(), 8u);
}

TEST_F(RingReplay, ChipsCommunicateWaitOrIdle) {
    std::vector<ChipActivity> activity;
    const auto& first = run.record.transfers.front();
    const auto all = [&](ChipActivity expected) {
        return activity.size() == 8u && std::all_of(activity.begin(), activity.end(),
                                                    [&](ChipActivity a) { return a == expected; });
    };
    replay.chipActivity(first.startS + transferS / 2, activity);
    EXPECT_TRUE(all(ChipActivity::Communicating));
    replay.chipActivity(first.startS + transferS + 0.5e-6, activity);
    EXPECT_TRUE(all(ChipActivity::Waiting));
    replay.chipActivity(-1e-6, activity);
    EXPECT_TRUE(all(ChipActivity::Idle));
    replay.chipActivity(replay.durationS() + 1e-6, activity);
    EXPECT_TRUE(all(ChipActivity::Idle));
}

TEST_F(RingReplay, CaptionNamesThePhase) {
    for (const auto& phase : run.record.phases) {
        const std::string caption = replay.caption((phase.startS + phase.endS) / 2);
        EXPECT_EQ(caption.rfind(phase.name, 0), 0u) << caption;
    }
    EXPECT_EQ(replay.caption(-1e-6), "idle");
    EXPECT_EQ(replay.caption(replay.durationS() + 1e-6), "idle");
}

TEST(Replay, InFlightProgressStaysInRangeAndCaptionCountsChunks) {
    const Topology torus = grid({8, 4}, {true, true});
    const EventSimulation run = runEventEngine(torus, allReduce(Algorithm::TwoD, 4e6, 4));
    const Replay replay(torus, run.record);
    std::vector<Replay::InFlight> flying;
    std::vector<float> utilization;
    std::size_t seen = 0;
    for (int i = 0; i <= 500; ++i) {
        const double t = replay.durationS() * i / 500;
        replay.inFlight(t, flying);
        for (const auto& piece : flying) {
            EXPECT_TRUE(torus.linkExists(piece.link));
            EXPECT_GE(piece.progress, 0.0);
            EXPECT_LT(piece.progress, 1.0);
            EXPECT_GE(piece.chunk, 0);
            EXPECT_LT(piece.chunk, 4);
        }
        seen += flying.size();
        replay.linkUtilization(t, replay.durationS() / 50, utilization);
        for (float u : utilization) {
            EXPECT_GE(u, 0.0f);
            EXPECT_LE(u, 1.0f);
        }
    }
    EXPECT_GT(seen, 0u);

    // The first transfer is chunk 1 of the first phase.
    const auto& firstPhase = run.record.phases.front();
    EXPECT_EQ(replay.caption(run.record.transfers.front().startS),
              firstPhase.name + ", chunk 1 of 4");
    // Mid-phase, the caption names that phase and one of its four chunks.
    for (const auto& phase : run.record.phases) {
        const std::string caption = replay.caption((phase.startS + phase.endS) / 2);
        EXPECT_EQ(caption.rfind(phase.name, 0), 0u) << caption;
        EXPECT_NE(caption.find(" of 4"), std::string::npos) << caption;
    }
}

TEST(Replay, EmptyRecordIsIdle) {
    const Topology ring = grid({4}, {true});
    const Record record;
    const Replay replay(ring, record);
    EXPECT_EQ(replay.durationS(), 0.0);
    std::vector<float> utilization;
    replay.linkUtilization(1e-6, 1e-6, utilization);
    EXPECT_EQ(static_cast<LinkId>(utilization.size()), ring.linkSlotCount());
    std::vector<ChipActivity> activity;
    replay.chipActivity(0, activity);
    EXPECT_EQ(activity, std::vector<ChipActivity>(4, ChipActivity::Idle));
    EXPECT_EQ(replay.caption(0), "idle");
}

} // namespace
} // namespace podscope::ui
