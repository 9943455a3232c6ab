// Evaluation of the translation models as their code runs it: beam-search decoding on the device
// (docs/training-model.md, "Evaluation"; issue 19 item 5).
#include "training/BeamSearchTime.hpp"
#include "training/Presets.hpp"
#include "training/ScenarioJson.hpp"
#include "training/StepModel.hpp"
#include "training/StepPlan.hpp"

#include <gtest/gtest.h>
#include <iostream>

namespace podscope {
namespace {

// GNMT as Google's profile ran it: 32 chips, 64 cores, no model parallelism; the 4096-sentence
// evaluation batch puts 64 sentences (320 hypotheses) on each core.
StepPlan profiledGnmt() {
    return buildStepPlan(parseScenario(R"({"preset": "mlperf07-gnmt-tf-512", "chips": 32,
        "global_batch": 16384, "weight_update_sharding": false})",
                                       "test"));
}

// Transformer at 32 sentences per replica (128 hypotheses), the most its JAX code decodes at once.
StepPlan fullTransformer() {
    return buildStepPlan(parseScenario(R"({"preset": "mlperf07-transformer-jax-4096", "chips": 32,
        "global_batch": 256, "model_parallel": {"degree": 1, "kind": "none"}})",
                                       "test"));
}

TEST(BeamSearchDecode, BatchesTheSetAsTheRunsDid) {
    // GNMT, 512 chips: --infer_batch_size=4096 over 1024 cores is 4 per core, one batch.
    const TrainingResult gnmt = simulateTraining(loadPreset("mlperf07-gnmt-tf-512").scenario);
    EXPECT_EQ(gnmt.evalDecode.sentencesPerReplica, 4);
    EXPECT_EQ(gnmt.evalDecode.batches, 1);
    EXPECT_EQ(gnmt.evalDecode.tokens, 160); // the loop always runs to tgt_max_len_infer
    EXPECT_EQ(gnmt.evalDecode.beamWidth, 5);
    // Transformer TF, 4096 chips in replicas of 4 cores: the run's DECODE_BATCH_SIZE is 2.
    const TrainingResult tf = simulateTraining(loadPreset("mlperf07-transformer-tf-4096").scenario);
    EXPECT_EQ(tf.evalDecode.sentencesPerReplica, 2);
    EXPECT_EQ(tf.evalDecode.batches, 1);
    EXPECT_EQ(tf.evalDecode.tokens, 97);
    // The decode is the device part of each evaluation, and it is charged to the step.
    EXPECT_GT(tf.evalDecodeS, 0);
    EXPECT_GE(tf.evaluationS, tf.evalDecodeS);
    EXPECT_GT(tf.breakdown.evalAmortized * static_cast<double>(tf.steps),
              tf.evaluations * tf.evalDecodeS * 0.999);
    // Models that do not translate evaluate by one forward pass, with no decode.
    const TrainingResult resnet =
        simulateTraining(loadPreset("mlperf07-resnet50-tf-4096").scenario);
    EXPECT_EQ(resnet.evalDecodeS, 0);
    EXPECT_EQ(resnet.evalDecode.beamWidth, 0);
}

// A smaller slice holds more sentences per replica, up to the JAX code's 32, then decodes the set
// in several batches one after another.
TEST(BeamSearchDecode, SmallSlicesDecodeInSeveralBatches) {
    const StepPlan p = fullTransformer();
    const BeamSearchDecode& d = *p.workload->decode;
    const DecodeShape many = decodeShape(d, 3003, 2048);
    EXPECT_EQ(many.sentencesPerReplica, 2);
    EXPECT_EQ(many.batches, 1);
    const DecodeShape few = decodeShape(d, 3003, 16);
    EXPECT_EQ(few.sentencesPerReplica, 32);
    EXPECT_EQ(few.batches, 6); // 3003 / (16 x 32) = 5.9
}

// Every hypothesis of a batch goes through the decoder at every token: in the MXU-bound regime
// (hundreds of hypotheses per core) twice the beam costs about twice the time per token.
TEST(BeamSearchDecode, TokenTimeGrowsWithTheBeamWidth) {
    for (const StepPlan& p : {profiledGnmt(), fullTransformer()}) {
        BeamSearchDecode d = *p.workload->decode;
        const DecodeTime base = beamSearchTime(d, p, 3003);
        d.beamWidth *= 2;
        const DecodeTime wide = beamSearchTime(d, p, 3003);
        const double ratio = wide.tokenS / base.tokenS;
        EXPECT_GT(ratio, 1.7) << p.workload->name;
        EXPECT_LT(ratio, 2.4) << p.workload->name; // top-k passes grow with beam x beam
        EXPECT_GT(wide.seconds, 1.7 * base.seconds) << p.workload->name;
    }
}

