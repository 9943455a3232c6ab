#pragma once

#include "workload/Workload.hpp"

#include <cstddef>
#include <string>

namespace podscope {

// A workload setting names a file rather than a bundled workload when it ends in .json or
// .onnx or holds a path separator.
bool isWorkloadFilePath(const std::string& text);

// Reads a user's model: an ONNX model (.onnx, core/import/OnnxImport.hpp), a Hugging Face
// transformer config (JSON with model_type, architectures, n_layer or num_hidden_layers;
// HfConfig.hpp) or a workload document (docs/workloads.md). Every defect is an InputError that
// names the file.
Workload loadWorkloadFile(const std::string& path);

// The text of a JSON workload file (a document or a Hugging Face config); `path` names it.
Workload parseWorkloadText(const std::string& text, const std::string& path);

// Path, size and modification time: a file edited while the app runs is read again.
std::string workloadFileVersionKey(const std::string& path);

// The largest workload document read (a 10,000-layer graph is about 2 MB; a 16 MiB limit keeps the
// read buffer small).
inline constexpr std::size_t kMaxWorkloadFileBytes = 16u << 20;

} // namespace podscope
