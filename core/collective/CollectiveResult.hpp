#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace podscope {

struct PhaseTime {
    std::string name;
    double timeS = 0;
};

// What an engine reports for one collective. Bandwidths follow NCCL's conventions:
// algorithm bandwidth = payload / time; bus bandwidth = algbw * 2(n-1)/n for all-reduce and
// (n-1)/n for reduce-scatter and all-gather, n the group size.
struct CollectiveResult {
    std::string engine;
    double timeS = 0;
    std::vector<PhaseTime> phases;
    double algbwBps = 0;
    double busbwBps = 0;
    double lowerBoundS = 0;
    double efficiency = 0; // lowerBoundS / timeS
    double maxLinkUtilization = 0;
    double meanLinkUtilization = 0; // over links that carried traffic
    std::int64_t events = 0;          // ring steps simulated (event engine)
    std::int64_t linkOccupancies = 0; // link reservations those steps made (event engine)
    int groupSize = 1;
    int groupCount = 1;
};

} // namespace podscope
