#pragma once

#include "timeline/StepTimeline.hpp"
#include "topology/Topology.hpp"
#include "training/StepPlan.hpp"

#include <memory>
#include <vector>

namespace podscope {

// Traffic on every link slot during a simulated step, from the timeline's exchange items. A
// collective runs its schedule's phases one after another inside the item's span (most chips'
// span), each phase given time in proportion to its bytes per link over the slowest link; a link
// in a phase carries (ring size - 1) segments per hop that routes over it. Halo swaps use the
// links between neighbouring chips of a replica tile for the whole item. On-chip exchanges use
// no link. Utilisation is a link's bytes over the time it was given at its bandwidth, so
// latency and launch costs show as links below 100 %.
class TimelineLinkUse {
public:
    // `topology` is the plan's slice; `timeline` the plan's simulated step.
    TimelineLinkUse(const Topology& topology, const StepPlan& plan, const StepTimeline& timeline);
    ~TimelineLinkUse();
    TimelineLinkUse(TimelineLinkUse&&) noexcept;
    TimelineLinkUse& operator=(TimelineLinkUse&&) noexcept;

    // Mean utilisation (0..1) of each link slot over [t - windowS, t] (at t when windowS <= 0);
    // `out` is resized to the topology's link slot count.
    void utilisation(double t, double windowS, std::vector<float>& out) const;
    // The activity whose traffic a link carries at t (GradientSync, ModelParallel,
    // BatchNormSync; Idle when none; the busiest when several share it).
    void kind(double t, std::vector<ChipActivity>& out) const;
    // Items (indices into timeline.items) whose traffic is on the links at t, in item order.
    std::vector<int> exchangesAt(double t) const;
    // Links an exchange item uses, sorted (empty for other items and on-chip exchanges).
    const std::vector<LinkId>& linksOf(int item) const;

private:
    struct Data;
    std::unique_ptr<Data> data_;
};

} // namespace podscope
