#pragma once

#include <string>

namespace podscope {

// An operator of an imported model that maps to no layer: reported with its share of the
// model, never dropped silently.
struct UnmappedOperator {
    std::string opType;
    int count = 0;
    double flopsShare = 0; // of the model's forward FLOPs, as far as its shapes tell
    double bytesShare = 0; // of the bytes its operators read and write
};

} // namespace podscope
