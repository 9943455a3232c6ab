#include "figure/ChartKind.hpp"

#include "common/InputError.hpp"

#include <array>
#include <utility>

namespace podscope::ui {
namespace {

constexpr std::array<std::pair<ChartKind, const char*>, 7> kNames{{
    {ChartKind::Scaling, "scaling"},
    {ChartKind::Breakdown, "breakdown"},
    {ChartKind::Batch, "batch"},
    {ChartKind::Links, "links"},
    {ChartKind::Layers, "layers"},
    {ChartKind::Roofline, "roofline"},
    {ChartKind::Machines, "machines"},
}};

} // namespace

ChartKind parseChartKind(const std::string& text) {
    for (const auto& [kind, name] : kNames) {
        if (text == name) {
            return kind;
        }
    }
    throw InputError(
        "chart", "unknown chart '" + text +
                     "'; expected scaling, breakdown, batch, links, layers, roofline or machines");
}

std::string toString(ChartKind chart) {
    for (const auto& [kind, name] : kNames) {
        if (kind == chart) {
            return name;
        }
    }
    return "breakdown";
}

} // namespace podscope::ui
