#pragma once

#include <string>

namespace podscope {

// The data-centre-network stage of a multislice gradient sum (docs/multislice.md). Inside each
// slice the gradients are reduce-scattered over the ICI, so each chip holds a shard; the chips at
// the same place in every slice then all-reduce their shard over the DCN, and an all-gather over
// the ICI spreads the sums. Each host's NIC carries the shards of all its chips, so one host
// moves shard bytes x chips per host, in a ring across the slices.
struct DcnAllReduce {
    int slices = 1;
    double bytesPerHost = 0;  // the shards of a host's chips
    double hostBps = 0;       // DCN bandwidth per host, per direction
    double latencyS = 0;      // per ring step across the DCN

    // 2(S-1)/S x bytes / bandwidth + 2(S-1) x latency: a ring reduce-scatter then all-gather
    // across S slices. 0 for one slice.
    double seconds() const;
};

// The DCN stage for `slices` slices. Throws InputError naming `field` when bandwidth is not
// positive and there is more than one slice.
DcnAllReduce dcnAllReduce(int slices, double gradientShardBytesPerChip, int chipsPerHost,
                          double hostBps, double latencyS, const std::string& field);

} // namespace podscope
