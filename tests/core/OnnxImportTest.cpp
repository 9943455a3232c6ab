#include "import/OnnxImport.hpp"
#include "workload/LayerGraph.hpp"

#include <gtest/gtest.h>

#include <iostream>

namespace podscope {
namespace {

std::string fixture(const std::string& name) {
    return std::string(PODSCOPE_ONNX_FIXTURES) + "/" + name + ".onnx";
}

LayerGraph bound(const ImportedGraph& imported) {
    return bindLayerGraph(parseLayerGraphSpec(imported.workload.at("graph"), "test"), {});
}

TEST(OnnxImport, Dump) {
    for (const char* name : {"resnet50", "vit_b_16", "mobilenet_v3_large", "efficientnet_b0", "transformer"}) {
        const ImportedGraph g = importOnnx(fixture(name));
        const LayerGraph lg = bound(g);
        std::cout << name << " layers " << lg.layers.size() << " params " << lg.parameters() << " macs "
                  << lg.forwardMacsPerExample() << "\n" << g.workload.at("description") << "\n";
        if (getenv("DUMP") && std::string(getenv("DUMP")) == name) {
            std::cout << g.workload.dump(1) << "\n";
        }
    }
}

} // namespace
} // namespace podscope
