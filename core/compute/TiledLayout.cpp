#include "compute/TiledLayout.hpp"

#include <algorithm>
#include <cmath>

namespace podscope {
namespace {

double roundUp(double n, double multiple) {
    return std::ceil(n / multiple) * multiple;
}

// A second-minor dimension below the sublane count takes a tile of the next power of two
// (T(4,128) for 3 or 4 rows, as the profiles' layouts show).
double sublaneTile(double n, const CoreModel& core) {
    double tile = 1;
    while (tile < n && tile < core.rowGranule) {
        tile *= 2;
    }
    return std::min(tile, static_cast<double>(core.rowGranule));
}

double tiled(double minor, double secondMinor, const CoreModel& core) {
    const double tile = sublaneTile(secondMinor, core);
    return roundUp(minor, core.vectorLanes) * roundUp(secondMinor, tile);
}

} // namespace

double paddedMapPosition(double batch, double features, const CoreModel& core) {
    if (batch <= 0 || features <= 0) {
        return 0;
    }
    return std::min(tiled(features, batch, core), tiled(batch, features, core));
}

double tiledArrayElements(const std::vector<double>& dims, const std::vector<int>& minorToMajor,
                          const CoreModel& core) {
    double elements = 1;
    for (const double d : dims) {
        elements *= d;
    }
    if (dims.size() < 2 || minorToMajor.size() != dims.size() || elements <= 0) {
        return elements;
    }
    const double minor = dims.at(static_cast<std::size_t>(minorToMajor[0]));
    const double second = dims.at(static_cast<std::size_t>(minorToMajor[1]));
    return elements / (minor * second) * tiled(minor, second, core);
}

double mapPadding(double batch, double features, const CoreModel& core) {
    if (batch <= 0 || features <= 0) {
        return 1;
    }
    return paddedMapPosition(batch, features, core) / (batch * features);
}

} // namespace podscope
