#include "training/WhatIf.hpp"

#include "common/InputError.hpp"
#include "training/Presets.hpp"
#include "training/ScenarioJson.hpp"
#include "training/StepModel.hpp"

#include <algorithm>
#include <gtest/gtest.h>

namespace podscope {
namespace {

const WhatIf* find(const std::vector<WhatIf>& list, const std::string& key) {
    const auto it =
        std::find_if(list.begin(), list.end(), [&](const WhatIf& w) { return w.key == key; });
    return it == list.end() ? nullptr : &*it;
}

// The configuration keys whose values differ between two scenarios.
std::vector<std::string> changedKeys(const Scenario& a, const Scenario& b) {
    const auto flatA = toJson(a).flatten();
    const auto flatB = toJson(b).flatten();
    std::vector<std::string> keys;
    for (const auto& [key, value] : flatA.items()) {
        if (!flatB.contains(key) || flatB.at(key) != value) {
            keys.push_back(key);
        }
    }
    for (const auto& [key, value] : flatB.items()) {
        if (!flatA.contains(key)) {
            keys.push_back(key);
        }
    }
    return keys;
}

TEST(WhatIf, EachChangesOneSettingOfTheConfiguration) {
    const Scenario base = loadPreset("mlperf07-resnet50-tf-4096").scenario;
    ASSERT_TRUE(base.input.decodedCache);
    ASSERT_TRUE(base.weightUpdateSharding); // XLA's automatic sharding (the presets' note)
    const auto list = whatIfs(base);
    ASSERT_EQ(list.size(), 3u);
    ASSERT_NE(find(list, "link_bandwidth_x2"), nullptr);
    ASSERT_NE(find(list, "decoded_cache_off"), nullptr);
    ASSERT_NE(find(list, "wus_off"), nullptr);
    EXPECT_EQ(changedKeys(base, find(list, "link_bandwidth_x2")->scenario),
              std::vector<std::string>{"/link_bandwidth_GBps"});
    EXPECT_EQ(changedKeys(base, find(list, "decoded_cache_off")->scenario),
              std::vector<std::string>{"/input/decoded_cache"});
    EXPECT_EQ(changedKeys(base, find(list, "wus_off")->scenario),
              std::vector<std::string>{"/weight_update_sharding"});
    for (const WhatIf& w : list) {
        EXPECT_FALSE(w.label.empty());
        // The result is the model's for the changed configuration, not an estimate.
        EXPECT_DOUBLE_EQ(w.result.timeToTrainS, simulateTraining(w.scenario).timeToTrainS) << w.key;
    }
}

TEST(WhatIf, TwiceTheBandwidthHalvesOnlyTheBandwidthPartOfTheSum) {
    const Scenario base = loadPreset("mlperf07-bert-jax-4096").scenario;
    const TrainingResult now = simulateTraining(base);
    const auto list = whatIfs(base);
    const WhatIf* faster = find(list, "link_bandwidth_x2");
    ASSERT_NE(faster, nullptr);
    EXPECT_DOUBLE_EQ(*faster->scenario.linkBandwidthGBps,
                     2 * 82.0); // TPU-v3: 82 GB/s per direction
    // Hop latency does not shrink with bandwidth: the sum takes more than half as long.
    EXPECT_LT(faster->result.gradientSyncS, now.gradientSyncS);
    EXPECT_GT(faster->result.gradientSyncS, now.gradientSyncS / 2);
    EXPECT_DOUBLE_EQ(faster->result.breakdown.compute, now.breakdown.compute);
    EXPECT_LE(faster->result.timeToTrainS, now.timeToTrainS);
}

TEST(WhatIf, ToggledTwiceIsTheConfigurationAgain) {
    const Scenario base = loadPreset("mlperf07-resnet50-tf-4096").scenario;
    const TrainingResult now = simulateTraining(base);
    for (const std::string key : {"decoded_cache_off", "wus_off"}) {
        const auto first = whatIfs(base);
        const WhatIf* once = find(first, key);
        ASSERT_NE(once, nullptr) << key;
        const std::string back = key == "wus_off" ? "wus_on" : "decoded_cache_on";
        const auto second = whatIfs(once->scenario);
        const WhatIf* twice = find(second, back);
        ASSERT_NE(twice, nullptr) << back;
        EXPECT_TRUE(changedKeys(base, twice->scenario).empty()) << back;
        EXPECT_DOUBLE_EQ(twice->result.timeToTrainS, now.timeToTrainS) << back;
    }
}

TEST(WhatIf, TheCacheIsOfferedOnlyWhereThereIsDecodingToSave) {
    Scenario bert = loadPreset("mlperf07-bert-jax-4096").scenario; // token ids: nothing to decode
    EXPECT_EQ(find(whatIfs(bert), "decoded_cache_on"), nullptr);
    EXPECT_EQ(find(whatIfs(bert), "decoded_cache_off"), nullptr);
    bert.inputCost.decodeS = 0.001; // a decode stage set by hand
    EXPECT_NE(
        find(whatIfs(bert), bert.input.decodedCache ? "decoded_cache_off" : "decoded_cache_on"),
        nullptr);
}

TEST(WhatIf, ARefusedConfigurationHasNoWhatIfs) {
    Scenario refused = loadPreset("mlperf07-resnet50-tf-4096").scenario;
    refused.globalBatch = 1000; // 8192 replicas cannot share 1000 examples
    EXPECT_THROW(whatIfs(refused), InputError);
}

} // namespace
} // namespace podscope
