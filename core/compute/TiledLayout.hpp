#pragma once

#include "compute/CoreModel.hpp"

#include <vector>

namespace podscope {

// XLA stores an array in HBM in tiles of its two minor dimensions: `vectorLanes` on the minor one
// and `rowGranule` sublanes on the second (fewer, a power of two, when that dimension is smaller),
// so a short minor dimension is padded. For a feature map [batch, h, w, features] it puts the
// features or the batch on the lanes, whichever pads less (docs/training-model.md section 3,
// rule 11). Returns the elements one (h, w) position occupies: at least batch x features.
double paddedMapPosition(double batch, double features, const CoreModel& core);

// The padded elements over the exact ones (1 when both dimensions fill their tiles).
double mapPadding(double batch, double features, const CoreModel& core);

// Elements an array of `dims` occupies in HBM with the layout `minorToMajor` (XLA's order of
// the axes, minor first): its minor axis padded to the lanes, the second to the sublane tile.
double tiledArrayElements(const std::vector<double>& dims, const std::vector<int>& minorToMajor,
                          const CoreModel& core);

} // namespace podscope
