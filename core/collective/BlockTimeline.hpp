#pragma once

#include "collective/CollectiveSpec.hpp"
#include "collective/FunctionalRunner.hpp"
#include "topology/Topology.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace podscope {

// One block of a chip's buffer: the finest shard the schedule cuts the payload into, within
// one stream (bidirectional algorithms have two, each half the data; 2d-dual up to four) and
// one chunk.
struct BlockState {
    int stream = 0;
    int chunk = 0;
    int shard = 0; // 0 .. group size - 1 within its stream and chunk
    // Bit m set: group member m's data is summed into this block on this chip. 0: the block
    // holds nothing yet (all-gather before the block arrives).
    std::uint64_t contributors = 0;
    bool changed = false; // contributors differ from the previous frame: the block just arrived
};

// The data of every chip in the group at one moment of the collective.
struct BlockFrame {
    std::string label;    // "reduce-scatter along X, step 3/7 (clockwise ring)"
    int phase = -1;       // -1: the initial data, before any step
    int step = -1;        // 0-based within the phase
    int stepsInPhase = 0; // ring size - 1
    // Bytes one chip sends on one ring in this step (per stream): a bidirectional ring sends
    // half as much per ring as a unidirectional one, on twice the links.
    double bytesPerRingStep = 0;
    std::vector<std::vector<BlockState>>
        chips; // per group member (row), its blocks in buffer order
};

// The collective replayed block by block, for teaching: frame 0 is the initial data, then one
// frame per ring step. Streams and chunks take their steps together (they hold disjoint data).
struct BlockTimeline {
    std::vector<ChipId> chips; // topology id of each group member (row), the group of chip 0
    int streams = 1;
    // The dimension orders that run at once, such as {"YX", "XY"} for 2d-dual, each over an
    // equal run of consecutive streams; empty where there is one order.
    std::vector<std::string> orders;
    int chunks = 1;
    int shards = 1;        // blocks per stream and chunk: the group size
    double blockBytes = 0; // bytes of payload one block stands for (on average where the
                           // streams' shares differ, as 2d-dual's may)
    std::vector<BlockFrame> frames;
    FunctionalCheck check; // the functional check of the very run the frames were taken from
};

// Groups of at most this many chips: a block's contributors are the bits of one word.
inline constexpr int kMaxBlockTimelineChips = 64;

// Runs the collective's schedule through the functional check's stepping code with data that
// records whose contribution each element holds (member m starts with 2^m everywhere, so a sum
// is the set of its contributors) and samples every chip of chip 0's group after each step.
// Throws InputError naming "chips" when that group has more than kMaxBlockTimelineChips.
BlockTimeline blockTimeline(const Topology& topology, const CollectiveSpec& spec);

} // namespace podscope
