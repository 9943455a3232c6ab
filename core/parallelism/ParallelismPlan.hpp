#pragma once

#include "topology/Topology.hpp"
#include "workload/Workload.hpp"

#include <string>
#include <vector>

namespace podscope {

// How the cores of a slice are split into replicas. A replica of `modelParallel` cores sits on
// neighbouring cores: the two cores of a chip first, then a tile of chips (2x1, 2x2, 4x2 ...).
struct ParallelismPlan {
    int modelParallel = 1;
    ModelParallelKind kind = ModelParallelKind::None;
    std::int64_t cores = 0;
    std::int64_t replicas = 0;
    int chipsPerReplica = 1;
    int replicasPerChip = 1;
    std::vector<int> replicaTile; // chips per replica along each dimension
    double perReplicaBatch = 0;
    double examplesPerCore = 0; // per-replica batch / model-parallel degree
};

// A tile of `chips` neighbouring chips (a power of two): dimensions doubled in turn, X first
// (2x1, 2x2, 4x2 ...), passing over a dimension the doubled tile would not divide. Throws
// InputError naming `field` when no tile of that many chips fits the topology so.
std::vector<int> chipTile(const Topology& topology, int chips, const std::string& field);

// Throws InputError naming model_parallel or global_batch for impossible combinations.
ParallelismPlan planParallelism(const Topology& topology, std::int64_t globalBatch,
                                int modelParallel, ModelParallelKind kind);

} // namespace podscope
