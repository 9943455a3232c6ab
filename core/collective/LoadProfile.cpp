#include "collective/LoadProfile.hpp"

#include "collective/Schedule.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <memory>
#include <unordered_map>

namespace podscope {
namespace {

std::string cacheKey(const Topology& topology, const CollectiveSpec& spec) {
    const TopologySpec& t = topology.spec();
    std::string key;
    for (std::size_t d = 0; d < t.dims.size(); ++d) {
        key += std::to_string(t.dims[d]) + (t.wrap[d] ? "w" : "m") + std::to_string(t.podDims[d]) + ",";
    }
    // The bandwidths' bits, not their decimal text: as exact, and formatting doubles took about
    // 7 % of a one-configuration simulation.
    key += std::to_string(std::bit_cast<std::uint64_t>(t.linkBandwidthBps)) + "/" +
           std::to_string(std::bit_cast<std::uint64_t>(t.crossPodBandwidthBps)) + "|";
    key += toString(spec.op) + "|" + toString(spec.algorithm) + "|" + toString(spec.groups) + "|";
    for (int d : spec.dimOrder) {
        key += std::to_string(d);
    }
    return key;
}

} // namespace

LoadProfile buildLoadProfile(const Topology& topology, const CollectiveSpec& spec) {
    const Schedule schedule = buildSchedule(topology, spec, ScheduleScope::ThroughChipZero);
    LoadProfile profile;
    std::unordered_map<LinkId, std::size_t> index;
    std::unordered_map<LinkId, int> slots;
    for (int p = 0; p < schedule.phaseCount(); ++p) {
        const auto at = static_cast<std::size_t>(p);
        PhaseProfile phase;
        phase.name = schedule.phaseNames[at];
        for (const Stream& stream : schedule.streams) {
            const Phase& run = stream.phases[at];
            auto part = std::find_if(phase.parts.begin(), phase.parts.end(),
                                     [&](const PhasePart& known) { return known.dim == run.dim; });
            if (part == phase.parts.end()) {
                PhasePart fresh;
                fresh.dim = run.dim;
                fresh.ringSize = run.rings.ringSize;
                part = phase.parts.insert(phase.parts.end(), std::move(fresh));
            }
            part->segmentPerPayloadByte =
                std::max(part->segmentPerPayloadByte, run.bytesPerMember / spec.bytesPerChip);
        }
        for (std::size_t q = 0; q < profile.phases.size(); ++q) {
            PhaseProfile& earlier = profile.phases[q];
            const bool sameParts =
                std::equal(earlier.parts.begin(), earlier.parts.end(), phase.parts.begin(),
                           phase.parts.end(), [](const PhasePart& a, const PhasePart& b) {
                               return a.dim == b.dim && a.ringSize == b.ringSize &&
                                      a.segmentPerPayloadByte == b.segmentPerPayloadByte;
                           });
            if (earlier.mirrorOf < 0 && sameParts) {
                phase.mirrorOf = static_cast<int>(q);
                ++earlier.passes;
            }
        }
        if (phase.mirrorOf < 0) {
            for (PhasePart& part : phase.parts) {
                index.clear();
                for (const Stream& stream : schedule.streams) {
                    const Phase& run = stream.phases[at];
                    if (run.dim != part.dim) {
                        continue;
                    }
                    const double share =
                        run.bytesPerMember / spec.bytesPerChip / part.segmentPerPayloadByte;
                    const RingSet& rings = run.rings;
                    for (int r = 0; r < rings.ringCount(); ++r) {
                        for (int i = 0; i < rings.ringSize; ++i) {
                            const auto hop = rings.hop(r, i);
                            HopClass hopClass{static_cast<double>(hop.size()),
                                              topology.spec().linkBandwidthBps, share};
                            for (LinkId link : hop) {
                                const double bandwidth = topology.linkBandwidth(link);
                                hopClass.bandwidthBps = std::min(hopClass.bandwidthBps, bandwidth);
                                const auto [found, fresh] =
                                    index.try_emplace(link, part.links.size());
                                if (fresh) {
                                    const auto slot =
                                        slots.try_emplace(link, static_cast<int>(slots.size()))
                                            .first->second;
                                    part.links.push_back({link, 0, bandwidth, slot});
                                }
                                part.links[found->second].load += share;
                            }
                            if (std::none_of(part.hops.begin(), part.hops.end(),
                                             [&](const HopClass& h) {
                                                 return h.links == hopClass.links &&
                                                        h.bandwidthBps == hopClass.bandwidthBps &&
                                                        h.bytesShare == hopClass.bytesShare;
                                             })) {
                                part.hops.push_back(hopClass);
                            }
                        }
                    }
                }
            }
        }
        profile.phases.push_back(std::move(phase));
    }
    profile.distinctLinks = static_cast<int>(slots.size());
    return profile;
}

const LoadProfile& cachedLoadProfile(const Topology& topology, const CollectiveSpec& spec) {
    constexpr std::size_t kEntries = 16;
    struct Entry {
        std::string key;
        std::unique_ptr<LoadProfile> profile;
    };
    thread_local std::vector<Entry> cache; // most recently used first
    std::string key = cacheKey(topology, spec);
    const auto hit = std::find_if(cache.begin(), cache.end(), [&](const Entry& e) { return e.key == key; });
    if (hit != cache.end()) {
        std::rotate(cache.begin(), hit, hit + 1);
        return *cache.front().profile;
    }
    auto profile = std::make_unique<LoadProfile>(buildLoadProfile(topology, spec));
    if (cache.size() == kEntries) {
        cache.pop_back();
    }
    cache.insert(cache.begin(), Entry{std::move(key), std::move(profile)});
    return *cache.front().profile;
}

} // namespace podscope
