#pragma once

#include "training/Scenario.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace podscope {

// The configuration file format (docs/training-model.md): one JSON object. Keys: preset,
// workload, framework, hardware, topology, wrap, chips, link_bandwidth_GBps, global_batch,
// model_parallel {degree, kind}, weight_update_sharding, gradient {precision, algorithm, chunks,
// dim_order, overlap, bucket_MiB}, input {host_cpu_cores, decoded_cache, prefetch_batches, read_s,
// decode_s, augment_s, batch_s}, eval_mode, eval_every_epochs, sequence_length,
// batch_norm_group (replicas that share batch statistics), link_latency_us,
// cross_pod_bandwidth_GBps. A file that names a preset
// starts from it and overrides only the keys it has; otherwise workload, framework, topology (or
// chips) and global_batch are required. Errors are InputError naming the field and the line.
Scenario parseScenario(const std::string& text, const std::string& origin);

// Applies the keys of `object` to `scenario`; `text` (may be empty) locates lines for messages.
void applyScenarioJson(const nlohmann::json& object, Scenario& scenario, const std::string& text,
                       const std::string& origin);

// Every field written out: reading it back gives the same scenario.
nlohmann::json toJson(const Scenario& scenario);

Scenario loadScenarioFile(const std::string& path);
// Writes to a temporary file next to `path`, then renames it over `path`.
void saveScenarioFile(const std::string& path, const Scenario& scenario);

// Sets topology and wrap to the standard slice with this many chips.
void useStandardSlice(Scenario& scenario, std::int64_t chips);

} // namespace podscope