TEST(BeamSearchDecode, LongerDecodesTakeLonger) {
    // GNMT runs every batch to the maximum length: time grows with it.
    const StepPlan g = profiledGnmt();
    BeamSearchDecode d = *g.workload->decode;
    const DecodeTime at160 = beamSearchTime(d, g, 3003);
    d.maxLength = 320;
    const DecodeTime at320 = beamSearchTime(d, g, 3003);
    EXPECT_EQ(at320.shape.tokens, 320);
    EXPECT_GT(at320.seconds, 1.9 * at160.seconds);
    // Transformer stops at the longest target (97), but attends over the whole cache it
    // allocates: a longer maximum costs more per token; a shorter one cuts the decode.
    const StepPlan t = fullTransformer();
    BeamSearchDecode e = *t.workload->decode;
    const DecodeTime at147 = beamSearchTime(e, t, 3003);
    e.maxLength = 400;
    const DecodeTime at400 = beamSearchTime(e, t, 3003);
    EXPECT_EQ(at400.shape.tokens, 97);
    EXPECT_GT(at400.tokenS, at147.tokenS);
    e.maxLength = 50;
    const DecodeTime at50 = beamSearchTime(e, t, 3003);
    EXPECT_EQ(at50.shape.tokens, 50);
    EXPECT_LT(at50.seconds, at147.seconds);
}

// The decoder step graphs hold what one token costs: closed forms from the architectures.
TEST(BeamSearchDecode, TokenMacsAreTheClosedForm) {
    const auto macs = [](const LayerGraphSpec& spec, double cache) {
        const LayerGraph g = bindLayerGraph(spec, {{"cache", cache}});
        return g.forwardMacsPerExample();
    };
    {
        // Transformer-big: per layer q, k, v and output projections (4 d^2), scores and context
        // over the cache (2 cache d), the cross query and output (2 d^2), the encoder output's
        // keys and values recomputed every step (2 src d^2), cross scores and context (2 src d),
        // the FFN (2 d ffn); then the vocabulary projection.
        const double d = 1024, ffn = 4096, vocab = 33708, src = 97, cache = 147;
        const double layer =
            4 * d * d + 2 * cache * d + 2 * d * d + 2 * src * d * d + 2 * src * d + 2 * d * ffn;
        const auto& spec = fullTransformer().workload->decode->step;
        EXPECT_NEAR(macs(spec, cache) / (6 * layer + d * vocab), 1.0, 1e-9);
    }
    {
        // GNMT: decoder layer 0 [embedding; context; h] x [3d, 4d] (its input projection is no
        // longer hoisted: one token), the attention query d^2, layers 1-3 [h; context; h] x
        // [3d, 4d], the vocabulary projection. The Bahdanau scores are vector work.
        const double d = 1024, vocab = 32316;
        const double expected = 3 * d * 4 * d + d * d + 3 * (3 * d * 4 * d) + d * vocab;
        EXPECT_NEAR(macs(profiledGnmt().workload->decode->step, 160) / expected, 1.0, 1e-9);
    }
}

// Google's profile of GNMT holds one whole evaluation: 160 decoder steps at 64 sentences x 5
// beams per core took 1.22 s per core (google/paragraph nmt stats, 10240 = 64 cores x 160
// occurrences of each step op). The bookkeeping passes over the scores were read off the same
// profile (5.49 ms of the 7.6 ms per step); matmuls, LSTM cells and attention are predicted.
TEST(BeamSearchDecode, GnmtDecodeMatchesTheProfiledEvaluation) {
    const StepPlan p = profiledGnmt();
    const DecodeTime t = beamSearchTime(*p.workload->decode, p, 3003);
    EXPECT_EQ(t.shape.sentencesPerReplica, 64);
    EXPECT_EQ(t.shape.batches, 1);
    std::cout << "GNMT decode at 64 sentences per core: " << t.seconds << " s (encoder "
              << t.encoderS << " s, " << 1e3 * t.tokenS << " ms per token); measured 1.22 s\n";
    EXPECT_NEAR(t.seconds / 1.22, 1.0, 0.15);
}

} // namespace
} // namespace podscope
