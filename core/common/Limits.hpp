#pragma once

#include <cstddef>
#include <cstdint>

namespace podscope::limits {

// Upper bounds on what a scenario may ask for. They exist so that a typo such as
// "1000000x1000000" is refused at once instead of allocating gigabytes.
inline constexpr int kMaxRank = 4;
inline constexpr int kMaxDimSize = 4096;
inline constexpr std::int64_t kMaxChips = 65536;
inline constexpr int kMaxSlices = 1024; // multislice: slices joined over the DCN
inline constexpr double kMaxPayloadBytes = 1099511627776.0; // 1 TiB per chip
inline constexpr int kMaxChunks = 1024;
inline constexpr double kMaxLinkBandwidthGBps = 1e6;
inline constexpr double kMaxLatencyUs = 1e6;
// Ring steps times chunks that the event engine agrees to simulate in one call. About a
// microsecond and a hundred bytes each: 2 million keep a call near two seconds and 200 MB
// (50 million took half a minute and a gigabyte; issue 7).
inline constexpr std::int64_t kMaxEventEngineEvents = 2'000'000;

// Configuration files (issue 7): a real one is a few hundred bytes and two levels deep, so these
// refuse garbage before it is parsed, without a large allocation or a deep recursion.
inline constexpr std::size_t kMaxConfigFileBytes = 1 << 20; // 1 MiB
inline constexpr int kMaxJsonDepth = 16;
inline constexpr std::int64_t kMaxGlobalBatch = std::int64_t{1} << 40;
inline constexpr double kMaxHostCpuCores = 4096;
// Points (chip counts times global batches) in one sweep: a sweep must answer in seconds.
inline constexpr std::size_t kMaxSweepPoints = 1000;

} // namespace podscope::limits
