// The step timeline times a collective within tiles on one tile (issue 13, scale): the time is
// the whole topology's, to the last bit, wherever the reduction applies.
#include "timeline/TileExchangeTimer.hpp"

#include "TestTopologies.hpp"
#include "collective/EventEngine.hpp"
#include "training/Presets.hpp"

#include <gtest/gtest.h>

namespace podscope {
namespace {

double wholeTopologySeconds(const Topology& topology, const CollectiveSpec& spec) {
    return runEventEngine(topology, spec).results.front().timeS;
}

CollectiveSpec withinTile(std::vector<int> tile, double bytes,
                          Algorithm algorithm = Algorithm::TwoD) {
    CollectiveSpec spec;
    spec.groups.kind = GroupLayout::Kind::WithinTile;
    spec.groups.tile = std::move(tile);
    spec.bytesPerChip = bytes;
    spec.algorithm = algorithm;
    spec.chunks = 2;
    return spec;
}

// Every preset's collectives within tiles (batch-norm sums, tensor all-reduces) take the same
// time on one tile as on the whole slice.
TEST(TileExchangeTimer, PresetsCollectivesWithinTilesTakeTheWholeSlicesTime) {
    int reduced = 0;
    for (const std::string& name : presetNames()) {
        SCOPED_TRACE(name);
        const StepPlan plan = buildStepPlan(loadPreset(name).scenario);
        TileExchangeTimer timer(plan);
        std::vector<CollectiveSpec> seen;
        for (const Exchange& e : plan.exchanges) {
            if (!e.collective || e.collective->groups.kind != GroupLayout::Kind::WithinTile) {
                continue;
            }
            if (std::any_of(seen.begin(), seen.end(), [&](const CollectiveSpec& s) {
                    return s.bytesPerChip == e.collective->bytesPerChip &&
                           s.groups.tile == e.collective->groups.tile;
                })) {
                continue;
            }
            seen.push_back(*e.collective);
            ASSERT_TRUE(oneTileTopology(plan.topology, e.collective->groups).has_value())
                << toString(e.collective->groups);
            EXPECT_DOUBLE_EQ(timer.collectiveSeconds(*e.collective),
                             wholeTopologySeconds(plan.topology, *e.collective))
                << toString(e.kind) << " " << toString(e.collective->groups) << " "
                << e.collective->bytesPerChip;
            ++reduced;
        }
    }
    EXPECT_GE(reduced, 5);
}

// Tiles that span a wrapped dimension keep its wrap-around; tiles holding whole pods keep the
// slower links between them; tiles that would cut pods unevenly are run on the whole topology.
TEST(TileExchangeTimer, WrapAndPodsAreKept) {
    StepPlan torus(test::grid({32, 16}, {true, true}));
    TileExchangeTimer torusTimer(torus);
    for (const auto& spec :
         {withinTile({32, 2}, 1 << 20), withinTile({4, 4}, 1 << 20),
          withinTile({32, 1}, 1 << 16, Algorithm::BidirRing), withinTile({2, 16}, 4096)}) {
        SCOPED_TRACE(toString(spec.groups));
        const auto tile = oneTileTopology(torus.topology, spec.groups);
        ASSERT_TRUE(tile.has_value());
        for (int d = 0; d < 2; ++d) {
            EXPECT_EQ(tile->wraps(d),
                      spec.groups.tile[static_cast<std::size_t>(d)] == torus.topology.size(d));
        }
        EXPECT_DOUBLE_EQ(torusTimer.collectiveSeconds(spec),
                         wholeTopologySeconds(torus.topology, spec));
    }

    TopologySpec pods;
    pods.name = "pods";
    pods.dims = {32, 8};
    pods.wrap = {false, true};
    pods.podDims = {8, 8};
    pods.linkBandwidthBps = 100e9;
    pods.crossPodBandwidthBps = 25e9;
    StepPlan podded{Topology(pods)};
    TileExchangeTimer podTimer(podded);
    for (const auto& spec : {withinTile({16, 2}, 1 << 20), withinTile({4, 8}, 1 << 20)}) {
        SCOPED_TRACE(toString(spec.groups));
        ASSERT_TRUE(oneTileTopology(podded.topology, spec.groups).has_value());
        EXPECT_DOUBLE_EQ(podTimer.collectiveSeconds(spec),
                         wholeTopologySeconds(podded.topology, spec));
    }
    // The slow links between pods count: two pods per tile take longer than one.
    EXPECT_GT(podTimer.collectiveSeconds(withinTile({16, 1}, 1 << 20)),
              podTimer.collectiveSeconds(withinTile({8, 1}, 1 << 20)));
    // 32 = 2 x 16 chips, pods of 8: fine; pods of 12 in 24 with tiles of 8 are cut unevenly.
    pods.dims = {24, 8};
    pods.podDims = {12, 8};
    const Topology uneven(pods);
    EXPECT_FALSE(oneTileTopology(uneven, withinTile({8, 1}, 1).groups).has_value());
    StepPlan unevenPlan{uneven};
    TileExchangeTimer unevenTimer(unevenPlan);
    const auto spec = withinTile({8, 1}, 1 << 20);
    EXPECT_DOUBLE_EQ(unevenTimer.collectiveSeconds(spec), wholeTopologySeconds(uneven, spec));
    // Only collectives within tiles are reduced.
    GroupLayout all;
    EXPECT_FALSE(oneTileTopology(torus.topology, all).has_value());
}

} // namespace
} // namespace podscope
