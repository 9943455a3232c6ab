#include "common/InputError.hpp"
#include "parallelism/ParallelismPlan.hpp"
#include "topology/TopologyPresets.hpp"
#include "training/Presets.hpp"
#include "training/ScenarioJson.hpp"
#include "training/StepModel.hpp"
#include "workload/Convergence.hpp"

#include <cmath>
#include <gtest/gtest.h>

namespace podscope {
namespace {

Scenario preset(const std::string& name) {
    return loadPreset(name).scenario;
}

TEST(HostInput, ResNetAt4096ChipsIsInputBoundWithoutTheDecodedImageCache) {
    Scenario s = preset("mlperf07-resnet50-tf-4096");
    const TrainingResult cached = simulateTraining(s);
    EXPECT_FALSE(cached.input.inputBound);
    EXPECT_EQ(cached.breakdown.inputStall, 0);
    EXPECT_GT(cached.input.capacityExamplesPerSPerHost, cached.input.requiredExamplesPerSPerHost);
    EXPECT_EQ(cached.input.hosts, 512);
    // The reference: about 9,000 images/s per host at 4096 chips.
    EXPECT_NEAR(cached.input.requiredExamplesPerSPerHost, 9000, 1000);

    s.input.decodedCache = false;
    const TrainingResult uncached = simulateTraining(s);
    EXPECT_TRUE(uncached.input.inputBound);
    EXPECT_EQ(uncached.bottleneck, "input");
    EXPECT_LT(uncached.input.capacityExamplesPerSPerHost,
              uncached.input.requiredExamplesPerSPerHost);
    EXPECT_GT(uncached.breakdown.inputStall, 0);
    EXPECT_GT(uncached.timeToTrainS, cached.timeToTrainS);
    // The host then sets the pace: one step takes as long as the host needs for its share.
    EXPECT_NEAR(uncached.trainStepS, 65536.0 / 512 / uncached.input.capacityExamplesPerSPerHost,
                1e-9);
}

TEST(HostInput, MoreHostCoresRemoveTheStall) {
    Scenario s = preset("mlperf07-resnet50-tf-4096");
    s.input.decodedCache = false;
    s.input.cpuCores = 4 * 48;
    EXPECT_FALSE(simulateTraining(s).input.inputBound);
}

TEST(WeightUpdateSharding, ShardsTheOptimizerUpdate) {
    Scenario s = preset("mlperf07-bert-tf-4096");
    s.weightUpdateSharding = false;
    const auto replicated = simulateTraining(s);
    s.weightUpdateSharding = true;
    const auto sharded = simulateTraining(s);
    EXPECT_GT(replicated.breakdown.optimizer, 100 * sharded.breakdown.optimizer);
    EXPECT_LT(sharded.stepTimeS, replicated.stepTimeS);
    // Reduce-scatter plus all-gather moves the same data as the all-reduce.
    EXPECT_NEAR(sharded.gradientSyncS / replicated.gradientSyncS, 1.0, 0.1);
}

TEST(GradientSync, Bf16HalvesABandwidthBoundAllReduce) {
    // BERT's 670 MB of bf16 gradients are bandwidth-bound; ResNet-50's 100 MB are partly
    // latency-bound, so halving the bytes saves less there.
    Scenario s = preset("mlperf07-bert-tf-4096");
    const auto bf16 = simulateTraining(s);
    s.gradient.precision = ElementType::FP32;
    const auto fp32 = simulateTraining(s);
    EXPECT_LT(bf16.gradientSyncS, 0.6 * fp32.gradientSyncS);
    EXPECT_GT(bf16.gradientSyncS, 0.4 * fp32.gradientSyncS);
}

TEST(Compute, SmallerPerCoreBatchLowersEfficiency) {
    Scenario s = preset("mlperf07-resnet50-tf2-16");
    double previousEfficiency = 0;
    for (const std::int64_t batch : {512, 1024, 2048, 4096, 8192}) {
        s.globalBatch = batch;
        const auto r = simulateTraining(s);
        EXPECT_GT(r.computeEfficiency, previousEfficiency);
        previousEfficiency = r.computeEfficiency;
    }
}

TEST(Compute, ChipCountAtFixedBatchNeverSlowsCompute) {
    Scenario s = preset("mlperf07-resnet50-tf-4096");
    s.globalBatch = 4096;
    s.batchNormGroup = 1;
    double previous = 1e300;
    for (const std::int64_t chips : {16, 64, 256, 1024, 2048}) {
        useStandardSlice(s, chips);
        const auto r = simulateTraining(s);
        EXPECT_LT(r.breakdown.compute, previous);
        previous = r.breakdown.compute;
    }
}

TEST(ModelParallel, TensorPartitionsAddActivationAllReduces) {
    const auto r = simulateTraining(preset("mlperf07-transformer-tf-4096"));
    EXPECT_EQ(r.plan.modelParallel, 4);
    EXPECT_EQ(r.plan.chipsPerReplica, 2);
    EXPECT_EQ(r.plan.replicas, 2048);
    EXPECT_GT(r.breakdown.modelParallelComm, 0);
    const auto ssd = simulateTraining(preset("mlperf07-ssd-tf-4096"));
    EXPECT_EQ(ssd.plan.kind, ModelParallelKind::Spatial);
    EXPECT_EQ(ssd.plan.replicaTile, (std::vector<int>{2, 2}));
    EXPECT_GT(ssd.breakdown.modelParallelComm, 0);
}

TEST(ModelParallel, EveryKindAWorkloadOffersCostsCommunication) {
    Scenario bert = preset("mlperf07-bert-tf-4096");
    bert.globalBatch = 2048;
    bert.modelParallel = 4;
    bert.modelParallelKind = ModelParallelKind::Tensor;
    const auto r = simulateTraining(bert);
    EXPECT_GT(r.breakdown.modelParallelComm, 0);
    EXPECT_EQ(r.plan.replicas, 2048);

    Scenario gnmt = preset("mlperf07-gnmt-tf-512");
    gnmt.modelParallel = 2;
    gnmt.modelParallelKind = ModelParallelKind::Tensor;
    gnmt.globalBatch = 4096;
    try {
        simulateTraining(gnmt);
        ADD_FAILURE() << "GNMT has no model-parallel split";
    } catch (const InputError& e) {
        EXPECT_EQ(e.field(), "model_parallel");
    }
}

TEST(Parallelism, ImpossibleCombinationsNameTheField) {
    const Topology multipod(
        resolveTopology("tpu-v3-multipod", std::nullopt, loadHardware("tpu-v3")));
    auto fieldOf = [&](std::int64_t batch, int mp, ModelParallelKind kind) {
        try {
            planParallelism(multipod, batch, mp, kind);
        } catch (const InputError& e) {
            return e.field();
        }
        return std::string("none");
    };
    EXPECT_EQ(fieldOf(4096, 1, ModelParallelKind::None), "global_batch"); // < 8192 replicas
    EXPECT_EQ(fieldOf(8192 + 1, 1, ModelParallelKind::None), "global_batch");
    EXPECT_EQ(fieldOf(8192, 3, ModelParallelKind::Tensor), "model_parallel");
    EXPECT_EQ(fieldOf(8192, 4, ModelParallelKind::None), "model_parallel");
    EXPECT_EQ(fieldOf(2048, 4, ModelParallelKind::Tensor), "none");
    EXPECT_EQ(fieldOf(8192, 1, ModelParallelKind::None), "none");
}

TEST(Convergence, FollowsTheCriticalBatchModel) {
    Convergence c;
    c.examplesMin = 1e6;
    c.batchNoise = 1000;
    c.measuredBatchMin = 100;
    c.measuredBatchMax = 4000;
    c.points = {{2000, 3.3e6, "jax"}};
    // E(B) = E_min (1 + B / B_noise): at B = B_noise twice the minimum.
    EXPECT_DOUBLE_EQ(c.estimate(1000, "tf").examples, 2e6);
    EXPECT_DOUBLE_EQ(c.estimate(3000, "tf").examples, 4e6);
    // A framework's measured point scales its whole curve through that point (3.3 / 3.0).
    EXPECT_DOUBLE_EQ(c.estimate(2000, "jax").examples, 3.3e6);
    EXPECT_NEAR(c.estimate(1000, "jax").examples, 2e6 * 1.1, 1e-6);
    EXPECT_FALSE(c.estimate(4000, "tf").extrapolated);
    EXPECT_TRUE(c.estimate(4001, "tf").extrapolated);
    EXPECT_TRUE(c.estimate(99, "tf").extrapolated);
    EXPECT_THROW(c.estimate(0, "tf"), InputError);
}

TEST(Convergence, ResNetNeedsMoreEpochsAtLargerBatch) {
    Scenario s = preset("mlperf07-resnet50-tf-4096");
    double previous = 0;
    for (const std::int64_t batch : {8192, 16384, 32768, 65536, 131072}) {
        s.globalBatch = batch;
        const auto r = simulateTraining(s);
        EXPECT_GT(r.epochs, previous);
        previous = r.epochs;
    }
}

TEST(Evaluation, AsynchronousEvaluationHidesTheMetricButNotTheLastResult) {
    Scenario s = preset("mlperf07-ssd-tf-4096");
    const auto async = simulateTraining(s);
    s.evalMode = EvalMode::Sync;
    const auto sync = simulateTraining(s);
    EXPECT_GT(sync.breakdown.evalAmortized, async.breakdown.evalAmortized);
    EXPECT_GT(async.finalEvalWaitS, 0);
    EXPECT_EQ(sync.finalEvalWaitS, 0);
}

} // namespace
} // namespace podscope
