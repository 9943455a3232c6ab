#include "import/OnnxLayerNames.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

namespace podscope {

// "layer1.0.conv1.weight" -> "layer1"; "encoder.layers.encoder_layer_3.mlp.0.weight" ->
// "encoder.layers.encoder_layer_3": up to the first numbered part, else all but the last.
std::string groupOfWeight(const std::string& weight) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (true) {
        const auto dot = weight.find('.', start);
        parts.push_back(weight.substr(start, dot - start));
        if (dot == std::string::npos) {
            break;
        }
        start = dot + 1;
    }
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
        if (std::any_of(parts[i].begin(), parts[i].end(),
                        [](unsigned char c) { return std::isdigit(c); })) {
            std::string g = parts[0];
            for (std::size_t k = 1; k <= i; ++k) {
                g += "." + parts[k];
            }
            return g;
        }
    }
    if (parts.size() == 1) {
        return parts[0];
    }
    std::string g = parts[0];
    for (std::size_t k = 1; k + 1 < parts.size(); ++k) {
        g += "." + parts[k];
    }
    return g;
}

std::string layerNameOfWeight(const std::string& weight) {
    for (const char* suffix : {".weight", "_weight", ".bias", "_bias"}) {
        const std::string s = suffix;
        if (weight.size() > s.size() &&
            weight.compare(weight.size() - s.size(), s.size(), s) == 0) {
            return weight.substr(0, weight.size() - s.size());
        }
    }
    return weight;
}

} // namespace podscope
