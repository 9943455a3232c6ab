#include "profile/ProfileSummary.hpp"

#include "common/InputError.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>

namespace podscope {

namespace {

constexpr double kGiB = 1073741824.0;

bool excluded(const ProfileOp& op, const std::vector<std::string>& exclude) {
    return std::any_of(exclude.begin(), exclude.end(), [&](const std::string& text) {
        return op.tfOp.find(text) != std::string::npos || op.hloOp.find(text) != std::string::npos;
    });
}

// Cores in the first replica group of an op ("replica_groups={{0,1,...,63}}"), or 0.
int replicaGroupSize(const std::string& hlo) {
    const std::size_t at = hlo.find("replica_groups={{");
    if (at == std::string::npos) {
        return 0;
    }
    const std::size_t start = at + 17;
    const std::size_t end = hlo.find('}', start);
    if (end == std::string::npos || end == start) {
        return 0;
    }
    const auto commas = std::count(hlo.begin() + static_cast<std::ptrdiff_t>(start),
                                   hlo.begin() + static_cast<std::ptrdiff_t>(end), ',');
    return static_cast<int>(std::min<std::ptrdiff_t>(commas + 1, 1 << 20));
}

} // namespace

ProfilePart ProfileSummary::total() const {
    ProfilePart sum;
    for (const ProfilePart& p : categories) {
        sum += p;
    }
    return sum;
}

ProfileSummary summarizeProfile(const std::vector<ProfileOp>& ops, const ProfileReading& reading) {
    ProfileSummary s;
    s.exclude = reading.exclude;
    s.opsRead = ops.size();
    std::vector<const ProfileOp*> kept;
    std::vector<ProfileCategory> category;
    for (const ProfileOp& op : ops) {
        if (excluded(op, reading.exclude)) {
            ++s.opsExcluded;
            continue;
        }
        kept.push_back(&op);
        category.push_back(classifyProfileOp(op.category, op.hloOp));
    }
    if (kept.empty()) {
        throw InputError("--exclude",
                         "leaves no op of the " + std::to_string(ops.size()) + " in the table");
    }
    s.cores = reading.cores;
    if (s.cores == 0) {
        for (const ProfileOp* op : kept) {
            s.cores = std::max(s.cores, replicaGroupSize(op->hloOp));
        }
        if (s.cores == 0) {
            throw InputError("--cores", "the table has no collective with replica_groups; give "
                                        "the number of cores the profile covers");
        }
    }
    if (s.cores < 1 || s.cores > (1 << 20)) {
        throw InputError("--cores", "must be between 1 and 1048576");
    }
    s.stepsInWindow = reading.steps;
    if (s.stepsInWindow == 0) {
        // Anchor: the collective that runs most often per core is the once-per-step gradient
        // sum; the ops run within one execution of it are once per step, and their time-weighted
        // count gives the steps (a window that cuts a step leaves some ops one run short).
        double anchor = 0;
        for (std::size_t i = 0; i < kept.size(); ++i) {
            if (category[i] == ProfileCategory::Collective) {
                anchor = std::max(anchor, kept[i]->occurrences / s.cores);
            }
        }
        if (anchor <= 0) {
            throw InputError("--steps", "the table has no collective to count steps by; give "
                                        "the steps in the capture window");
        }
        double time = 0, perRun = 0;
        for (const ProfileOp* op : kept) {
            const double runs = op->occurrences / s.cores;
            if (runs > 0 && std::abs(runs - anchor) <= 1 && op->totalSelfUs > 0) {
                time += op->totalSelfUs;
                perRun += op->totalSelfUs / runs;
            }
        }
        s.stepsInWindow = perRun > 0 ? time / perRun : anchor;
    }
    if (!(s.stepsInWindow > 0) || !std::isfinite(s.stepsInWindow)) {
        throw InputError("--steps", "must be a number above 0");
    }
    const double perStep = 1.0 / (s.cores * s.stepsInWindow);
    for (std::size_t i = 0; i < kept.size(); ++i) {
        const ProfileOp& op = *kept[i];
        const double seconds = op.totalSelfUs * 1e-6 * perStep;
        ProfilePart& part = s.categories[static_cast<std::size_t>(category[i])];
        part.seconds += seconds;
        part.kernels += op.occurrences * perStep;
        part.flops += op.gflopsPerS * 1e9 * op.totalSelfUs * 1e-6 * perStep;
        part.hbmBytes += op.memoryGibPerS * kGiB * op.totalSelfUs * 1e-6 * perStep;
        if (category[i] == ProfileCategory::Collective || category[i] == ProfileCategory::Infeed) {
            continue;
        }
        (op.bound == ProfileBound::Compute ? s.computeBoundS
         : op.bound == ProfileBound::Hbm   ? s.hbmBoundS
                                           : s.unknownBoundS) += seconds;
    }
    return s;
}

nlohmann::json toJson(const ProfileSummary& s) {
    nlohmann::json parts = nlohmann::json::object();
    for (const ProfileCategory c : kProfileCategories) {
        const ProfilePart& p = s.part(c);
        parts[std::string(key(c))] = {{"seconds", p.seconds},
                                      {"kernels", p.kernels},
                                      {"flops", p.flops},
                                      {"hbm_bytes", p.hbmBytes}};
    }
    const ProfilePart t = s.total();
    return {{"cores", s.cores},
            {"steps_in_window", s.stepsInWindow},
            {"ops_read", s.opsRead},
            {"ops_excluded", s.opsExcluded},
            {"exclude", s.exclude},
            {"step_s", t.seconds},
            {"kernels_per_step", t.kernels},
            {"flops_per_step", t.flops},
            {"hbm_bytes_per_step", t.hbmBytes},
            {"bound_s",
             {{"compute", s.computeBoundS}, {"hbm", s.hbmBoundS}, {"unknown", s.unknownBoundS}}},
            {"categories", parts}};
}

namespace {

double member(const nlohmann::json& object, const std::string& name, const std::string& where) {
    const auto it = object.find(name);
    if (it == object.end() || !it->is_number()) {
        throw InputError(where, "needs a number '" + name + "'");
    }
    const double v = it->get<double>();
    if (!std::isfinite(v) || v < 0) {
        throw InputError(where + "." + name, "must be a finite number >= 0");
    }
    return v;
}

const nlohmann::json& object(const nlohmann::json& parent, const std::string& name,
                             const std::string& where) {
    const auto it = parent.find(name);
    if (it == parent.end() || !it->is_object()) {
        throw InputError(where, "needs an object '" + name + "'");
    }
    return *it;
}

} // namespace

ProfileSummary profileSummaryFromJson(const nlohmann::json& m, const std::string& origin) {
    if (!m.is_object()) {
        throw InputError(origin, "the measured summary must be an object");
    }
    ProfileSummary s;
    const double cores = member(m, "cores", origin);
    if (cores < 1 || cores > (1 << 20) || cores != std::floor(cores)) {
        throw InputError(origin + ".cores", "must be a whole number between 1 and 1048576");
    }
    s.cores = static_cast<int>(cores);
    s.stepsInWindow = member(m, "steps_in_window", origin);
    if (!(s.stepsInWindow > 0)) {
        throw InputError(origin + ".steps_in_window", "must be above 0");
    }
    s.opsRead = static_cast<std::size_t>(std::min(member(m, "ops_read", origin), 1e15));
    s.opsExcluded = static_cast<std::size_t>(std::min(member(m, "ops_excluded", origin), 1e15));
    if (const auto it = m.find("exclude"); it != m.end()) {
        if (!it->is_array()) {
            throw InputError(origin + ".exclude", "must be a list of texts");
        }
        for (const auto& e : *it) {
            if (!e.is_string()) {
                throw InputError(origin + ".exclude", "must be a list of texts");
            }
            s.exclude.push_back(e.get<std::string>());
        }
    }
    const nlohmann::json& bound = object(m, "bound_s", origin);
    s.computeBoundS = member(bound, "compute", origin + ".bound_s");
    s.hbmBoundS = member(bound, "hbm", origin + ".bound_s");
    s.unknownBoundS = member(bound, "unknown", origin + ".bound_s");
    const nlohmann::json& parts = object(m, "categories", origin);
    for (const ProfileCategory c : kProfileCategories) {
        const std::string where = origin + ".categories";
        const nlohmann::json& p = object(parts, std::string(key(c)), where);
        const std::string at = where + "." + std::string(key(c));
        ProfilePart& part = s.categories[static_cast<std::size_t>(c)];
        part.seconds = member(p, "seconds", at);
        part.kernels = member(p, "kernels", at);
        part.flops = member(p, "flops", at);
        part.hbmBytes = member(p, "hbm_bytes", at);
    }
    const ProfilePart t = s.total();
    for (const auto& [name, sum] :
         {std::pair{"step_s", t.seconds}, std::pair{"kernels_per_step", t.kernels},
          std::pair{"flops_per_step", t.flops}, std::pair{"hbm_bytes_per_step", t.hbmBytes}}) {
        const double stated = member(m, name, origin);
        if (std::abs(stated - sum) > 1e-6 * std::max(stated, sum)) {
            throw InputError(origin + "." + name, "is not the sum of the categories");
        }
    }
    return s;
}

} // namespace podscope
