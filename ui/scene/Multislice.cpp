#include "scene/Multislice.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace podscope::ui {
namespace {

constexpr int kArcPoints = 12;

Vec3 plus(Vec3 a, Vec3 b) {
    return {a.x + b.x, a.y + b.y, a.z + b.z};
}

// Centre of each host's chips in the first slice.
std::vector<Vec3> hostCentres(const SceneGeometry& geometry, const Topology& topology) {
    std::vector<Vec3> sum(static_cast<std::size_t>(topology.hostCount()));
    std::vector<int> count(sum.size(), 0);
    for (ChipId chip = 0; chip < topology.chipCount(); ++chip) {
        const auto host = static_cast<std::size_t>(topology.hostOf(chip));
        sum[host] = plus(sum[host], geometry.chipPositions[static_cast<std::size_t>(chip)]);
        ++count[host];
    }
    for (std::size_t h = 0; h < sum.size(); ++h) {
        const double n = std::max(count[h], 1);
        sum[h] = {sum[h].x / n, sum[h].y / n, sum[h].z / n};
    }
    return sum;
}

} // namespace

void arrangeSlices(SceneGeometry& geometry, const Topology& topology, int slices) {
    geometry.slices = std::max(slices, 1);
    if (geometry.slices == 1) {
        return;
    }
    constexpr double inf = std::numeric_limits<double>::infinity();
    Vec3 lo{inf, inf, inf};
    Vec3 hi{-inf, -inf, -inf};
    const auto extend = [&](Vec3 p, double margin) {
        lo = {std::min(lo.x, p.x - margin), std::min(lo.y, p.y - margin),
              std::min(lo.z, p.z - margin)};
        hi = {std::max(hi.x, p.x + margin), std::max(hi.y, p.y + margin),
              std::max(hi.z, p.z + margin)};
    };
    for (const Vec3& p : geometry.chipPositions) {
        extend(p, geometry.chipSize / 2);
    }
    for (const Vec3& p : geometry.linkPoints) {
        extend(p, 0);
    }
    const double width = hi.x - lo.x;
    const double depth = hi.y - lo.y;
    const double gap = kSliceGap * std::max(width, depth);
    const int columns = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(slices))));
    std::vector<Vec3> offsets;
    for (int s = 0; s < slices; ++s) {
        // Snake: odd rows run backwards, so slice s and s + 1 always share an edge.
        const int row = s / columns;
        const int column = row % 2 == 0 ? s % columns : columns - 1 - s % columns;
        offsets.push_back({column * (width + gap), row * (depth + gap), 0});
    }

    const std::vector<Vec3> chips = geometry.chipPositions;
    const std::vector<LinkId> links = geometry.links;
    const std::vector<LinkKind> kinds = geometry.linkKinds;
    const std::vector<Vec3> points = geometry.linkPoints;
    const std::vector<std::int32_t> begins = geometry.linkPointBegin;
    geometry.chipPositions.clear();
    geometry.links.clear();
    geometry.linkKinds.clear();
    geometry.linkPoints.clear();
    geometry.linkPointBegin.assign(1, 0);
    for (int s = 0; s < slices; ++s) {
        const Vec3 offset = offsets[static_cast<std::size_t>(s)];
        for (const Vec3& p : chips) {
            geometry.chipPositions.push_back(plus(p, offset));
        }
        geometry.links.insert(geometry.links.end(), links.begin(), links.end());
        geometry.linkKinds.insert(geometry.linkKinds.end(), kinds.begin(), kinds.end());
        for (std::size_t l = 0; l + 1 < begins.size(); ++l) {
            for (auto p = begins[l]; p < begins[l + 1]; ++p) {
                geometry.linkPoints.push_back(plus(points[static_cast<std::size_t>(p)], offset));
            }
            geometry.linkPointBegin.push_back(
                static_cast<std::int32_t>(geometry.linkPoints.size()));
        }
    }

    // The ring's pairs: s and s + 1, and the last and the first (with two slices, one pair).
    const std::vector<Vec3> hosts = hostCentres(geometry, topology);
    const double lift = geometry.chipSize;
    for (int s = 0; s < (slices == 2 ? 1 : slices); ++s) {
        const int next = (s + 1) % slices;
        for (std::size_t h = 0; h < hosts.size(); ++h) {
            const Vec3 from = plus(hosts[h], offsets[static_cast<std::size_t>(s)]);
            const Vec3 to = plus(hosts[h], offsets[static_cast<std::size_t>(next)]);
            const double span = std::hypot(to.x - from.x, to.y - from.y, to.z - from.z);
            const double height = lift + 0.15 * span;
            for (int i = 0; i < kArcPoints; ++i) {
                const double t = static_cast<double>(i) / (kArcPoints - 1);
                geometry.dcnPoints.push_back(
                    {from.x + (to.x - from.x) * t, from.y + (to.y - from.y) * t,
                     hi.z + lift + (height - lift) * std::sin(std::numbers::pi * t)});
            }
            geometry.dcnPointBegin.push_back(static_cast<std::int32_t>(geometry.dcnPoints.size()));
            geometry.dcnLinks.push_back({s, next, static_cast<int>(h)});
        }
    }
}

} // namespace podscope::ui
