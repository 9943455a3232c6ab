#include "workload/WorkloadFile.hpp"

#include "common/InputError.hpp"
#include "common/Limits.hpp"
#include "common/TextFile.hpp"
#include "import/OnnxImport.hpp"
#include "workload/HfConfig.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>

namespace podscope {
namespace {

using nlohmann::json;

bool endsWith(const std::string& text, const std::string& tail) {
    return text.size() >= tail.size() &&
           text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

json parseDocument(const std::string& text, const std::string& path) {
    // Workload documents are four levels deep (graph, layers, layer, field); refuse deep
    // nesting while parsing so that garbage cannot recurse far.
    const json::parser_callback_t depthLimit = [&](int depth, json::parse_event_t, json&) {
        if (depth > limits::kMaxJsonDepth) {
            throw InputError(path, "nested deeper than " + std::to_string(limits::kMaxJsonDepth) +
                                       " levels");
        }
        return true;
    };
    try {
        return json::parse(text.begin(), text.end(), depthLimit);
    } catch (const json::exception& e) {
        throw InputError(path, std::string("not valid JSON: ") + e.what());
    }
}

// A name for a model read from a file: its stem, or the folder of a config.json.
std::string nameFromPath(const std::string& path) {
    const std::filesystem::path p(path);
    if (p.filename() == "config.json" && p.has_parent_path() &&
        !p.parent_path().filename().empty()) {
        return p.parent_path().filename().string();
    }
    return p.stem().string();
}

Workload parseChecked(const json& document, const std::string& path) {
    try {
        return parseWorkload(document, path);
    } catch (const InputError&) {
        throw;
    } catch (const std::exception& e) {
        // A type mismatch nlohmann reports: still the user's file, never an internal error.
        throw InputError(path, e.what());
    }
}

} // namespace

bool isWorkloadFilePath(const std::string& text) {
    return endsWith(text, ".json") || endsWith(text, ".onnx") ||
           text.find('/') != std::string::npos || text.find('\\') != std::string::npos;
}

std::string workloadFileVersionKey(const std::string& path) {
    std::error_code error;
    const auto size = std::filesystem::file_size(path, error);
    const auto time = std::filesystem::last_write_time(path, error);
    return path + "|" + std::to_string(error ? 0 : size) + "|" +
           std::to_string(error ? 0 : time.time_since_epoch().count());
}

Workload loadWorkloadFile(const std::string& path) {
    if (endsWith(path, ".onnx")) {
        ImportedGraph imported;
        try {
            imported = importOnnx(path);
        } catch (const InputError&) {
            throw;
        } catch (const std::exception& e) {
            throw InputError(path, e.what()); // the user's file, never an internal error
        }
        Workload w = parseChecked(imported.workload, path);
        w.file = path;
        w.unmapped = std::move(imported.unmapped);
        return w;
    }
    const std::string text = readUserTextFile(path, "workload", kMaxWorkloadFileBytes);
    if (text.size() > kMaxWorkloadFileBytes) {
        throw InputError(path, "larger than " + std::to_string(kMaxWorkloadFileBytes >> 20) +
                                   " MiB: not a workload document");
    }
    Workload w = parseWorkloadText(text, path);
    w.file = path;
    return w;
}

Workload parseWorkloadText(const std::string& text, const std::string& path) {
    const json document = parseDocument(text, path);
    return isHfConfig(document)
               ? parseChecked(hfConfigWorkload(document, path, nameFromPath(path)), path)
               : parseChecked(document, path);
}

} // namespace podscope
