#include "import/OnnxTensorSplits.hpp"

#include <vector>

namespace podscope {
namespace {

using nlohmann::json;

double field(const json& layer, const char* key) {
    const auto it = layer.find(key);
    return it != layer.end() && it->is_number() ? it->get<double>() : 0.0;
}

double denseMacs(const json& l) {
    return field(l, "rows") * field(l, "in") * field(l, "out");
}

double convMacs(const json& l) {
    const double k = field(l, "k");
    const double count = l.contains("count") ? field(l, "count") : 1.0;
    return count * field(l, "h") * field(l, "w") * field(l, "cin") * field(l, "cout") * k * k;
}

} // namespace

int assignTensorSplits(json& layers) {
    std::vector<json*> open;    // projections of one input, waiting for their row partner
    std::vector<json*> between; // elementwise layers on the projections' (split) results
    bool mixed = false;         // an attention or activation since them: the pair is complete
    double width = 0;           // the open projections' outputs together
    int marked = 0;
    const auto close = [&] {
        open.clear();
        between.clear();
        mixed = false;
        width = 0;
    };
    for (json& layer : layers) {
        const std::string type = layer.value("type", "");
        if (type == "dense") {
            // The partner reads what the projections made: through an attention (its heads
            // concatenated, any width) or directly their whole output.
            if (!open.empty() && mixed && field(layer, "in") <= width) {
                for (json* p : open) {
                    (*p)["split"] = "column";
                }
                for (json* e : between) {
                    (*e)["split"] = "column"; // each core holds its part of the tensor
                }
                layer["split"] = "row";
                marked += static_cast<int>(open.size()) + 1;
                close();
                continue;
            }
            // Siblings project one input (queries, keys, values); anything else starts afresh.
            if (mixed || (!open.empty() && field(layer, "in") != field(*open.front(), "in"))) {
                close();
            }
            open.push_back(&layer);
            width += field(layer, "out");
            mixed = layer.value("act", "none") != "none";
        } else if (type == "attention") {
            mixed = !open.empty();
        } else if (type == "elementwise") {
            // Transposes, slices, scales between the projections and their partner.
            if (!open.empty()) {
                between.push_back(&layer);
            }
        } else {
            close(); // a norm, conv, embedding, recurrent layer or the loss ends a pair
        }
    }
    return marked;
}

std::string preferredSplit(const json& layers) {
    double tensor = 0, spatial = 0;
    for (const json& layer : layers) {
        const std::string type = layer.value("type", "");
        if (type == "dense" && layer.value("split", "none") != "none") {
            tensor += denseMacs(layer);
        } else if (type == "conv") {
            spatial += convMacs(layer);
        }
    }
    if (tensor == 0 && spatial == 0) {
        return "none";
    }
    return tensor > spatial ? "tensor" : "spatial";
}

} // namespace podscope
