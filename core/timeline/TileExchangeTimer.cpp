#include "timeline/TileExchangeTimer.hpp"

#include "collective/Schedule.hpp"

namespace podscope {

std::optional<Topology> oneTileTopology(const Topology& topology, const GroupLayout& groups) {
    if (groups.kind != GroupLayout::Kind::WithinTile ||
        static_cast<int>(groups.tile.size()) > topology.rank()) {
        return std::nullopt;
    }
    const TopologySpec& whole = topology.spec();
    const bool podsMatter = whole.crossPodBandwidthBps != whole.linkBandwidthBps;
    TopologySpec spec;
    spec.name = "one tile of " + whole.name;
    spec.linkBandwidthBps = whole.linkBandwidthBps;
    spec.crossPodBandwidthBps = whole.crossPodBandwidthBps;
    spec.linkLatencyS = whole.linkLatencyS;
    spec.coresPerChip = whole.coresPerChip;
    for (int d = 0; d < topology.rank(); ++d) {
        const auto i = static_cast<std::size_t>(d);
        const int size = topology.size(d);
        const int tile = i < groups.tile.size() ? groups.tile[i] : 1;
        if (tile < 1 || size % tile != 0) {
            return std::nullopt;
        }
        const int pod = whole.podDims[i];
        if (podsMatter && pod % tile != 0 && tile % pod != 0) {
            return std::nullopt; // tiles would cut pods differently from one another
        }
        spec.dims.push_back(tile);
        spec.wrap.push_back(topology.wraps(d) && tile == size);
        spec.podDims.push_back(std::min(pod, tile));
    }
    return Topology(std::move(spec));
}

TileExchangeTimer::TileExchangeTimer(const StepPlan& plan)
    : plan_(plan)
    , whole_(plan, ExchangeTimer::Engine::Event) {}

ExchangeTimer& TileExchangeTimer::timerFor(const CollectiveSpec& spec) {
    if (spec.groups.kind != GroupLayout::Kind::WithinTile) {
        return whole_;
    }
    auto it = tiles_.find(spec.groups.tile);
    if (it == tiles_.end()) {
        Tile tile;
        validateCollective(plan_.topology, spec); // errors name the whole topology's problem
        if (auto topology = oneTileTopology(plan_.topology, spec.groups)) {
            tile.plan = std::make_unique<StepPlan>(std::move(*topology));
            tile.plan->core = plan_.core;
            tile.timer = std::make_unique<ExchangeTimer>(*tile.plan, ExchangeTimer::Engine::Event);
            tile.timer->setStop(stop_);
        }
        it = tiles_.emplace(spec.groups.tile, std::move(tile)).first;
    }
    return it->second.timer ? *it->second.timer : whole_;
}

void TileExchangeTimer::setStop(const StopFlag* stop) {
    stop_ = stop;
    whole_.setStop(stop);
    for (auto& [tile, timing] : tiles_) {
        if (timing.timer) {
            timing.timer->setStop(stop);
        }
    }
}

bool TileExchangeTimer::usedFlows() const {
    bool flows = whole_.usedFlows();
    for (const auto& [tile, timing] : tiles_) {
        flows = flows || (timing.timer && timing.timer->usedFlows());
    }
    return flows;
}

double TileExchangeTimer::seconds(const Exchange& e) {
    return e.collective ? timerFor(*e.collective).seconds(e) : whole_.seconds(e);
}

double TileExchangeTimer::collectiveSeconds(const CollectiveSpec& spec) {
    return timerFor(spec).collectiveSeconds(spec);
}

} // namespace podscope
