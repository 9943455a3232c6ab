#pragma once

#include "profile/OpTable.hpp"
#include "profile/ProfileCategory.hpp"

#include <array>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace podscope {

// One part of a step: time, kernels, FLOPs and HBM bytes per step on one core.
struct ProfilePart {
    double seconds = 0;
    double kernels = 0;
    double flops = 0;
    double hbmBytes = 0;

    ProfilePart& operator+=(const ProfilePart& o) {
        seconds += o.seconds;
        kernels += o.kernels;
        flops += o.flops;
        hbmBytes += o.hbmBytes;
        return *this;
    }
};

// How an op table is read into steps.
struct ProfileReading {
    int cores = 0;                    // 0: from the replica groups of the table's collectives
    double steps = 0;                 // steps in the capture window; 0: anchored on the collectives
    std::vector<std::string> exclude; // ops whose TF op or HLO text contains one are left out
};

// The training step of one core as a profile measured it: every op's self time over the
// window divided by cores x steps, so that ops inside loops count as often as they ran.
struct ProfileSummary {
    int cores = 0;
    double stepsInWindow = 0;
    std::size_t opsRead = 0;
    std::size_t opsExcluded = 0;
    std::vector<std::string> exclude;
    std::array<ProfilePart, kProfileCategoryCount> categories{};
    // Time by the profiler's roofline class, collectives and infeed left out.
    double computeBoundS = 0;
    double hbmBoundS = 0;
    double unknownBoundS = 0;

    ProfilePart total() const;
    const ProfilePart& part(ProfileCategory c) const {
        return categories[static_cast<std::size_t>(c)];
    }
};

// Throws InputError naming the option (--cores, --steps) when the table cannot say it and it
// was not given, or when nothing is left after the exclusions.
ProfileSummary summarizeProfile(const std::vector<ProfileOp>& ops, const ProfileReading& reading);

// The "measured" object of a summary file, and back. fromJson throws InputError naming `origin`
// and the key; the parts must add up to the file's "step_s" (within 1e-6 relative).
nlohmann::json toJson(const ProfileSummary& summary);
ProfileSummary profileSummaryFromJson(const nlohmann::json& measured, const std::string& origin);

} // namespace podscope
