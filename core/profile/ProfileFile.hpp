#pragma once

#include "profile/ProfileComparison.hpp"
#include "profile/ProfileSummary.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace podscope {

// A derived profile summary as resources/profiles/<name>.json ships it: where the op table
// came from ("source": repository, path, commit, licence), the configurations it was taken at,
// and the measured step (toJson(ProfileSummary)).
struct ProfileFile {
    std::string name;
    std::string description;
    nlohmann::json source;
    std::vector<ProfiledConfiguration> configurations;
    ProfileSummary measured;
};

// Throws InputError naming `origin` and the key.
ProfileFile parseProfileFile(const std::string& text, const std::string& origin);

// A bundled summary (resources/profiles/NAME.json) by name; the names there, sorted.
ProfileFile bundledProfile(const std::string& name);
std::vector<std::string> bundledProfileNames();

} // namespace podscope
