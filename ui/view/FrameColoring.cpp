#include "view/FrameColoring.hpp"

#include "collective/Schedule.hpp"
#include "common/InputError.hpp"
#include "view/GroupColoring.hpp"

#include <algorithm>

namespace podscope::ui {
namespace {

constexpr Rgb kCommunicating{255, 140, 60};
constexpr Rgb kWaiting{90, 110, 150};
constexpr Rgb kIdle{150, 156, 166};

struct ModeName {
    ColorMode mode;
    const char* name;
};
constexpr ModeName kModeNames[] = {{ColorMode::ChipState, "state"},
                                   {ColorMode::Replica, "replica"},
                                   {ColorMode::DataParallelGroup, "data-parallel-group"},
                                   {ColorMode::Host, "host"},
                                   {ColorMode::Pod, "pod"}};
// Names of earlier versions, still read (scripts and command lines written for them).
constexpr ModeName kFormerNames[] = {{ColorMode::Replica, "model-parallel-group"},
                                     {ColorMode::DataParallelGroup, "replica-group"}};

} // namespace

ColorMode parseColorMode(const std::string& text) {
    for (const auto& entry : kModeNames) {
        if (text == entry.name) {
            return entry.mode;
        }
    }
    for (const auto& entry : kFormerNames) {
        if (text == entry.name) {
            return entry.mode;
        }
    }
    throw InputError("color-by", "unknown colour mode '" + text +
                                     "' (state, replica, data-parallel-group, host, pod)");
}

std::string toString(ColorMode mode) {
    for (const auto& entry : kModeNames) {
        if (entry.mode == mode) {
            return entry.name;
        }
    }
    return "?";
}

std::vector<ColorMode> allColorModes() {
    std::vector<ColorMode> modes;
    for (const auto& entry : kModeNames) {
        modes.push_back(entry.mode);
    }
    return modes;
}

FrameColoring::FrameColoring(const Topology& topology, const SceneGeometry& scene,
                             const Replay& replay, std::vector<int> replicaTile,
                             int replicasPerChip)
    : topology_(topology)
    , scene_(scene)
    , replay_(replay)
    , tile_(std::move(replicaTile))
    , replicasPerChip_(std::max(replicasPerChip, 1)) {}

void FrameColoring::setDcnStage(double startS, double endS, double linkUse) {
    dcnStartS_ = startS;
    dcnEndS_ = endS;
    dcnLinkUse_ = linkUse;
}

void FrameColoring::compute(double t, double windowS, ColorMode mode, FrameColors& out) {
    replay_.linkUtilization(t, windowS, utilization_);
    // The DCN links on the same utilisation scale as the ICI links, at their use over the stage.
    const bool acrossSlices = t >= dcnStartS_ && t < dcnEndS_;
    out.dcnLink = acrossSlices ? utilizationColor(static_cast<float>(dcnLinkUse_))
                               : FrameColors{}.dcnLink;
    out.links.resize(scene_.links.size());
    for (std::size_t i = 0; i < scene_.links.size(); ++i) {
        out.links[i] = utilizationColor(utilization_[static_cast<std::size_t>(scene_.links[i])]);
    }
    out.linkLegend = Legend{};
    out.linkLegend.title = "Link utilisation";
    out.linkLegend.maximum = 100;
    out.linkLegend.unit.assign(1, '%'); // not = "%": GCC 12 at -O3 reports a false -Wrestrict

    const auto chips = static_cast<std::size_t>(topology_.chipCount());
    out.chips.resize(chips);
    switch (mode) {
    case ColorMode::ChipState: {
        replay_.chipActivity(t, activity_);
        for (std::size_t c = 0; c < chips; ++c) {
            const ChipActivity a = acrossSlices ? ChipActivity::Communicating : activity_[c];
            out.chips[c] = a == ChipActivity::Communicating ? kCommunicating
                           : a == ChipActivity::Waiting     ? kWaiting
                                                            : kIdle;
        }
        out.chipLegend = Legend{};
        out.chipLegend.title = "Chip state";
        out.chipLegend.continuous = false;
        out.chipLegend.categories = {
            {"communicating", kCommunicating}, {"waiting", kWaiting}, {"idle", kIdle}};
        break;
    }
    case ColorMode::Replica:
    case ColorMode::DataParallelGroup:
    case ColorMode::Host:
    case ColorMode::Pod:
        colorChipsByGroup(topology_, ChipGrouping{tile_, replicasPerChip_}, mode, out.chips,
                          out.chipLegend);
        break;
    }

    // A marker travels along each busy link from its source towards its target.
    replay_.inFlight(t, inFlight_);
    out.markers.clear();
    for (const auto& flight : inFlight_) {
        const auto index = scene_.linkIndexOfSlot[static_cast<std::size_t>(flight.link)];
        if (index < 0) {
            continue;
        }
        const auto begin = scene_.linkPointBegin[static_cast<std::size_t>(index)];
        const auto end = scene_.linkPointBegin[static_cast<std::size_t>(index) + 1];
        const double along = flight.progress * (end - begin - 1);
        const auto k = std::min<std::int32_t>(begin + static_cast<std::int32_t>(along), end - 2);
        const double f = along - (k - begin);
        const Vec3& a = scene_.linkPoints[static_cast<std::size_t>(k)];
        const Vec3& b = scene_.linkPoints[static_cast<std::size_t>(k) + 1];
        out.markers.push_back(
            {a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f, a.z + (b.z - a.z) * f});
    }
    out.caption = replay_.caption(t);
}

} // namespace podscope::ui
