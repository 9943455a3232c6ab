#include "collective/LoadProfile.hpp"

#include "collective/Schedule.hpp"

#include <algorithm>
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
    key += std::to_string(t.linkBandwidthBps) + "/" + std::to_string(t.crossPodBandwidthBps) + "|";
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
    for (int p = 0; p < schedule.phaseCount(); ++p) {
        const Phase& first = schedule.streams[0].phases[static_cast<std::size_t>(p)];
        PhaseProfile phase;
        phase.name = schedule.phaseNames[static_cast<std::size_t>(p)];
        phase.dim = first.dim;
        phase.ringSize = first.rings.ringSize;
        phase.segmentPerPayloadByte = first.bytesPerMember / spec.bytesPerChip;
        for (std::size_t q = 0; q < profile.phases.size(); ++q) {
            PhaseProfile& earlier = profile.phases[q];
            if (earlier.mirrorOf < 0 && earlier.dim == phase.dim && earlier.ringSize == phase.ringSize &&
                earlier.segmentPerPayloadByte == phase.segmentPerPayloadByte) {
                phase.mirrorOf = static_cast<int>(q);
                ++earlier.passes;
            }
        }
        if (phase.mirrorOf < 0) {
            index.clear();
            for (const Stream& stream : schedule.streams) {
                const RingSet& rings = stream.phases[static_cast<std::size_t>(p)].rings;
                for (int r = 0; r < rings.ringCount(); ++r) {
                    for (int i = 0; i < rings.ringSize; ++i) {
                        const auto hop = rings.hop(r, i);
                        HopClass hopClass{static_cast<double>(hop.size()), topology.spec().linkBandwidthBps};
                        for (LinkId link : hop) {
                            const double bandwidth = topology.linkBandwidth(link);
                            hopClass.bandwidthBps = std::min(hopClass.bandwidthBps, bandwidth);
                            const auto [at, fresh] = index.try_emplace(link, phase.links.size());
                            if (fresh) {
                                phase.links.push_back({link, 0, bandwidth});
                            }
                            phase.links[at->second].load += 1;
                        }
                        if (std::none_of(phase.hops.begin(), phase.hops.end(), [&](const HopClass& h) {
                                return h.links == hopClass.links && h.bandwidthBps == hopClass.bandwidthBps;
                            })) {
                            phase.hops.push_back(hopClass);
                        }
                    }
                }
            }
        }
        profile.phases.push_back(std::move(phase));
    }
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
