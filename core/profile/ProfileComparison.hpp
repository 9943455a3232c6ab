#pragma once

#include "profile/ProfileSummary.hpp"
#include "training/Scenario.hpp"

#include <array>
#include <string>
#include <vector>

namespace podscope {

// A configuration a profile was taken at, with its share of the profiled steps (a model whose
// steps come in several shapes, such as sequence-length buckets, has one per shape).
struct ProfiledConfiguration {
    double weight = 1;
    Scenario scenario;
};

// PodScope's training step at the profiled configurations in the profile's categories, the
// shares weighted: layers by their type (matmul-type layers carry their fused normalisation and
// activation, as XLA's convolution fusions do), the optimizer as elementwise work, the exposed
// collectives, the input stall as infeed and the framework's per-step overhead as other.
struct PodScopeProfile {
    std::array<ProfilePart, kProfileCategoryCount> categories{};
    // Kernels (and the optimizer's) by the roofline, as the profiler classes ops: at or above
    // the ridge's operational intensity compute-bound, below it memory-bound.
    double computeBoundS = 0;
    double memoryBoundS = 0;
    // Sort layers, outside the roofline classes as the profile's sorts are (filed as other).
    double unclassedS = 0;
    // The same kernels by the unit that bound them in PodScope's model: the MXU, or the others
    // (HBM, vector, transcendental units, kernel overhead).
    double mxuUnitS = 0;
    double otherUnitS = 0;
    double rooflineRidgeFlopPerByte = 0; // the ridge the roofline class used (the machine's)
    double trainStepS = 0; // simulate's step without evaluation, weighted the same way
    // Configurations refused as they stand (HBM), each with the refusal; they are costed
    // without the memory check so that the comparison still has their numbers.
    std::vector<std::string> refusals;

    ProfilePart total() const;
    const ProfilePart& part(ProfileCategory c) const {
        return categories[static_cast<std::size_t>(c)];
    }
};

// Throws InputError for an empty list, a weight that is not above 0, or a configuration
// PodScope cannot cost at all.
PodScopeProfile podscopeProfile(const std::vector<ProfiledConfiguration>& configurations);

} // namespace podscope
