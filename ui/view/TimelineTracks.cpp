#include "view/TimelineTracks.hpp"

#include <algorithm>
#include <cstdlib>

namespace podscope::ui {

std::vector<Track> buildChipTracks(const StepTimeline& timeline, ChipId chip) {
    std::vector<Track> tracks = {
        {"Input", {podscope::ChipActivity::WaitingForInput}, {}, 1, {}},
        {"Compute", {podscope::ChipActivity::Forward, podscope::ChipActivity::Backward}, {}, 1, {}},
        {"Model-parallel", {podscope::ChipActivity::ModelParallel}, {}, 1, {}},
        {"Batch-norm sums", {podscope::ChipActivity::BatchNormSync}, {}, 1, {}},
        {"Gradient sync", {podscope::ChipActivity::GradientSync}, {}, 1, {}},
        // Multislice: the DCN all-reduce across slices, on its own row under the ICI's.
        {"Across slices (DCN)", {podscope::ChipActivity::GradientSync}, {}, 1, "dcn"},
        {"Optimizer", {podscope::ChipActivity::Optimizer}, {}, 1, {}},
        {"Evaluation", {podscope::ChipActivity::Evaluating}, {}, 1, {}},
    };
    for (std::size_t i = 0; i < timeline.items.size(); ++i) {
        const TimelineItem& item = timeline.items[i];
        const ChipSpan& span = item.spanOf(chip);
        const bool grouped = std::any_of(tracks.begin(), tracks.end(), [&](const Track& track) {
            return !track.group.empty() && track.group == item.group;
        });
        for (Track& track : tracks) {
            if (std::find(track.activities.begin(), track.activities.end(), item.activity) !=
                    track.activities.end() &&
                (grouped ? track.group == item.group : track.group.empty())) {
                track.spans.push_back(
                    {static_cast<int>(i), item.activity, span.readyS, span.startS, span.endS, 0});
            }
        }
    }
    for (Track& track : tracks) {
        std::stable_sort(
            track.spans.begin(), track.spans.end(),
            [](const TrackSpan& a, const TrackSpan& b) { return a.readyS < b.readyS; });
        // Greedy lanes: each span takes the first lane free by its ready time.
        std::vector<double> laneEnd;
        for (TrackSpan& span : track.spans) {
            std::size_t lane = 0;
            while (lane < laneEnd.size() && laneEnd[lane] > span.readyS) {
                ++lane;
            }
            if (lane == laneEnd.size()) {
                laneEnd.push_back(0);
            }
            laneEnd[lane] = span.endS;
            span.lane = static_cast<int>(lane);
        }
        track.lanes = std::max<int>(1, static_cast<int>(laneEnd.size()));
    }
    return tracks;
}

const TrackSpan* spanAt(const Track& track, double t, int lane) {
    const TrackSpan* best = nullptr;
    for (const TrackSpan& span : track.spans) {
        if (t >= span.readyS && t < span.endS &&
            (!best || std::abs(span.lane - lane) < std::abs(best->lane - lane))) {
            best = &span;
        }
    }
    return best;
}

} // namespace podscope::ui
