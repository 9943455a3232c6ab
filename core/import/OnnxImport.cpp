#include "import/OnnxImport.hpp"

#include "common/InputError.hpp"
#include "import/OnnxLayerMapper.hpp"
#include "import/OnnxModel.hpp"
#include "import/OnnxTensorSplits.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

namespace podscope {
namespace {

std::string describe(const OnnxModel& model, const MappedLayers& mapped, const std::string& file) {
    std::ostringstream text;
    text << "Imported from " << std::filesystem::path(file).filename().string() << " (ONNX opset "
         << model.opset << "): " << mapped.operators << " operators as " << mapped.layers.size()
         << " layers per example; the batch is dimension " << model.batchAxis << " of input '"
         << model.batchInput << "'";
    if (!model.batchSymbol.empty()) {
        text << " ('" << model.batchSymbol << "')";
    }
    text << ".";
    if (mapped.unmapped.empty()) {
        text << " Every operator maps to a layer.";
    } else {
        text << " Not mapped (left out of the step):";
        for (const auto& u : mapped.unmapped) {
            text << " " << u.opType << " x" << u.count << " (" << 100 * u.flopsShare
                 << "% of FLOPs, " << 100 * u.bytesShare << "% of bytes);";
        }
    }
    for (const auto& note : mapped.notes) {
        text << " " << note << ".";
    }
    return text.str();
}

} // namespace

ImportedGraph importOnnxBytes(const std::string& bytes, const std::string& file) {
    const OnnxModel model = prepareOnnxModel(bytes, file);
    MappedLayers mapped = mapOnnxLayers(model, file);
    if (mapped.layers.empty()) {
        throw InputError("workload", file + ": no operator of the model maps to a layer");
    }
    const int splitLayers = assignTensorSplits(mapped.layers);
    if (splitLayers > 0) {
        mapped.notes.push_back(std::to_string(splitLayers) +
                               " dense layers pair up for a tensor split (column, then row)");
    }
    const std::string preferred = preferredSplit(mapped.layers);
    ImportedGraph imported;
    imported.workload = {
        {"format_version", 1},
        {"name", std::filesystem::path(file).stem().string()},
        {"description", describe(model, mapped, file)},
        {"example_unit", "example"},
        {"graph",
         {{"source", std::filesystem::path(file).filename().string() + " (ONNX import)"},
          {"variables", nlohmann::json::object()},
          {"layers", std::move(mapped.layers)}}},
        {"model_parallel", {{"preferred", preferred}}}};
    imported.unmapped = std::move(mapped.unmapped);
    return imported;
}

ImportedGraph importOnnx(const std::string& path) {
    std::error_code error;
    const auto size = std::filesystem::file_size(path, error);
    if (error) {
        throw InputError("workload", path + ": cannot read the file (" + error.message() + ")");
    }
    if (static_cast<double>(size) > kMaxModelBytes) {
        throw InputError("workload", path + ": the file is " + std::to_string(size >> 20) +
                                         " MiB, over the 2 GiB one protobuf message can hold: "
                                         "export the weights as external data (PodScope needs the "
                                         "shapes only)");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw InputError("workload", path + ": cannot open the file");
    }
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return importOnnxBytes(bytes, path);
}

} // namespace podscope
