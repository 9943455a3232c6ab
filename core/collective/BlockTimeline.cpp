#include "collective/BlockTimeline.hpp"

#include "collective/Schedule.hpp"
#include "common/InputError.hpp"

#include <algorithm>

namespace podscope {
namespace {

std::string ringsText(const Schedule& schedule, std::size_t phase) {
    if (schedule.streams.size() < 2) {
        return "clockwise ring";
    }
    if (schedule.spec.algorithm == Algorithm::TwoDDual) {
        const int dim = schedule.streams[0].phases[phase].dim;
        const bool oneDimension =
            std::all_of(schedule.streams.begin(), schedule.streams.end(),
                        [&](const Stream& s) { return s.phases[phase].dim == dim; });
        return oneDimension ? "both halves on one dimension" : "each half on its own dimension";
    }
    return schedule.streams[1].phases[phase].reversed ? "two rings, half the data each"
                                                      : "one ring carries both halves";
}

std::string initialText(const CollectiveSpec& spec, int shards, int streams) {
    if (spec.op == CollectiveOp::AllGather) {
        return "start: every chip holds only the blocks it owns";
    }
    const std::string size = streams == 2 ? " half-size" : streams == 4 ? " quarter-size" : "";
    const std::string blocks =
        streams > 1 ? std::to_string(streams) + " x " + std::to_string(shards) + size + " blocks"
                    : std::to_string(shards) + " blocks";
    return "start: every chip holds only its own data, cut into " + blocks;
}

// What the step just finished leaves, where it is a milestone worth saying.
std::string milestoneText(const Schedule& schedule, std::size_t phase, bool lastStep) {
    const auto& phases = schedule.streams[0].phases;
    if (!lastStep) {
        return {};
    }
    const bool lastPhase = phase + 1 == phases.size();
    const bool endOfReduceScatter = phases[phase].kind == PhaseKind::ReduceScatter &&
                                    (lastPhase || phases[phase + 1].kind == PhaseKind::AllGather);
    const std::string group = std::to_string(schedule.groupSize);
    if (endOfReduceScatter) {
        return ": each chip owns 1/" + group + " of the sum";
    }
    if (lastPhase) {
        return schedule.spec.op == CollectiveOp::AllReduce ? ": every chip holds the full sum"
                                                           : ": every chip holds every chip's data";
    }
    return {};
}

// "YX" and "XY" where the streams run two dimension orders (2d-dual).
std::vector<std::string> orderNames(const Schedule& schedule) {
    if (schedule.spec.algorithm != Algorithm::TwoDDual || schedule.dimOrder.size() < 2) {
        return {};
    }
    static const std::string letters = "XYZW";
    std::string order;
    for (int d : schedule.dimOrder) {
        order += letters[static_cast<std::size_t>(d)];
    }
    return {order, std::string(order.rbegin(), order.rend())};
}

} // namespace

BlockTimeline blockTimeline(const Topology& topology, const CollectiveSpec& spec) {
    const Schedule schedule = buildSchedule(topology, spec, ScheduleScope::Full);
    if (schedule.groupSize > kMaxBlockTimelineChips) {
        throw InputError("chips", "the block view shows groups of at most " +
                                      std::to_string(kMaxBlockTimelineChips) +
                                      " chips, this group has " +
                                      std::to_string(schedule.groupSize));
    }
    BlockTimeline timeline;
    timeline.streams = std::max<int>(1, static_cast<int>(schedule.streams.size()));
    timeline.orders = orderNames(schedule);
    timeline.chunks = spec.chunks;
    timeline.shards = schedule.groupSize;
    const int blocksPerChip = timeline.streams * timeline.chunks * timeline.shards;
    timeline.blockBytes = spec.bytesPerChip / blocksPerChip;

    // Member m of every group starts with 2^m, so that a sum names its contributors.
    const auto chipCount = static_cast<ChipId>(topology.chipCount());
    const int shownGroup = groupOf(topology, spec.groups, 0);
    std::vector<int> memberIndex(static_cast<std::size_t>(chipCount));
    std::vector<int> membersSoFar(static_cast<std::size_t>(schedule.groupCount), 0);
    for (ChipId chip = 0; chip < chipCount; ++chip) {
        const int g = groupOf(topology, spec.groups, chip);
        memberIndex[static_cast<std::size_t>(chip)] = membersSoFar[static_cast<std::size_t>(g)]++;
        if (g == shownGroup) {
            timeline.chips.push_back(chip);
        }
    }

    // Frame 0, then one frame per step of every phase (streams' phases line up one to one;
    // a phase has as many frames as its longest ring has steps).
    BlockFrame initial;
    initial.label = initialText(spec, timeline.shards, timeline.streams);
    initial.chips.assign(timeline.chips.size(),
                         std::vector<BlockState>(static_cast<std::size_t>(blocksPerChip)));
    for (auto& row : initial.chips) {
        for (int b = 0; b < blocksPerChip; ++b) {
            auto& block = row[static_cast<std::size_t>(b)];
            block.stream = b / (timeline.chunks * timeline.shards);
            block.chunk = (b / timeline.shards) % timeline.chunks;
            block.shard = b % timeline.shards;
        }
    }
    timeline.frames.push_back(initial);
    std::vector<int> firstFrameOfPhase;
    const std::size_t phaseCount = schedule.streams.empty() ? 0 : schedule.streams[0].phases.size();
    for (std::size_t p = 0; p < phaseCount; ++p) {
        firstFrameOfPhase.push_back(static_cast<int>(timeline.frames.size()));
        const Phase& phase = schedule.streams[0].phases[p];
        int steps = 0;
        for (const Stream& stream : schedule.streams) {
            steps = std::max(steps, stream.phases[p].rings.ringSize - 1);
        }
        for (int step = 0; step < steps; ++step) {
            BlockFrame frame = initial;
            frame.phase = static_cast<int>(p);
            frame.step = step;
            frame.stepsInPhase = steps;
            frame.bytesPerRingStep = phase.bytesPerMember / phase.rings.ringSize;
            frame.label = schedule.phaseNames[p] + ", step " + std::to_string(step + 1) + "/" +
                          std::to_string(steps) + " (" + ringsText(schedule, p) + ")" +
                          milestoneText(schedule, p, step + 1 == steps);
            timeline.frames.push_back(std::move(frame));
        }
    }

    FunctionalRun run;
    run.elementsPerChip = blocksPerChip; // one element per block: shards divide it exactly
    run.initialValue = [&](ChipId chip, std::int64_t) {
        return std::uint64_t{1} << memberIndex[static_cast<std::size_t>(chip)];
    };
    run.unsetValue = 0;
    // Which elements each frame was shown: a stream whose ring is shorter than the phase's
    // longest takes no step in the phase's last frames and keeps what it held.
    std::vector<std::vector<bool>> observed(
        timeline.frames.size(), std::vector<bool>(static_cast<std::size_t>(blocksPerChip), false));
    run.observe = [&](const RingStep& at, const ChipBuffers& data) {
        const bool initialData = at.phase < 0;
        const auto f =
            initialData ? 0 : firstFrameOfPhase[static_cast<std::size_t>(at.phase)] + at.step;
        auto& frame = timeline.frames[static_cast<std::size_t>(f)];
        std::fill(observed[static_cast<std::size_t>(f)].begin() + at.sliceBegin,
                  observed[static_cast<std::size_t>(f)].begin() + at.sliceEnd, true);
        for (std::size_t m = 0; m < timeline.chips.size(); ++m) {
            const auto& held = data[static_cast<std::size_t>(timeline.chips[m])];
            for (auto e = at.sliceBegin; e < at.sliceEnd; ++e) {
                frame.chips[m][static_cast<std::size_t>(e)].contributors =
                    held[static_cast<std::size_t>(e)];
            }
        }
    };
    timeline.check = runFunctional(topology, schedule, run);

    for (std::size_t f = 1; f < timeline.frames.size(); ++f) {
        const auto& before = timeline.frames[f - 1].chips;
        for (std::size_t m = 0; m < before.size(); ++m) {
            auto& row = timeline.frames[f].chips[m];
            for (std::size_t b = 0; b < row.size(); ++b) {
                if (!observed[f][b]) {
                    row[b].contributors = before[m][b].contributors;
                }
                row[b].changed = row[b].contributors != before[m][b].contributors;
            }
        }
    }
    return timeline;
}

} // namespace podscope
