#pragma once

// PodScope's public API: load a configuration, simulate it, sweep it over chip counts and
// batches, list its layers, run its step timeline, tune a model. Results are plain structs, each
// with the JSON object podscope-cli prints for the same request (docs/python.md, docs/cli.md).
#include <podscope/configuration.hpp>
#include <podscope/error.hpp>
#include <podscope/layers.hpp>
#include <podscope/settings.hpp>
#include <podscope/simulate.hpp>
#include <podscope/compare.hpp>
#include <podscope/sweep.hpp>
#include <podscope/timeline.hpp>
#include <podscope/tune.hpp>
