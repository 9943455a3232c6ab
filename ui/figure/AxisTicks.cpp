#include "figure/AxisTicks.hpp"

#include "common/NumberFormat.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace podscope::ui {
namespace {

struct Suffix {
    double unit;
    const char* symbol;
};

// The largest suffix whose unit `magnitude` reaches.
Suffix suffixFor(double magnitude, NumberStyle style) {
    if (style == NumberStyle::Binary) {
        constexpr double k = 1024;
        if (magnitude >= k * k * k) {
            return {k * k * k, "G"};
        }
        if (magnitude >= k * k) {
            return {k * k, "M"};
        }
        if (magnitude >= k) {
            return {k, "k"};
        }
        return {1, ""};
    }
    if (magnitude >= 1e9) {
        return {1e9, "G"};
    }
    if (magnitude >= 1e6) {
        return {1e6, "M"};
    }
    if (magnitude >= 1e4) { // 1000 to 9999 read well as they are
        return {1e3, "k"};
    }
    return {1, ""};
}

// Fewest decimals (up to 6) that write `scaled` exactly, for log ticks: 0.25, 0.5, 64.
int exactDecimals(double scaled) {
    for (int d = 0; d < 6; ++d) {
        const double p = std::pow(10.0, d);
        if (std::abs(std::round(scaled * p) - scaled * p) < 1e-6 * std::max(1.0, scaled * p)) {
            return d;
        }
    }
    return 6;
}

// Multiplies a 1-2-5 step up to the next one: 1 -> 2 -> 5 -> 10.
double nextStep(double step) {
    const double exponent = std::floor(std::log10(step) + 1e-9);
    const double mantissa = step / std::pow(10.0, exponent);
    if (mantissa < 1.5) {
        return 2 * std::pow(10.0, exponent);
    }
    if (mantissa < 3.5) {
        return 5 * std::pow(10.0, exponent);
    }
    return 10 * std::pow(10.0, exponent);
}

// `value` in units of the suffix, with the decimals that `step` needs.
std::string withSuffix(double value, double step, Suffix s) {
    if (value == 0) {
        return "0";
    }
    // As many decimals as the step needs, so that neighbouring labels differ: 2.5 -> 1.
    const double scaledStep = std::abs(step) / s.unit;
    return fixedDecimals(value / s.unit, scaledStep > 0 ? exactDecimals(scaledStep) : 0) + s.symbol;
}

// On a decimal axis that reaches 10k, thousands are "1k" too, so that 5k sits below 10k.
std::string formatLogTick(double value, NumberStyle style, double largest) {
    Suffix s = suffixFor(std::abs(value), style);
    if (style == NumberStyle::Decimal && s.unit == 1 && std::abs(value) >= 1e3 && largest >= 1e4) {
        s = {1e3, "k"};
    }
    return fixedDecimals(value / s.unit, exactDecimals(value / s.unit)) + s.symbol;
}

} // namespace

std::string formatTick(double value, NumberStyle style, double step) {
    return withSuffix(value, step, suffixFor(std::max(std::abs(value), std::abs(step)), style));
}

double niceStep(double roughStep) {
    if (!(roughStep > 0) || !std::isfinite(roughStep)) {
        return 1;
    }
    const double exponent = std::floor(std::log10(roughStep));
    const double base = std::pow(10.0, exponent);
    const double mantissa = roughStep / base;
    for (const double nice : {1.0, 2.0, 5.0}) {
        if (mantissa <= nice * (1 + 1e-9)) {
            return nice * base;
        }
    }
    return 10 * base;
}

std::vector<AxisTicks> linearTickChoices(double low, double high, bool fromZero, NumberStyle style,
                                         int maxTicks) {
    if (!std::isfinite(low) || !std::isfinite(high)) {
        low = 0;
        high = 1;
    }
    if (low > high) {
        std::swap(low, high);
    }
    if (fromZero && low >= 0) {
        low = 0;
    }
    if (high - low <= 0) {
        // One value: a range around it (or 0..1 for zero).
        const double around = low == 0 ? 1 : std::abs(low) * 0.5;
        high = low + around;
        low = fromZero && low >= 0 ? 0 : low - around;
    }
    maxTicks = std::max(maxTicks, 2);
    std::vector<AxisTicks> choices;
    for (double step = niceStep((high - low) / (maxTicks - 1));; step = nextStep(step)) {
        const double first = std::floor(low / step + 1e-9);
        const double last = std::ceil(high / step - 1e-9);
        const auto count = static_cast<int>(std::lround(last - first)) + 1;
        if (count <= maxTicks) {
            AxisTicks choice;
            choice.low = first * step;
            choice.high = last * step;
            // The largest tick decides the suffix, so that the whole axis reads 0, 5k, 10k.
            const Suffix suffix =
                suffixFor(std::max(std::abs(choice.low), std::abs(choice.high)), style);
            for (int i = 0; i < count; ++i) {
                const double value = (first + i) * step;
                choice.ticks.push_back({value == 0 ? 0.0 : value, withSuffix(value, step, suffix)});
            }
            choices.push_back(std::move(choice));
        }
        if (count <= 2) {
            break;
        }
    }
    return choices;
}

