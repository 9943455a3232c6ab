#include "scene/SceneLayout.hpp"

#include "common/InputError.hpp"
#include "common/Limits.hpp"
#include "scene/ExplodedBlocks.hpp"
#include "scene/Multislice.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>

namespace podscope::ui {
namespace {

constexpr double kPi = std::numbers::pi;
// Each direction of a link is drawn this far to its right, so the two never overlap.
constexpr double kDirectionOffset = 0.12;
constexpr double kDefaultChipSize = 0.6;
// A chip's cube takes at most this share of the distance to its nearest neighbour.
constexpr double kChipShareOfSpacing = 0.7;
constexpr int kArcPoints = 10;
// The unrolled layout's chips are smaller: its links, longer there, are the picture.
constexpr double kUnrolledChipShare = 0.75;
// A straight link keeps at least this share of the line between its chips' centres (where
// cubes are packed closer than their diagonal, the inside of a donut).
constexpr double kLeastDrawnShare = 0.2;
// Links end, and wrap-around arcs start, this far outside the chips' faces.
constexpr double kLinkClearance = 0.04;
// Physical layout: the gap added at the largest boundary between two neighbouring chips.
constexpr double kTrayGap = 0.3;
constexpr double kHostGap = 1.0;
constexpr double kPodGap = 4.0;
constexpr int kTrayChips = 2; // a tray holds 2x2 chips (X and Y)
// Grid placement of a 4-D topology: the W dimension repeats the XYZ block along X.
constexpr double kBlockGap = 2.0;
// A donut keeps its hole open (major radius this many minor radii) and is shrunk until its
// longest link, on the outer rim, is no longer than kMaxBentChord.
constexpr double kDonutRadiusRatio = 2.5;
constexpr double kMaxBentChord = 1.8;
constexpr double kMinDonutScale = 0.35;

Vec3 operator+(Vec3 a, Vec3 b) {
    return {a.x + b.x, a.y + b.y, a.z + b.z};
}
Vec3 operator-(Vec3 a, Vec3 b) {
    return {a.x - b.x, a.y - b.y, a.z - b.z};
}
Vec3 operator*(Vec3 a, double s) {
    return {a.x * s, a.y * s, a.z * s};
}
double dot(Vec3 a, Vec3 b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
double length(Vec3 a) {
    return std::sqrt(dot(a, a));
}
Vec3 cross(Vec3 a, Vec3 b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

constexpr Vec3 kAxisX{1, 0, 0};
constexpr Vec3 kAxisY{0, 1, 0};
constexpr Vec3 kAxisZ{0, 0, 1};

// Unit vector to the right of travel along `chord` on a surface facing `up`; falls back to
// other axes when the chord runs along `up`.
Vec3 rightOf(Vec3 chord, Vec3 up) {
    for (Vec3 candidate : {up, kAxisZ, kAxisX, kAxisY}) {
        const Vec3 side = cross(chord, candidate);
        const double len = length(side);
        if (len > 1e-9 * (length(chord) + 1)) {
            return side * (1.0 / len);
        }
    }
    return kAxisY;
}

// Radius of a circle of n chips whose neighbours are exactly 1 apart.
double ringRadius(int n) {
    return 0.5 / std::sin(kPi / n);
}

// Where chips sit and which way is "out" of the surface at each of them.
struct Placement {
    std::vector<Vec3> positions;
    std::vector<Vec3> normals;
    // Wrap-around links of these dimensions are drawn as arcs bulging along arcBulge.
    std::array<bool, limits::kMaxRank> arcDims{};
    std::array<Vec3, limits::kMaxRank> arcBulge{};
    // Exploded layouts: each chip's block and layer (empty otherwise: one block, one layer).
    // Links between layers are drawn as arcs under the chips, as wrap-around links are.
    std::vector<std::int32_t> block;
    std::vector<std::int32_t> layer;
    std::vector<int> blockEdge;
    double largestChip = kDefaultChipSize;
};

// Position along one dimension of each coordinate: 0, 1, 2, ... plus the physical gaps.
std::vector<double> axisPositions(const Topology& topology, int dim, bool physical) {
    const int n = topology.size(dim);
    const auto& spec = topology.spec();
    const int host = spec.hostBlock[static_cast<std::size_t>(dim)];
    const int pod = spec.podDims[static_cast<std::size_t>(dim)];
    std::vector<double> out(static_cast<std::size_t>(n));
    double p = 0;
    for (int c = 1; c < n; ++c) {
        p += 1;
        if (physical) {
            if (c % pod == 0) {
                p += kPodGap;
            } else if (c % host == 0) {
                p += kHostGap;
            } else if (dim < 2 && c % kTrayChips == 0) {
                p += kTrayGap;
            }
        }
        out[static_cast<std::size_t>(c)] = p;
    }
    return out;
}

// X, Y, Z along the scene axes (Z as height); a fourth dimension repeats the block along X.
Placement placeOnGrid(const Topology& topology, bool physical) {
    const int rank = topology.rank();
    std::array<std::vector<double>, limits::kMaxRank> axis;
    for (int d = 0; d < rank; ++d) {
        axis[static_cast<std::size_t>(d)] = axisPositions(topology, d, physical);
    }
    const double blockStride = axis[0].back() + (physical ? kPodGap : kBlockGap) + 1;
    const auto chips = static_cast<std::size_t>(topology.chipCount());
    Placement placement;
    placement.positions.resize(chips);
    placement.normals.assign(chips, kAxisZ);
    std::array<int, limits::kMaxRank> c{};
    for (std::size_t chip = 0; chip < chips; ++chip) {
        Vec3& p = placement.positions[chip];
        p.x = axis[0][static_cast<std::size_t>(c[0])];
        if (rank > 1) {
            p.y = axis[1][static_cast<std::size_t>(c[1])];
        }
        if (rank > 2) {
            p.z = axis[2][static_cast<std::size_t>(c[2])];
        }
        if (rank > 3) {
            p.x += blockStride * c[3];
        }
        // Advance the coordinates like an odometer, X fastest, instead of dividing per chip.
        for (int d = 0; d < rank && ++c[static_cast<std::size_t>(d)] == topology.size(d); ++d) {
            c[static_cast<std::size_t>(d)] = 0;
        }
    }
    for (int d = 0; d < rank; ++d) {
        placement.arcDims[static_cast<std::size_t>(d)] = topology.wraps(d);
        // Down, under the XY plane: seen from above (every camera preset but Side) the chips
        // hide the arcs, where arcs above covered the whole multipod; Z arcs swing out to the
        // front instead.
        placement.arcBulge[static_cast<std::size_t>(d)] = d == 2 ? kAxisY * -1.0 : kAxisZ * -1.0;
    }
    return placement;
}

// One wrapped dimension: a circle (1-D) or a cylinder around the other dimension (2-D).
Placement placeOnCylinder(const Topology& topology, int aroundDim) {
    const int n = topology.size(aroundDim);
    const double radius = ringRadius(n);
    const auto chips = static_cast<std::size_t>(topology.chipCount());
    Placement placement;
    placement.positions.resize(chips);
    placement.normals.resize(chips);
    for (std::size_t chip = 0; chip < chips; ++chip) {
        const auto id = static_cast<ChipId>(chip);
        const double angle = 2 * kPi * topology.coord(id, aroundDim) / n;
        const double ca = std::cos(angle);
        const double sa = std::sin(angle);
        if (topology.rank() == 1) {
            placement.positions[chip] = {radius * ca, radius * sa, 0};
            placement.normals[chip] = kAxisZ; // the ring lies flat, seen from above
            continue;
        }
        const double along = topology.coord(id, 1 - aroundDim);
        if (aroundDim == 1) { // the multipod: the axis is X
            placement.positions[chip] = {along, radius * ca, radius * sa};
            placement.normals[chip] = {0, ca, sa};
        } else {
            placement.positions[chip] = {radius * ca, along, radius * sa};
            placement.normals[chip] = {ca, 0, sa};
        }
    }
    return placement;
}

// Both dimensions wrapped: X around the major circle, Y around the minor one.
Placement placeOnDonut(const Topology& topology) {
    const int nx = topology.size(0);
    const int ny = topology.size(1);
    const double minor = ringRadius(ny);
    const double major = std::max(ringRadius(nx), kDonutRadiusRatio * minor);
    const double outerChord = 2 * (major + minor) * std::sin(kPi / nx);
    const double scale = std::clamp(kMaxBentChord / outerChord, kMinDonutScale, 1.0);
    const auto chips = static_cast<std::size_t>(topology.chipCount());
    Placement placement;
    placement.positions.resize(chips);
    placement.normals.resize(chips);
    for (std::size_t chip = 0; chip < chips; ++chip) {
        const auto id = static_cast<ChipId>(chip);
        const double phi = 2 * kPi * topology.coord(id, 0) / nx;
        const double psi = 2 * kPi * topology.coord(id, 1) / ny;
        const Vec3 out{std::cos(psi) * std::cos(phi), std::cos(psi) * std::sin(phi), std::sin(psi)};
        const Vec3 centre{major * std::cos(phi), major * std::sin(phi), 0};
        placement.positions[chip] = (centre + out * minor) * scale;
        placement.normals[chip] = out;
    }
    return placement;
}

Placement placeExploded(const Topology& topology) {
    ExplodedBlocks blocks = explodeIntoBlocks(topology);
    Placement placement;
    placement.positions = std::move(blocks.positions);
    placement.normals.assign(placement.positions.size(), kAxisZ);
    placement.block = std::move(blocks.block);
    placement.layer = std::move(blocks.layer);
    placement.blockEdge = std::move(blocks.blockEdge);
    placement.largestChip = kExplodedChipSize;
    for (int d = 0; d < topology.rank(); ++d) {
        placement.arcDims[static_cast<std::size_t>(d)] = topology.wraps(d);
        // Under the layers, where the chips seen from above hide them but for the gaps.
        placement.arcBulge[static_cast<std::size_t>(d)] = kAxisZ * -1.0;
    }
    return placement;
}

Placement placeChips(const Topology& topology, LayoutKind layout) {
    if (layout == LayoutKind::Torus && topology.rank() >= 3) {
        return placeExploded(topology);
    }
    if (layout == LayoutKind::Torus && topology.rank() <= 2) {
        const bool wrapsX = topology.wraps(0);
        const bool wrapsY = topology.rank() == 2 && topology.wraps(1);
        if (wrapsX && wrapsY) {
            return placeOnDonut(topology);
        }
        if (wrapsX || wrapsY) {
            return placeOnCylinder(topology, wrapsX ? 0 : 1);
        }
    }
    // Unwrapped topologies are flat in every layout.
    return placeOnGrid(topology, layout == LayoutKind::Physical);
}

// From the face of one chip's cube to the face of the other's, so that a link never runs over
// a chip (at 4096 chips, links drawn across the cubes hid them).
void appendStraight(SceneGeometry& geometry, Vec3 from, Vec3 to, Vec3 up) {
    const Vec3 chord = to - from;
    const double span = length(chord);
    const Vec3 offset = rightOf(chord, up) * kDirectionOffset;
    // Centre to face of an axis-aligned cube along the chord.
    const double largest = std::max({std::abs(chord.x), std::abs(chord.y), std::abs(chord.z)});
    const double toFace = largest > 0 ? geometry.chipSize / 2 * span / largest : 0;
    const double trim =
        span > 0 ? std::min(toFace + kLinkClearance, span * (1 - kLeastDrawnShare) / 2) / span : 0;
    geometry.linkPoints.push_back(from + chord * trim + offset);
    geometry.linkPoints.push_back(to - chord * trim + offset);
}

// Half a sine wave from `from` to `to`, lifted along `bulge`, higher for longer spans.
void appendArc(SceneGeometry& geometry, Vec3 from, Vec3 to, Vec3 bulge) {
    const Vec3 chord = to - from;
    const double height = 0.5 + 0.2 * length(chord);
    const Vec3 offset = rightOf(chord, bulge) * kDirectionOffset;
    for (int i = 0; i < kArcPoints; ++i) {
        const double t = static_cast<double>(i) / (kArcPoints - 1);
        geometry.linkPoints.push_back(from + chord * t + bulge * (height * std::sin(kPi * t)) +
                                      offset);
    }
}

bool betweenLayers(const Placement& placement, ChipId a, ChipId b) {
    return !placement.layer.empty() && placement.layer[static_cast<std::size_t>(a)] !=
                                           placement.layer[static_cast<std::size_t>(b)];
}

bool betweenBlocks(const Placement& placement, ChipId a, ChipId b) {
    return !placement.block.empty() && placement.block[static_cast<std::size_t>(a)] !=
                                           placement.block[static_cast<std::size_t>(b)];
}

bool crossesWrap(const Topology& topology, ChipId chip, int dim, Direction dir) {
    const int c = topology.coord(chip, dim);
    return dir == Direction::Plus ? c == topology.size(dim) - 1 : c == 0;
}

void extend(Vec3& lo, Vec3& hi, Vec3 p, double margin) {
    lo = {std::min(lo.x, p.x - margin), std::min(lo.y, p.y - margin), std::min(lo.z, p.z - margin)};
    hi = {std::max(hi.x, p.x + margin), std::max(hi.y, p.y + margin), std::max(hi.z, p.z + margin)};
}

// Moves the scene so that its bounding box is centred on the origin (the camera's pivot).
void centre(SceneGeometry& geometry) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    Vec3 lo{inf, inf, inf};
    Vec3 hi{-inf, -inf, -inf};
    for (const Vec3& p : geometry.chipPositions) {
        extend(lo, hi, p, geometry.chipSize / 2);
    }
    for (const Vec3& p : geometry.linkPoints) {
        extend(lo, hi, p, 0);
    }
    for (const Vec3& p : geometry.dcnPoints) {
        extend(lo, hi, p, 0);
    }
    const Vec3 mid = (lo + hi) * 0.5;
    for (Vec3& p : geometry.chipPositions) {
        p = p - mid;
    }
    for (Vec3& p : geometry.linkPoints) {
        p = p - mid;
    }
    for (Vec3& p : geometry.dcnPoints) {
        p = p - mid;
    }
    geometry.boundsMin = lo - mid;
    geometry.boundsMax = hi - mid;
}

} // namespace

LayoutKind parseLayout(const std::string& text) {
    if (text == "torus") {
        return LayoutKind::Torus;
    }
    if (text == "grid") {
        return LayoutKind::Grid;
    }
    if (text == "physical") {
        return LayoutKind::Physical;
    }
    if (text == "unrolled") {
        return LayoutKind::Unrolled;
    }
    throw InputError("layout",
                     "unknown layout '" + text + "'; expected torus, grid, physical or unrolled");
}

std::string toString(LayoutKind layout) {
    switch (layout) {
    case LayoutKind::Torus:
        return "torus";
    case LayoutKind::Grid:
        return "grid";
    case LayoutKind::Physical:
        return "physical";
    case LayoutKind::Unrolled:
        return "unrolled";
    }
    return "unknown";
}

std::vector<LayoutKind> allLayouts() {
    return {LayoutKind::Torus, LayoutKind::Grid, LayoutKind::Physical, LayoutKind::Unrolled};
}

SceneGeometry buildScene(const Topology& topology, LayoutKind layout, const SceneOptions& options) {
    const bool unrolled = layout == LayoutKind::Unrolled;
    Placement placement = placeChips(topology, unrolled ? LayoutKind::Grid : layout);
    const bool arcs = options.wrapArcs && !unrolled;
    SceneGeometry geometry;
    geometry.chipPositions = std::move(placement.positions);
    geometry.blockEdge = placement.blockEdge;

    // Reserve exactly: two points per straight link, kArcPoints per arc.
    std::int64_t arcLinks = 0;
    for (int d = 0; d < topology.rank(); ++d) {
        if (placement.arcDims[static_cast<std::size_t>(d)]) {
            arcLinks += 2 * topology.chipCount() / topology.size(d);
        }
    }
    const auto linkCount = static_cast<std::size_t>(topology.linkCount());
    geometry.links.reserve(linkCount);
    geometry.linkKinds.reserve(linkCount);
    geometry.linkPointBegin.reserve(linkCount + 1);
    geometry.linkPoints.reserve(2 * linkCount +
                                static_cast<std::size_t>(arcLinks) * (kArcPoints - 2));
    geometry.linkIndexOfSlot.assign(static_cast<std::size_t>(topology.linkSlotCount()), -1);

    // The chips' size first (cubes shrink where chips are packed closer than 1, the inside of a
    // donut), so that links can end at their faces and arcs start above them.
    double nearest = std::numeric_limits<double>::infinity();
    for (ChipId chip = 0; chip < topology.chipCount(); ++chip) {
        for (int d = 0; d < topology.rank(); ++d) {
            const ChipId target = topology.neighbour(chip, d, Direction::Plus);
            if (target >= 0 &&
                !(placement.arcDims[static_cast<std::size_t>(d)] &&
                  crossesWrap(topology, chip, d, Direction::Plus)) &&
                !betweenLayers(placement, chip, target)) {
                nearest = std::min(nearest,
                                   length(geometry.chipPositions[static_cast<std::size_t>(target)] -
                                          geometry.chipPositions[static_cast<std::size_t>(chip)]));
            }
        }
    }
    if (!std::isfinite(nearest)) {
        nearest = 1;
    }
    geometry.chipSize = std::min(placement.largestChip, kChipShareOfSpacing * nearest) *
                        (unrolled ? kUnrolledChipShare : 1.0);
    const double lift = geometry.chipSize / 2 + kLinkClearance;

    for (ChipId chip = 0; chip < topology.chipCount(); ++chip) {
        const Vec3 from = geometry.chipPositions[static_cast<std::size_t>(chip)];
        for (int d = 0; d < topology.rank(); ++d) {
            for (Direction dir : {Direction::Plus, Direction::Minus}) {
                const ChipId target = topology.neighbour(chip, d, dir);
                if (target < 0) {
                    continue;
                }
                const bool wraps = topology.wraps(d) && crossesWrap(topology, chip, d, dir);
                const bool wrapArc = placement.arcDims[static_cast<std::size_t>(d)] && wraps;
                if (wrapArc && !arcs) {
                    continue; // left out: linkIndexOfSlot stays -1
                }
                const bool layerArc = betweenLayers(placement, chip, target);
                const LinkId link = topology.linkId(chip, d, dir);
                const Vec3 to = geometry.chipPositions[static_cast<std::size_t>(target)];
                geometry.linkIndexOfSlot[static_cast<std::size_t>(link)] =
                    static_cast<std::int32_t>(geometry.links.size());
                geometry.links.push_back(link);
                geometry.linkKinds.push_back(wraps ? LinkKind::WrapAround
                                             : betweenBlocks(placement, chip, target)
                                                 ? LinkKind::BetweenBlocks
                                                 : LinkKind::InBlock);
                if (wrapArc || layerArc) {
                    const Vec3 bulge = placement.arcBulge[static_cast<std::size_t>(d)];
                    appendArc(geometry, from + bulge * lift, to + bulge * lift, bulge);
                } else {
                    const Vec3 up = placement.normals[static_cast<std::size_t>(chip)] +
                                    placement.normals[static_cast<std::size_t>(target)];
                    appendStraight(geometry, from, to, up);
                }
                geometry.linkPointBegin.push_back(
                    static_cast<std::int32_t>(geometry.linkPoints.size()));
            }
        }
    }
    arrangeSlices(geometry, topology, options.slices);
    centre(geometry);
    return geometry;
}

} // namespace podscope::ui
