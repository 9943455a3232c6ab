#pragma once

#include "collective/CollectiveSpec.hpp"
#include "topology/Topology.hpp"
#include "training/ExchangeTimer.hpp"
#include "training/StepPlan.hpp"

#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace podscope {

// One tile of a collective within tiles, as a topology of its own, when timing the collective
// there gives the whole topology's time: the tile divides every dimension (so every tile is
// alike), its rings close through wrap-around only where the tile spans the whole dimension
// (as buildSchedule decides), and its links have the bandwidths they have in the whole (it lies
// inside one pod, or holds whole pods, along every dimension). Nullopt otherwise.
std::optional<Topology> oneTileTopology(const Topology& topology, const GroupLayout& groups);

// The step timeline's exchange timer: the event engine, a collective within tiles run on one
// tile. The tiles' rings share no link, so the whole collective takes one tile's time, for a
// tile's share of the events: at 65,536 chips a batch-norm sum over 2x2 tiles simulates 4 chips
// instead of 65,536 (docs/step-timeline.md, "Scale").
class TileExchangeTimer {
public:
    explicit TileExchangeTimer(const StepPlan& plan);

    // As ExchangeTimer::seconds and ExchangeTimer::collectiveSeconds with the event engine.
    double seconds(const Exchange& e);
    double collectiveSeconds(const CollectiveSpec& spec);
    // Every event-engine run throws Cancelled once `stop` is set.
    void setStop(const StopFlag* stop);
    // Whether a collective was timed by the flow engine (too many ring steps).
    bool usedFlows() const;

private:
    // The timer for the spec's tile, or the whole topology's.
    ExchangeTimer& timerFor(const CollectiveSpec& spec);

    const StepPlan& plan_;
    ExchangeTimer whole_;
    const StopFlag* stop_ = nullptr;
    struct Tile {
        std::unique_ptr<StepPlan> plan; // the tile's topology and the core; nothing else is used
        std::unique_ptr<ExchangeTimer> timer;
    };
    std::map<std::vector<int>, Tile> tiles_; // by tile; a null timer: not reducible
};

} // namespace podscope
