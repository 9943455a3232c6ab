#pragma once

#include "timeline/StepTimeline.hpp"

#include <string>
#include <vector>

namespace podscope::ui {

// One chip's step as the rows of the timeline panel: a track per kind of work (input, compute,
// model-parallel, batch-norm, gradient sync, the gradient sum across slices over the DCN,
// optimizer, evaluation), each a list of spans.
// Overlapping spans of a track (gradient buckets in flight together) go to separate lanes.
struct TrackSpan {
    int item = -1; // index into StepTimeline::items
    podscope::ChipActivity activity = podscope::ChipActivity::Idle;
    double readyS = 0, startS = 0, endS = 0; // the chip waits from readyS to startS
    int lane = 0;
};

struct Track {
    std::string label;
    std::vector<podscope::ChipActivity> activities; // what belongs on this track
    std::vector<TrackSpan> spans;                   // by start time
    int lanes = 1;
    // Only the items of this group (TimelineItem::group: "dcn"), which no track without a group
    // holds; empty: every item of the activities not claimed so.
    std::string group;
};

// Every track, in panel order, with the spans `chip` has (empty tracks included).
std::vector<Track> buildChipTracks(const StepTimeline& timeline, ChipId chip);

// The span of `track` under time t (in the lane nearest `lane` when several are), or nullptr.
const TrackSpan* spanAt(const Track& track, double t, int lane);

} // namespace podscope::ui
