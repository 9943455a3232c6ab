#include "view/StepColoring.hpp"

#include "color/ActivityColors.hpp"
#include "view/GroupColoring.hpp"

#include <algorithm>
#include <array>
#include <cstdio>

namespace podscope::ui {
namespace {

// A link without traffic: darker than every chip colour, so busy links stand out.
constexpr Rgb kQuietLink{58, 62, 72};

std::string milliseconds(double seconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f ms", seconds * 1e3);
    return text;
}

} // namespace

StepColoring::StepColoring(const StepRun& run, const SceneGeometry& scene)
    : run_(run)
    , scene_(scene) {}

void StepColoring::compute(double t, ChipId reference, StepLinkColors links, double windowS,
                           FrameColors& out, ColorMode chipColors) {
    const StepTimeline& timeline = run_.timeline;
    const Topology& topology = run_.topology();
    const auto chips = static_cast<std::size_t>(topology.chipCount());
    activity_.resize(chips);
    out.chips.resize(chips);
    std::array<int, kChipActivityCount> count{};
    for (std::size_t c = 0; c < chips; ++c) {
        const podscope::ChipActivity a = timeline.activityAt(static_cast<ChipId>(c), t);
        activity_[c] = a;
        out.chips[c] = activityColor(a);
        ++count[static_cast<std::size_t>(a)];
    }
    out.chipLegend = activityLegend();
    if (chipColors != ColorMode::ChipState) {
        const ParallelismPlan& plan = run_.plan.parallelism;
        ChipGrouping grouping;
        if (!plan.replicaTile.empty()) {
            grouping.replicaTile = plan.replicaTile;
        }
        grouping.replicasPerChip = std::max(plan.replicasPerChip, 1);
        colorChipsByGroup(topology, grouping, chipColors, out.chips, out.chipLegend);
    }

    out.links.resize(scene_.links.size());
    out.linkLegend = Legend{};
    if (links == StepLinkColors::Utilisation) {
        run_.linkUse->utilisation(t, windowS, utilisation_);
        for (std::size_t i = 0; i < scene_.links.size(); ++i) {
            out.links[i] =
                utilizationColor(utilisation_[static_cast<std::size_t>(scene_.links[i])]);
        }
        out.linkLegend.title = "Link utilisation";
        out.linkLegend.maximum = 100;
        out.linkLegend.unit = "%";
    } else {
        run_.linkUse->kind(t, linkKind_);
        for (std::size_t i = 0; i < scene_.links.size(); ++i) {
            const podscope::ChipActivity kind =
                linkKind_[static_cast<std::size_t>(scene_.links[i])];
            out.links[i] = carriesTraffic(kind) ? activityColor(kind) : kQuietLink;
        }
        out.linkLegend.title = "Link traffic";
        out.linkLegend.continuous = false;
        for (const podscope::ChipActivity a :
             {podscope::ChipActivity::GradientSync, podscope::ChipActivity::ModelParallel,
              podscope::ChipActivity::BatchNormSync}) {
            out.linkLegend.categories.emplace_back(podscope::toString(a), activityColor(a));
        }
        out.linkLegend.categories.emplace_back("no traffic", kQuietLink);
    }
    out.markers.clear();

    // The DCN stage (the timeline's items of group "dcn", which use no ICI link): its links are
    // in use while the reference chip runs it, in the step's gradient-sync colour.
    out.dcnLink = kQuietLink;
    const ChipId dcnChip = reference >= 0 && reference < topology.chipCount() ? reference : 0;
    // One slice has no DCN links: the items are not searched every frame.
    for (std::size_t i = 0; !scene_.dcnLinks.empty() && i < timeline.items.size(); ++i) {
        const TimelineItem& entry = timeline.items[i];
        const ChipSpan& span = entry.spanOf(dcnChip);
        if (entry.group == "dcn" && t >= span.startS && t < span.endS) {
            out.dcnLink = activityColor(podscope::ChipActivity::GradientSync);
        }
    }

    // The caption: what the reference chip does, and how many chips do the commonest thing.
    if (reference < 0 || reference >= topology.chipCount()) {
        reference = 0;
    }
    const int item = timeline.itemAt(reference, t);
    std::size_t commonest = 0;
    for (std::size_t a = 1; a < count.size(); ++a) {
        if (count[a] > count[commonest]) {
            commonest = a;
        }
    }
    out.caption = "Step " + milliseconds(t) + " of " + milliseconds(timeline.stepS) + ": chip " +
                  std::to_string(reference) + " " +
                  (item >= 0 ? "at " + timeline.items[static_cast<std::size_t>(item)].name
                             : std::string("idle")) +
                  "; " + std::to_string(count[commonest]) + " of " + std::to_string(chips) +
                  " chips " + podscope::toString(static_cast<podscope::ChipActivity>(commonest));
}

} // namespace podscope::ui
