#include "parallelism/ParallelismPlan.hpp"

#include "common/InputError.hpp"

#include <string>

namespace podscope {

std::vector<int> chipTile(const Topology& topology, int chips, const std::string& field) {
    // Doubles the dimensions in turn, passing over one that a doubled tile would no longer
    // divide (a group of 128 chips on 4x8x8 is 4x8x4, not the 8x4x4 that strict turns give).
    // Where strict turns tile the topology, no dimension is passed over: the same tile.
    const int rank = topology.rank();
    std::vector<int> tile(static_cast<std::size_t>(rank), 1);
    int have = 1;
    for (int i = 0, passed = 0; have < chips; ++i) {
        const auto d = static_cast<std::size_t>(i % rank);
        if (topology.size(static_cast<int>(d)) % (tile[d] * 2) != 0) {
            if (++passed == rank) {
                throw InputError(field, "a group of " + std::to_string(chips) +
                                            " chips does not tile the " + topology.dimsText() +
                                            " topology");
            }
            continue;
        }
        passed = 0;
        tile[d] *= 2;
        have *= 2;
    }
    return tile;
}

ParallelismPlan planParallelism(const Topology& topology, std::int64_t globalBatch,
                                int modelParallel, ModelParallelKind kind) {
    if (modelParallel != 1 && modelParallel != 2 && modelParallel != 4 && modelParallel != 8 &&
        modelParallel != 16) {
        throw InputError("model_parallel",
                         "degree must be 1, 2, 4, 8 or 16 cores per replica, not " +
                             std::to_string(modelParallel));
    }
    if (modelParallel == 1 && kind != ModelParallelKind::None) {
        kind = ModelParallelKind::None;
    }
    if (modelParallel > 1 && kind == ModelParallelKind::None) {
        throw InputError("model_parallel", "a degree of " + std::to_string(modelParallel) +
                                               " needs a kind: spatial or tensor");
    }
    ParallelismPlan plan;
    plan.modelParallel = modelParallel;
    plan.kind = kind;
    const int coresPerChip = topology.coresPerChip();
    plan.cores = topology.chipCount() * coresPerChip;
    if (plan.cores % modelParallel != 0) {
        throw InputError("model_parallel", "degree " + std::to_string(modelParallel) +
                                               " does not divide the " +
                                               std::to_string(plan.cores) + " cores");
    }
    plan.replicas = plan.cores / modelParallel;
    plan.chipsPerReplica = modelParallel > coresPerChip ? modelParallel / coresPerChip : 1;
    plan.replicasPerChip = modelParallel < coresPerChip ? coresPerChip / modelParallel : 1;

    try {
        plan.replicaTile = chipTile(topology, plan.chipsPerReplica, "model_parallel");
    } catch (const InputError&) {
        throw InputError("model_parallel", "a replica of " + std::to_string(modelParallel) +
                                               " cores does not tile the " +
                                               topology.dimsText() + " topology");
    }
    if (globalBatch < plan.replicas) {
        throw InputError("global_batch", std::to_string(globalBatch) + " is smaller than the " +
                                             std::to_string(plan.replicas) +
                                             " replicas (at least one example per replica)");
    }
    if (globalBatch % plan.replicas != 0) {
        throw InputError("global_batch", std::to_string(globalBatch) +
                                             " is not a multiple of the " +
                                             std::to_string(plan.replicas) + " replicas");
    }
    plan.perReplicaBatch = static_cast<double>(globalBatch / plan.replicas);
    plan.examplesPerCore = plan.perReplicaBatch / modelParallel;
    return plan;
}

} // namespace podscope
