#include "profile/ProfileCategory.hpp"

#include <algorithm>
#include <cctype>

namespace podscope {

namespace {

constexpr std::array<std::string_view, kProfileCategoryCount> kKeys = {
    "matmul",         "elementwise", "reduction", "data_formatting",
    "gather_scatter", "collective",  "infeed",    "other"};
constexpr std::array<std::string_view, kProfileCategoryCount> kLabels = {
    "matmul/convolution", "elementwise", "reductions",     "data formatting",
    "gathers/scatters",   "collectives", "infeed/outfeed", "other"};

bool isOneOf(std::string_view text, std::initializer_list<std::string_view> names) {
    return std::find(names.begin(), names.end(), text) != names.end();
}

// Elements of the largest array shape ("bf16[128,56,56,256]{...}") in `text`; 0 when none.
double largestShapeElements(std::string_view text) {
    double largest = 0;
    std::size_t i = 0;
    while ((i = text.find('[', i)) != std::string_view::npos) {
        // A shape's brackets follow its element type (f32, bf16, s32, pred ...).
        if (i == 0 || !std::isalnum(static_cast<unsigned char>(text[i - 1]))) {
            ++i;
            continue;
        }
        double elements = 1, dim = 0;
        bool digits = false, ok = true;
        std::size_t j = i + 1;
        for (; j < text.size() && text[j] != ']'; ++j) {
            const char c = text[j];
            if (c >= '0' && c <= '9') {
                dim = std::min(dim * 10 + (c - '0'), 1e18); // bounded: only a ratio is needed
                digits = true;
            } else if (c == ',' && digits) {
                elements *= dim;
                dim = 0;
                digits = false;
            } else {
                ok = false;
                break;
            }
        }
        if (ok && j < text.size()) {
            if (digits) {
                elements *= dim;
            }
            largest = std::max(largest, std::min(elements, 1e300));
        }
        i = j;
    }
    return largest;
}

bool shrinksItsOperand(std::string_view hloText) {
    // "%name = OUTPUT opcode(OPERANDS), attributes": the output is a shape or a tuple of shapes.
    const std::size_t equals = hloText.find(" = ");
    if (equals == std::string_view::npos) {
        return false;
    }
    std::string_view rest = hloText.substr(equals + 3);
    std::size_t outputEnd = 0;
    if (!rest.empty() && rest.front() == '(') {
        int depth = 0;
        for (; outputEnd < rest.size(); ++outputEnd) {
            depth += rest[outputEnd] == '(' ? 1 : rest[outputEnd] == ')' ? -1 : 0;
            if (depth == 0) {
                break;
            }
        }
    } else {
        outputEnd = rest.find(' ');
    }
    if (outputEnd == std::string_view::npos || outputEnd >= rest.size()) {
        return false;
    }
    const double output = largestShapeElements(rest.substr(0, outputEnd + 1));
    const double operand = largestShapeElements(rest.substr(outputEnd + 1));
    return output > 0 && operand >= 8 * output;
}

} // namespace

std::string_view key(ProfileCategory category) {
    return kKeys.at(static_cast<std::size_t>(category));
}
std::string_view label(ProfileCategory category) {
    return kLabels.at(static_cast<std::size_t>(category));
}

ProfileCategory classifyProfileOp(std::string_view c, std::string_view hloText) {
    if (isOneOf(c, {"convolution fusion", "convolution", "output fusion", "dot", "dot fusion"})) {
        return ProfileCategory::Matmul;
    }
    if (isOneOf(c, {"loop fusion", "non-fusion elementwise"})) {
        return shrinksItsOperand(hloText) ? ProfileCategory::Reduction
                                          : ProfileCategory::Elementwise;
    }
    if (isOneOf(c, {"broadcast", "iota", "pad", "slice", "concatenate", "convert", "constant"})) {
        return ProfileCategory::Elementwise;
    }
    if (isOneOf(c, {"reduce", "reduce-window", "input fusion", "reduce fusion"})) {
        return ProfileCategory::Reduction;
    }
    if (isOneOf(c, {"data formatting", "transpose", "copy", "reshape", "bitcast"})) {
        return ProfileCategory::DataFormatting;
    }
    if (isOneOf(c, {"gather fusion", "scatter fusion", "gather", "scatter", "select-and-scatter",
                    "custom fusion", "dynamic-slice", "dynamic-update-slice",
                    "dynamic-update-slice fusion"})) {
        return ProfileCategory::GatherScatter;
    }
    if (isOneOf(c,
                {"all-reduce", "all-gather", "all-to-all", "collective-permute", "reduce-scatter",
                 "all-reduce fusion", "all-reduce-start", "all-reduce-done"})) {
        return ProfileCategory::Collective;
    }
    if (isOneOf(c, {"infeed", "outfeed", "send", "recv", "send-done", "recv-done"})) {
        return ProfileCategory::Infeed;
    }
    return ProfileCategory::Other;
}

} // namespace podscope
