#pragma once

#include <cstdint>

namespace podscope::limits {

// Upper bounds on what a scenario may ask for. They exist so that a typo such as
// "1000000x1000000" is refused at once instead of allocating gigabytes.
inline constexpr int kMaxRank = 4;
inline constexpr int kMaxDimSize = 4096;
inline constexpr std::int64_t kMaxChips = 65536;
inline constexpr double kMaxPayloadBytes = 1099511627776.0; // 1 TiB per chip
inline constexpr int kMaxChunks = 1024;
inline constexpr double kMaxLinkBandwidthGBps = 1e6;
inline constexpr double kMaxLatencyUs = 1e6;
// Ring steps times chunks that the event engine agrees to simulate in one call.
inline constexpr std::int64_t kMaxEventEngineEvents = 50'000'000;

} // namespace podscope::limits
