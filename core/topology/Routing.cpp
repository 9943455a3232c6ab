#include "topology/Routing.hpp"

namespace podscope {
namespace {

// Signed number of steps along `dim` from coordinate a to b on the shortest way, wrapping
// where `mayWrap`.
int signedDistance(const Topology& topology, int dim, int a, int b, bool mayWrap) {
    int forward = b - a;
    if (!mayWrap) {
        return forward;
    }
    const int n = topology.size(dim);
    forward = ((forward % n) + n) % n;
    const int backward = n - forward;
    return forward <= backward ? forward : -backward;
}

int magnitude(int steps) {
    return steps >= 0 ? steps : -steps;
}

// Steps along a dimension of a twisted torus: straight along the line, or round through the
// twisted wrap-around, whichever leaves fewer hops in all (the wrap moves the chip half-way
// along the long dimensions, which then cost their own ring distance).
int twistedSteps(const Topology& topology, ChipId at, ChipId to, int dim) {
    const int straight = topology.coord(to, dim) - topology.coord(at, dim);
    const int n = topology.size(dim);
    const int around = straight > 0 ? straight - n : straight + n;
    auto cost = [&](int steps) {
        const ChipId landed = topology.offset(at, dim, steps);
        int hops = magnitude(steps);
        for (int e = 0; e < topology.rank(); ++e) {
            if (topology.twistShift(dim, e) != 0) {
                hops += magnitude(signedDistance(topology, e, topology.coord(landed, e),
                                                 topology.coord(to, e), topology.wraps(e)));
            }
        }
        return hops;
    };
    return straight == 0 || cost(straight) <= cost(around) ? straight : around;
}

// Dimension-ordered walk from `from` to `to`; appends links where `path` is given. On a
// twisted torus a wrap-around moves the chip along the long dimensions, so the walk repeats
// until it arrives (twice at most: long dimensions are not twisted).
int walkRoute(const Topology& topology, ChipId from, ChipId to, std::vector<LinkId>* path) {
    int hops = 0;
    ChipId at = from;
    for (int pass = 0; pass <= topology.rank() && at != to; ++pass) {
        for (int dim = 0; dim < topology.rank(); ++dim) {
            const int steps = topology.twisted(dim)
                                  ? twistedSteps(topology, at, to, dim)
                                  : signedDistance(topology, dim, topology.coord(at, dim),
                                                   topology.coord(to, dim), topology.wraps(dim));
            const Direction dir = steps >= 0 ? Direction::Plus : Direction::Minus;
            for (int i = 0; i < magnitude(steps); ++i) {
                if (path) {
                    path->push_back(topology.linkId(at, dim, dir));
                }
                at = topology.neighbour(at, dim, dir);
                ++hops;
            }
        }
    }
    return hops;
}

} // namespace

int appendRoute(const Topology& topology, ChipId from, ChipId to, std::vector<LinkId>& path) {
    return walkRoute(topology, from, to, &path);
}

int appendLineRoute(const Topology& topology, ChipId lineStart, int dim, int fromCoord, int toCoord,
                    std::vector<LinkId>& path) {
    // A twisted wrap-around leaves the line: a line route stays on it.
    const int steps = signedDistance(topology, dim, fromCoord, toCoord, topology.lineIsRing(dim));
    const Direction dir = steps >= 0 ? Direction::Plus : Direction::Minus;
    const int delta = steps >= 0 ? 1 : -1;
    const int n = topology.size(dim);
    const auto stride = topology.stride(dim);
    int at = fromCoord;
    for (int i = 0; i < (steps >= 0 ? steps : -steps); ++i) {
        path.push_back(topology.linkId(static_cast<ChipId>(lineStart + at * stride), dim, dir));
        at += delta;
        at = at < 0 ? at + n : (at >= n ? at - n : at);
    }
    return steps >= 0 ? steps : -steps;
}

int routeLength(const Topology& topology, ChipId from, ChipId to) {
    if (topology.spec().twisted) {
        return walkRoute(topology, from, to, nullptr);
    }
    int hops = 0;
    for (int dim = 0; dim < topology.rank(); ++dim) {
        hops += magnitude(signedDistance(topology, dim, topology.coord(from, dim),
                                         topology.coord(to, dim), topology.wraps(dim)));
    }
    return hops;
}

} // namespace podscope