std::vector<AxisTicks> logTickChoices(double low, double high, int base, NumberStyle style) {
    if (!(low > 0) || !(high > 0) || !std::isfinite(low) || !std::isfinite(high)) {
        low = 1;
        high = base;
    }
    if (low > high) {
        std::swap(low, high);
    }
    const double widen = base == 2 ? std::pow(2.0, 0.25) : std::pow(10.0, 0.1);
    const double rangeLow = low / widen;
    const double rangeHigh = high * widen;
    std::vector<AxisTicks> choices;
    auto add = [&](const std::vector<double>& values) {
        AxisTicks choice{rangeLow, rangeHigh, {}};
        for (const double v : values) {
            if (v >= rangeLow * (1 - 1e-12) && v <= rangeHigh * (1 + 1e-12)) {
                choice.ticks.push_back({v, ""});
            }
        }
        for (Tick& t : choice.ticks) {
            t.label = formatLogTick(t.value, style, choice.ticks.back().value);
        }
        if (!choice.ticks.empty() &&
            std::none_of(choices.begin(), choices.end(),
                         [&](const AxisTicks& c) { return c.ticks == choice.ticks; })) {
            choices.push_back(std::move(choice));
        }
    };
    if (base == 2) {
        const int first = static_cast<int>(std::ceil(std::log2(rangeLow) - 1e-9));
        const int last = static_cast<int>(std::floor(std::log2(rangeHigh) + 1e-9));
        for (int stride = 1; stride <= std::max(1, last - first); stride *= 2) {
            std::vector<double> values;
            for (int e = first; e <= last; ++e) {
                if (((e % stride) + stride) % stride == 0) {
                    values.push_back(std::ldexp(1.0, e));
                }
            }
            add(values);
            if (values.size() <= 2) {
                break;
            }
        }
        return choices;
    }
    const int first = static_cast<int>(std::floor(std::log10(rangeLow)));
    const int last = static_cast<int>(std::ceil(std::log10(rangeHigh)));
    // Within a decade or so, one mark per decade at 2 or 5 can be all that fits and still give
    // two ticks where a mark at 1 gives one.
    for (const auto& mantissas :
         {std::vector<double>{1, 2, 5}, std::vector<double>{1, 5}, std::vector<double>{1},
          std::vector<double>{2}, std::vector<double>{5}}) {
        std::vector<double> values;
        for (int e = first; e <= last; ++e) {
            for (const double m : mantissas) {
                values.push_back(m * std::pow(10.0, e));
            }
        }
        add(values);
    }
    for (int stride = 1; stride <= std::max(1, last - first); ++stride) {
        std::vector<double> values;
        for (int e = first; e <= last; ++e) {
            if (((e % stride) + stride) % stride == 0) {
                values.push_back(std::pow(10.0, e));
            }
        }
        add(values);
    }
    // Densest first; among as many ticks, decades before 2s and 5s (the order they came in).
    std::stable_sort(choices.begin(), choices.end(), [](const AxisTicks& a, const AxisTicks& b) {
        return a.ticks.size() > b.ticks.size();
    });
    return choices;
}

bool spansDecade(double low, double high) {
    return low > 0 && high > 0 && std::max(low, high) / std::min(low, high) >= 10 * (1 - 1e-9);
}

AxisTicks chooseTicks(const std::vector<AxisTicks>& choices, double lengthPx, double gapPx,
                      const std::function<double(const AxisTicks&, double value)>& position,
                      const std::function<double(const std::string&)>& extent) {
    for (const AxisTicks& choice : choices) {
        bool fits = true;
        for (std::size_t i = 1; i < choice.ticks.size() && fits; ++i) {
            const double distance = std::abs(position(choice, choice.ticks[i].value) -
                                             position(choice, choice.ticks[i - 1].value));
            const double needed =
                (extent(choice.ticks[i].label) + extent(choice.ticks[i - 1].label)) / 2 + gapPx;
            fits = distance >= needed;
        }
        if (fits && lengthPx > 0) {
            return choice;
        }
    }
    return choices.empty() ? AxisTicks{} : choices.back();
}

} // namespace podscope::ui
