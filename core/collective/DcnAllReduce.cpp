#include "collective/DcnAllReduce.hpp"

#include "common/InputError.hpp"

#include <cmath>

namespace podscope {

double DcnAllReduce::seconds() const {
    if (slices <= 1) {
        return 0;
    }
    const double s = slices;
    return 2 * (s - 1) / s * bytesPerHost / hostBps + 2 * (s - 1) * latencyS;
}

DcnAllReduce dcnAllReduce(int slices, double gradientShardBytesPerChip, int chipsPerHost,
                          double hostBps, double latencyS, const std::string& field) {
    DcnAllReduce d;
    d.slices = slices;
    d.bytesPerHost = gradientShardBytesPerChip * chipsPerHost;
    d.hostBps = hostBps;
    d.latencyS = latencyS;
    if (slices > 1 && !(hostBps > 0 && std::isfinite(hostBps))) {
        throw InputError(field, "must be a positive bandwidth");
    }
    return d;
}

} // namespace podscope
