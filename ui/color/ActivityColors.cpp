#include "color/ActivityColors.hpp"

#include "figure/Palette.hpp"

namespace podscope::ui {

Rgb activityColor(podscope::ChipActivity activity) {
    switch (activity) {
    case podscope::ChipActivity::Forward:
        return palette::kSkyBlue;
    case podscope::ChipActivity::Backward:
        return palette::kBlue;
    case podscope::ChipActivity::GradientSync:
        return palette::kOrange;
    case podscope::ChipActivity::ModelParallel:
        return palette::kReddishPurple;
    case podscope::ChipActivity::BatchNormSync:
        return palette::kBluishGreen;
    case podscope::ChipActivity::Optimizer:
        return palette::kVermillion;
    case podscope::ChipActivity::Evaluating:
        return palette::kYellow;
    case podscope::ChipActivity::WaitingForInput:
        return Rgb{245, 245, 245}; // near white: the brightest of the greys
    case podscope::ChipActivity::WaitingAtBarrier:
        return Rgb{170, 170, 170};
    case podscope::ChipActivity::Idle:
        return Rgb{96, 96, 96};
    }
    return Rgb{96, 96, 96};
}

const std::vector<podscope::ChipActivity>& activitiesInLegendOrder() {
    static const std::vector<podscope::ChipActivity> order = {
        podscope::ChipActivity::Forward,          podscope::ChipActivity::Backward,
        podscope::ChipActivity::ModelParallel,    podscope::ChipActivity::BatchNormSync,
        podscope::ChipActivity::GradientSync,     podscope::ChipActivity::Optimizer,
        podscope::ChipActivity::Evaluating,       podscope::ChipActivity::WaitingForInput,
        podscope::ChipActivity::WaitingAtBarrier, podscope::ChipActivity::Idle};
    return order;
}

Legend activityLegend() {
    Legend legend;
    legend.title = "Chip activity";
    legend.continuous = false;
    for (const podscope::ChipActivity activity : activitiesInLegendOrder()) {
        legend.categories.emplace_back(podscope::toString(activity), activityColor(activity));
    }
    return legend;
}

bool carriesTraffic(podscope::ChipActivity activity) {
    return activity == podscope::ChipActivity::GradientSync ||
           activity == podscope::ChipActivity::ModelParallel ||
           activity == podscope::ChipActivity::BatchNormSync;
}

} // namespace podscope::ui
