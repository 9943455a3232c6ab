// The per-op comparison (podscope-cli profile): the op table reader on a small table written by
// hand (its per-step figures worked out by hand in the comments), its errors, the summary round
// trip, and the comparison on the bundled summaries of Google's TPU-v3 profiles.
#include "cli/CliRunner.hpp"
#include "common/InputError.hpp"
#include "compute/LayerCost.hpp"
#include "profile/OpTable.hpp"
#include "profile/ProfileFile.hpp"
#include "training/StepModel.hpp"
#include "training/StepPlan.hpp"
#include "workload/Workload.hpp"

#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

namespace podscope {
namespace {

std::string fixture() {
    std::ifstream in(PODSCOPE_PROFILE_FIXTURE);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string errorOf(const std::string& text) {
    try {
        parseOpTable(text, "t.csv");
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

TEST(OpTable, ReadsTheHandWrittenTable) {
    const std::vector<ProfileOp> ops = parseOpTable(fixture(), "fixture");
    ASSERT_EQ(ops.size(), 7u);
    EXPECT_EQ(ops[0].hloOp.substr(0, 30), "%fusion.1 = bf16[8,128]{1,0} f");
    EXPECT_EQ(ops[4].tfOp, "transpose/\"quoted\"");
    EXPECT_EQ(ops[3].category, "all-reduce");
    EXPECT_EQ(ops[2].occurrences, 8);
    EXPECT_EQ(ops[1].bound, ProfileBound::Hbm);
    EXPECT_EQ(ops[4].bound, ProfileBound::Unknown);
    EXPECT_EQ(ops[6].line, 8u);
}

TEST(OpTable, SummarisesTheStepAsWorkedOutByHand) {
    // 2 cores (replica_groups={{0,1}}); the all-reduce runs 4/2 = 2 times per core, and so do
    // the other once-a-step ops: 2 steps. Per step and core: self time / 4.
    const ProfileSummary s =
        summarizeProfile(parseOpTable(fixture(), "fixture"), {0, 0, {"eval/"}});
    EXPECT_EQ(s.cores, 2);
    EXPECT_DOUBLE_EQ(s.stepsInWindow, 2);
    EXPECT_EQ(s.opsRead, 7u);
    EXPECT_EQ(s.opsExcluded, 1u);
    EXPECT_NEAR(s.part(ProfileCategory::Matmul).seconds, 100e-6, 1e-12);
    EXPECT_NEAR(s.part(ProfileCategory::Reduction).seconds, 10e-6, 1e-12);
    EXPECT_NEAR(s.part(ProfileCategory::Elementwise).seconds, 20e-6, 1e-12);
    EXPECT_NEAR(s.part(ProfileCategory::Collective).seconds, 5e-6, 1e-12);
    EXPECT_NEAR(s.part(ProfileCategory::DataFormatting).seconds, 3e-6, 1e-12);
    EXPECT_NEAR(s.part(ProfileCategory::Infeed).seconds, 2e-6, 1e-12);
    EXPECT_EQ(s.part(ProfileCategory::Other).seconds, 0);
    EXPECT_NEAR(s.total().seconds, 140e-6, 1e-12);
    EXPECT_NEAR(s.part(ProfileCategory::Elementwise).kernels, 2, 1e-12); // in a loop: twice
    EXPECT_NEAR(s.total().kernels, 7, 1e-12);
    // 1000 GFLOP/s for 400 us over 4 core-steps; 10 GiB/s likewise.
    EXPECT_NEAR(s.part(ProfileCategory::Matmul).flops, 1e8, 1e-3);
    EXPECT_NEAR(s.part(ProfileCategory::Matmul).hbmBytes, 10 * 1073741824.0 * 1e-4, 1e-6);
    // Roofline classes without the collective and the infeed.
    EXPECT_NEAR(s.computeBoundS, 100e-6, 1e-12);
    EXPECT_NEAR(s.hbmBoundS, 30e-6, 1e-12);
    EXPECT_NEAR(s.unknownBoundS, 3e-6, 1e-12);
}

TEST(OpTable, GivenCoresAndStepsOverrideTheTable) {
    const ProfileSummary s =
        summarizeProfile(parseOpTable(fixture(), "fixture"), {4, 1, {"eval/"}});
    EXPECT_NEAR(s.total().seconds, 140e-6, 1e-12); // 4 cores x 1 step = 2 cores x 2 steps
}

TEST(OpTable, SummaryRoundTripsThroughJson) {
    const ProfileSummary s =
        summarizeProfile(parseOpTable(fixture(), "fixture"), {0, 0, {"eval/"}});
    const ProfileSummary back = profileSummaryFromJson(toJson(s), "round trip");
    EXPECT_EQ(toJson(back), toJson(s));
    nlohmann::json broken = toJson(s);
    broken["step_s"] = 1.0;
    EXPECT_THROW(profileSummaryFromJson(broken, "x"), InputError);
}

TEST(OpTable, BadTablesAreRefusedNamingLineAndColumn) {
    const std::string header = "Category,HLO op,TF op,#Occurrences,Total self time (us),"
                               "Measured GFLOP/s,Measured Memory BW (GiB/s),Bound by\n";
    EXPECT_NE(errorOf("").find("empty"), std::string::npos);
    EXPECT_NE(errorOf("Category,HLO op\n").find("no column 'TF op'"), std::string::npos);
    EXPECT_NE(
        errorOf(header + "loop fusion,x,y,abc,1,0,0,HBM\n").find("line 2, column '#Occurrences'"),
        std::string::npos);
    EXPECT_NE(errorOf(header + "loop fusion,x,y,1,-3,0,0,HBM\n").find(">= 0"), std::string::npos);
    EXPECT_NE(errorOf(header + "loop fusion,x,y,1,nan,0,0,HBM\n").find("finite"),
              std::string::npos);
    EXPECT_NE(errorOf(header + "loop fusion,x,y,1.5,1,0,0,HBM\n").find("whole"), std::string::npos);
    EXPECT_NE(errorOf(header + "loop fusion,x,y,1,1,0,0\n").find("7 fields, the header 8"),
              std::string::npos);
    EXPECT_NE(errorOf(header + "loop fusion,\"x,y,1,1,0,0,HBM\n").find("not closed"),
              std::string::npos);
    EXPECT_NE(
        errorOf(header + "loop fusion,\"x\"z,y,1,1,0,0,HBM\n").find("after the closing quote"),
        std::string::npos);
    EXPECT_NE(errorOf(header + "loop fusion,x,y,1,1,0,0,Vector\n").find("'Bound by'"),
              std::string::npos);
    EXPECT_NE(errorOf(header + "loop fusion,x,y,0,5,0,0,HBM\n").find("0 occurrences"),
              std::string::npos);
    // No collective to find cores or steps by, nothing left after the exclusions.
    const auto ops = parseOpTable(header + "loop fusion,x,y,1,1,0,0,HBM\n", "t");
    EXPECT_THROW(summarizeProfile(ops, {0, 0, {}}), InputError);
    EXPECT_THROW(summarizeProfile(ops, {2, 0, {}}), InputError);
    EXPECT_NO_THROW(summarizeProfile(ops, {2, 1, {}}));
    EXPECT_THROW(summarizeProfile(ops, {2, 1, {"y"}}), InputError);
}

TEST(OpTable, CommandExitsTwoOnABadTable) {
    const auto missing = cli::test::runCli({"profile", "--table", "/nonexistent/t.csv"});
    EXPECT_EQ(missing.status, 2) << missing.err;
    const auto noScenario = cli::test::runCli({"profile", "--table", PODSCOPE_PROFILE_FIXTURE});
    EXPECT_EQ(noScenario.status, 2);
    EXPECT_NE(noScenario.err.find("--measured-json"), std::string::npos) << noScenario.err;
    const auto unknown = cli::test::runCli({"profile", "--summary", "no-such-model"});
    EXPECT_EQ(unknown.status, 2);
    EXPECT_NE(unknown.err.find("resnet"), std::string::npos) << unknown.err;
    const auto measured = cli::test::runCli(
        {"profile", "--table", PODSCOPE_PROFILE_FIXTURE, "--exclude", "eval/", "--measured-json"});
    ASSERT_EQ(measured.status, 0) << measured.err;
    EXPECT_NEAR(nlohmann::json::parse(measured.out)["step_s"].get<double>(), 140e-6, 1e-12);
}

struct PartsClaim {
    const char* name;
    double compute;      // |PodScope / profile - 1| of the compute per step at most
    double memoryPoints; // |difference| of the HBM-bound share at most, in points
    double kernels;      // the kernel-count ratio within [1 / kernels, kernels]
};

// The tolerances docs/training-model.md section 14 states (every bundled profile, none left
// out). The target is {0.10, 15, 2} for each; the ones above it are the misses the docs
// list: the HBM-bound share (by the roofline, as the profiler classes ops) of GNMT (-27) and the
// kernels of Mask R-CNN (3.0x fewer) and GNMT (5.7x fewer). Mask R-CNN's share is asserted at
// 11 points because here its unclassed ops (the profile's 9 ms, PodScope's sorts) count as
// compute (-11.0; -10 in the docs' table without them). ResNet's share was -15.01 points
// before the optimizer's kernels per variable, BERT's and SSD's kernels 2.1x and 2.2x fewer.
constexpr PartsClaim kPartsClaims[] = {
    {"resnet", 0.10, 15, 2}, {"bert", 0.10, 15, 2},       {"transformer", 0.10, 15, 2},
    {"ssd", 0.10, 15, 2},    {"maskrcnn", 0.10, 11, 3.1}, {"gnmt", 0.10, 28, 5.7},
};

// The bundled summaries of Google's profiles beside PodScope at the profiled configurations.
class BundledProfile : public testing::TestWithParam<std::string> {};

TEST_P(BundledProfile, ComparisonAddsUpOnBothSides) {
    const ProfileFile f = bundledProfile(GetParam());
    EXPECT_EQ(f.source["repository"], "google/paragraph");
    EXPECT_EQ(f.source["licence"], "Apache-2.0");
    EXPECT_EQ(f.measured.cores, 64);
    // The roofline classes and the two unclassed parts cover the measured step.
    const ProfileSummary& m = f.measured;
    EXPECT_NEAR(m.computeBoundS + m.hbmBoundS + m.unknownBoundS +
                    m.part(ProfileCategory::Collective).seconds +
                    m.part(ProfileCategory::Infeed).seconds,
                m.total().seconds, 1e-9 * m.total().seconds);

    const PodScopeProfile ps = podscopeProfile(f.configurations);
    // PodScope's categories add up to the step simulate reports, configuration by configuration.
    double weights = 0, step = 0;
    for (const ProfiledConfiguration& c : f.configurations) {
        weights += c.weight;
    }
    for (const ProfiledConfiguration& c : f.configurations) {
        try {
            step += c.weight / weights * simulateTraining(c.scenario).trainStepS;
        } catch (const InputError&) {
            step = -1; // refused as it stands: then the comparison must say so
            break;
        }
    }
    if (step < 0) {
        ASSERT_FALSE(ps.refusals.empty());
        EXPECT_NE(ps.refusals.front().find("HBM"), std::string::npos) << ps.refusals.front();
    } else {
        EXPECT_TRUE(ps.refusals.empty());
        EXPECT_NEAR(ps.total().seconds, step, 1e-9 * step);
    }
    EXPECT_NEAR(ps.trainStepS, ps.total().seconds, 1e-9 * ps.trainStepS);
    // The same kernels, classed two ways: by the roofline and by PodScope's binding unit.
    EXPECT_NEAR(ps.mxuUnitS + ps.otherUnitS, ps.computeBoundS + ps.memoryBoundS,
                1e-9 * ps.total().seconds);
    EXPECT_NEAR(ps.computeBoundS + ps.memoryBoundS + ps.part(ProfileCategory::Collective).seconds +
                    ps.part(ProfileCategory::Infeed).seconds +
                    ps.part(ProfileCategory::Other).seconds,
                ps.total().seconds, 1e-9 * ps.total().seconds);

    const auto run = cli::test::runCli({"profile", "--summary", GetParam(), "--json"});
    ASSERT_EQ(run.status, 0) << run.err;
    const auto j = nlohmann::json::parse(run.out);
    EXPECT_NEAR(j["step_s"]["podscope"].get<double>(), ps.total().seconds, 1e-12);
    EXPECT_NEAR(j["step_s"]["profile"].get<double>(), m.total().seconds, 1e-12);
}

INSTANTIATE_TEST_SUITE_P(Paragraph, BundledProfile,
                         testing::Values("resnet", "bert", "transformer", "ssd", "maskrcnn",
                                         "gnmt"));

TEST(BundledProfiles, MatmulFlopsAgreeWhereTheLayersAreTheSame) {
    // The same network does the same matmul work: an independent check that the profiled
    // configuration is the one PodScope costs (per-core batch, sequence length, buckets). BERT
    // (XLA's recompute) does more on the TPU than the model.
    for (const std::string name : {"resnet", "transformer", "ssd", "maskrcnn", "gnmt"}) {
        const ProfileFile f = bundledProfile(name);
        const PodScopeProfile ps = podscopeProfile(f.configurations);
        const double measured = f.measured.part(ProfileCategory::Matmul).flops;
        EXPECT_NEAR(ps.part(ProfileCategory::Matmul).flops / measured, 1.0, 0.10) << name;
    }
}

// Mask R-CNN's RoIAlign as the TPU code runs it (one-hot einsums over every RoI level): the
// profile's multilevel_crop_and_resize einsums and their unnamed backward do 2.173 TFLOP of MXU
// work per step at 4 images per core (../shared/reference/paragraph/details.json,
// roialign_mxu_TFLOP_per_step); as a gather it was 0.
TEST(BundledProfiles, RoiAlignDoesTheEinsumWorkTheProfileMeasures) {
    const Workload w = loadWorkload("maskrcnn");
    const LayerGraph g = bindLayerGraph(w.graph, {});
    const CoreModel core = loadCoreModel("tpu-v3");
    double flops = 0;
    int layers = 0;
    for (const Layer& l : g.layers) {
        if (l.type == LayerType::CropResize) {
            const LayerCost c =
                lowerLayer(l, 4, layerSplit(ModelParallelKind::None, 1, 2), core, true);
            flops += c.forward.work.flops + c.backward.work.flops;
            ++layers;
        }
    }
    EXPECT_EQ(layers, 8); // box and mask heads on P2-P5
    EXPECT_NEAR(flops / 2.173e12, 1.0, 0.01);
}

// The relayouts of Mask R-CNN, SSD and ResNet (section 3 rule 13): the copies and reshapes the
// profile files as data formatting (Mask R-CNN 23.3 ms and 4.39 GB per step at 4 images per
// core, SSD 3.4 ms and 0.86 GB at 16, ResNet's one infeed reshape 0.26 ms and 91 MB at 128);
// PodScope's relayout layers, read off the HLO, carry the bytes and the time at the tolerances
// section 14 states: SSD's time is 1.19x, its 61 small kernels each paying the fitted
// per-kernel cost. BERT, the Transformer and GNMT have none (under 0.3 ms in their profiles).
TEST(BundledProfiles, RelayoutsMoveTheBytesTheProfileCounts) {
    struct Claim {
        const char* name;
        double measuredS, seconds, bytes;
    };
    for (const Claim& c : {Claim{"maskrcnn", 23.3e-3, 0.15, 0.15}, Claim{"ssd", 3.4e-3, 0.25, 0.05},
                           Claim{"resnet", 0.26e-3, 0.15, 0.05}}) {
        const ProfileFile f = bundledProfile(c.name);
        const PodScopeProfile ps = podscopeProfile(f.configurations);
        const ProfilePart& measured = f.measured.part(ProfileCategory::DataFormatting);
        const ProfilePart& modelled = ps.part(ProfileCategory::DataFormatting);
        EXPECT_NEAR(measured.seconds, c.measuredS, 0.1e-3) << c.name;
        EXPECT_NEAR(modelled.seconds / measured.seconds, 1.0, c.seconds) << c.name;
        EXPECT_NEAR(modelled.hbmBytes / measured.hbmBytes, 1.0, c.bytes) << c.name;
        EXPECT_DOUBLE_EQ(modelled.flops, 0) << c.name;
    }
}

// The optimizer's kernels as XLA emits them at the profiled configurations (no weight-update
// sharding): one fused update per variable, and for a trust ratio (LARS, LAMB) one more per
// weight matrix, whose norms are reduced before the update that reads them. Measured per step
// (ops under the optimizer's name scope in the profiles): ResNet-50's LARS 54.8 norm/Sum and
// 54.8 norm_1/Sum fusions for its 54 weight matrices and 104.5 updates of batch-norm scales and
// shifts; BERT's LAMB 147.5 and 149.5, and 19.9 kernels for its 24 x 10 biases and layer norms,
// which XLA fused horizontally (PodScope counts them one by one: 1.28x); SSD's momentum 127.3;
// the Transformer's Adam 187.0; Mask R-CNN's momentum 84.0 (PodScope updates its frozen stages
// too: 1.27x); GNMT's Adam 34.0. With one kernel per weight layer PodScope had 0.25-1.02x.
TEST(BundledProfiles, OptimizersRunAKernelPerVariableAndPerTrustRatio) {
    struct Claim {
        const char* name;
        double measuredKernels, tolerance;
    };
    for (const Claim& c : {Claim{"resnet", 214.1, 0.05}, Claim{"bert", 317.0, 0.30},
                           Claim{"ssd", 127.3, 0.05}, Claim{"transformer", 187.0, 0.05},
                           Claim{"maskrcnn", 84.0, 0.30}, Claim{"gnmt", 34.0, 0.25}}) {
        const ProfileFile f = bundledProfile(c.name);
        double kernels = 0;
        double weights = 0;
        for (const ProfiledConfiguration& config : f.configurations) {
            const StepPlan plan = buildStepPlan(config.scenario);
            ASSERT_FALSE(plan.weightUpdateSharded) << c.name;
            kernels += config.weight * plan.optimizer.work.launches;
            weights += config.weight;
        }
        EXPECT_NEAR(kernels / weights / c.measuredKernels, 1.0, c.tolerance)
            << c.name << ": " << kernels / weights << " kernels";
    }
}

// Issue 19's done-when, part by part, at each profiled configuration: the compute of a step
// (every kernel but the collectives and the infeed: the profile's roofline classes, PodScope's
// layers and optimizer), the share of it that is not MXU-bound (the profile's HBM-bound class)
// and the kernels per step. The tolerances are the ones docs/training-model.md section 14
// claims per model; a model that misses the 10 % / 15 points / 2x is asserted at what
// holds and listed there as a miss.

TEST(BundledProfiles, PartsAgreeWithinTheClaimedTolerances) {
    for (const PartsClaim& claim : kPartsClaims) {
        const ProfileFile f = bundledProfile(claim.name);
        const ProfileSummary& m = f.measured;
        const PodScopeProfile ps = podscopeProfile(f.configurations);
        const double measured = m.computeBoundS + m.hbmBoundS + m.unknownBoundS;
        const double modelled = ps.computeBoundS + ps.memoryBoundS + ps.unclassedS;
        EXPECT_LE(std::abs(modelled / measured - 1), claim.compute)
            << claim.name << ": compute " << modelled << " s against " << measured << " s";
        const double measuredShare = 100 * m.hbmBoundS / measured;
        const double modelledShare = 100 * ps.memoryBoundS / modelled;
        EXPECT_LE(std::abs(modelledShare - measuredShare), claim.memoryPoints)
            << claim.name << ": HBM-bound share " << modelledShare << " % against " << measuredShare
            << " %";
        const double kernels = ps.total().kernels / m.total().kernels;
        EXPECT_LE(kernels, claim.kernels) << claim.name << ": kernels x" << kernels;
        EXPECT_GE(kernels, 1 / claim.kernels) << claim.name << ": kernels x" << kernels;
    }
}

} // namespace
} // namespace podscope
