#include "profile/ProfileComparison.hpp"

#include "common/InputError.hpp"
#include "training/LayerTable.hpp"
#include "training/StepModel.hpp"
#include "training/StepPlan.hpp"

#include <cmath>

namespace podscope {

namespace {

ProfileCategory layerCategory(LayerType type) {
    switch (type) {
    case LayerType::Conv:
    case LayerType::Dense:
    case LayerType::Attention:
    case LayerType::Recurrent:
    case LayerType::CropResize: // its one-hot einsums run on the MXU
        return ProfileCategory::Matmul;
    case LayerType::Embedding:
        return ProfileCategory::GatherScatter;
    case LayerType::Norm:
    case LayerType::Pool:
    case LayerType::Elementwise:
    case LayerType::Loss:
        break;
    case LayerType::Sort: // the profiler files sort ops apart, with loop control
        return ProfileCategory::Other;
    case LayerType::Relayout:
        return ProfileCategory::DataFormatting;
    case LayerType::Reduce:
        return ProfileCategory::Reduction;
    }
    return ProfileCategory::Elementwise;
}

void addScaled(ProfilePart& to, const ProfilePart& part, double weight) {
    to.seconds += weight * part.seconds;
    to.kernels += weight * part.kernels;
    to.flops += weight * part.flops;
    to.hbmBytes += weight * part.hbmBytes;
}

} // namespace

ProfilePart PodScopeProfile::total() const {
    ProfilePart sum;
    for (const ProfilePart& p : categories) {
        sum += p;
    }
    return sum;
}

PodScopeProfile podscopeProfile(const std::vector<ProfiledConfiguration>& configurations) {
    if (configurations.empty()) {
        throw InputError("configurations", "needs at least one profiled configuration");
    }
    double weights = 0;
    for (const ProfiledConfiguration& c : configurations) {
        if (!(c.weight > 0) || !std::isfinite(c.weight)) {
            throw InputError("configurations.weight", "must be a number above 0");
        }
        weights += c.weight;
    }
    PodScopeProfile out;
    for (const ProfiledConfiguration& c : configurations) {
        const double w = c.weight / weights;
        const StepPlan plan = buildStepPlanUnchecked(c.scenario);
        if (!plan.memory.fits()) {
            try {
                (void)buildStepPlan(c.scenario);
            } catch (const InputError& e) {
                out.refusals.push_back(e.what());
            }
        }
        const TrainingResult r = evaluateStepPlan(plan, c.scenario);
        const std::vector<LayerRow> rows = layerTable(plan);
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const LayerRow& row = rows[i];
            const ProfilePart part{row.seconds(), row.kernels, row.flops, row.hbmBytes};
            const ProfileCategory category = layerCategory(plan.graph->layers[i].type);
            addScaled(out.categories[static_cast<std::size_t>(category)], part, w);
            if (category == ProfileCategory::Other) {
                out.unclassedS += w * row.seconds(); // as the profile's sorts: no roofline class
                continue;
            }
            // Each kernel by its intensity against the ridge, as the profiler classes each op,
            // and by the unit that bound it here.
            const LayerCost& cost = plan.layers[i];
            const double belowS =
                cost.forward.belowRidgeS + cost.backward.belowRidgeS + cost.recompute.belowRidgeS;
            out.memoryBoundS += w * belowS;
            out.computeBoundS += w * (row.seconds() - belowS);
            const auto mxu = static_cast<std::size_t>(CoreUnit::Mxu);
            const double mxuS = cost.forward.secondsByUnit[mxu] + cost.backward.secondsByUnit[mxu] +
                                cost.recompute.secondsByUnit[mxu];
            out.mxuUnitS += w * mxuS;
            out.otherUnitS += w * (row.seconds() - mxuS);
        }
        out.rooflineRidgeFlopPerByte = plan.core.rooflineRidgeFlopPerByte;
        const StepBreakdown& b = r.breakdown;
        const KernelWork& opt = plan.optimizer.work;
        addScaled(out.categories[static_cast<std::size_t>(ProfileCategory::Elementwise)],
                  {b.optimizer, opt.launches, opt.flops, opt.hbmBytes}, w);
        (opt.flops < plan.core.rooflineRidgeFlopPerByte * opt.hbmBytes ? out.memoryBoundS
                                                                       : out.computeBoundS) +=
            w * b.optimizer;
        (kernelTime(opt, plan.core).bound == CoreUnit::Mxu ? out.mxuUnitS : out.otherUnitS) +=
            w * b.optimizer;
        double collectives = 0;
        for (const Exchange& e : plan.exchanges) {
            collectives += e.collective ? 1 : 0;
        }
        addScaled(
            out.categories[static_cast<std::size_t>(ProfileCategory::Collective)],
            {b.gradientSyncExposed + b.modelParallelComm + b.batchNormSync, collectives, 0, 0}, w);
        addScaled(out.categories[static_cast<std::size_t>(ProfileCategory::Infeed)],
                  {b.inputStall, 0, 0, 0}, w);
        addScaled(out.categories[static_cast<std::size_t>(ProfileCategory::Other)],
                  {b.overhead, 0, 0, 0}, w);
        out.trainStepS += w * r.trainStepS;
    }
    return out;
}

} // namespace podscope
