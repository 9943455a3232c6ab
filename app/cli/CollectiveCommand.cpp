#include "CollectiveCommand.hpp"

#include "NumberFlags.hpp"
#include "OutputPaths.hpp"
#include "TextFormat.hpp"
#include "collective/AnalyticEngine.hpp"
#include "collective/CollectiveJson.hpp"
#include "collective/EventEngine.hpp"
#include "collective/FunctionalRunner.hpp"
#include "collective/Schedule.hpp"
#include "common/InputError.hpp"
#include "common/Units.hpp"
#include "machine/Machine.hpp"
#include "common/AtomicFile.hpp"
#include "topology/TopologyPresets.hpp"
#include "trace/CollectiveTraceFile.hpp"

#include <CLI/CLI.hpp>
#include <chrono>
#include <ostream>

namespace podscope::cli {

CLI::App* addCollectiveCommand(CLI::App& app, CollectiveOptions& o) {
    auto* cmd =
        app.add_subcommand("collective", "Time one collective on a topology with either engine");
    cmd->add_option("--hardware", o.hardware,
                    "Machine (podscope-cli machines lists them; default: " + defaultMachineName() +
                        ")");
    cmd->add_option("--topology", o.topology,
                    "One of the machine's presets (podscope-cli machines) or DIMS such as 128x32 "
                    "or 16x16x16 (default: the machine's first preset)");
    cmd->add_option("--wrap", o.wrap,
                    "Wrapped dimensions: x, y, xy, xyz, all or none (DIMS default: none)");
    cmd->add_flag("--twisted", o.twisted,
                  "A twisted torus (each short dimension's wrap-around lands half-way along the "
                  "long ones), on the shapes the machine marks twistable such as 4x4x8");
    cmd->add_option("--op", o.op, "all-reduce, reduce-scatter or all-gather")
        ->capture_default_str();
    cmd->add_option("--algorithm", o.algorithm, "ring, bidir-ring, 2d, 2d-dual or flat-ring")
        ->capture_default_str();
    cmd->add_option("--bytes", o.bytes, "Payload per chip: 67108864, 64MiB, 1.5GB ...")
        ->capture_default_str();
    cmd->add_option("--element", o.element, "Element type: bf16 or fp32")->capture_default_str();
    cmd->add_option("--groups", o.groups, "all, within:TILE (e.g. within:2x2) or across:TILE")
        ->capture_default_str();
    cmd->add_option("--dim-order", o.dimOrder,
                    "Order of dimensions for the reduce-scatter, e.g. yx (default: wrapped first)");
    cmd->add_option("--link-bw", o.linkBwGBps,
                    "Link bandwidth per direction in GB/s (default: the machine's)")
        ->check(realNumber());
    cmd->add_option("--cross-pod-bw", o.crossPodBwGBps,
                    "Bandwidth of links between pods in GB/s (default: --link-bw)")
        ->check(realNumber());
    cmd->add_option("--latency-us", o.latencyUs,
                    "Latency per hop in microseconds (default: the machine's calibrated value)")
        ->check(realNumber());
    cmd->add_option("--chunks", o.chunks, "Chunks that pipeline through the ring steps")
        ->check(wholeNumberFor<int>())
        ->capture_default_str();
    cmd->add_option("--engine", o.engine, "analytic or event")->capture_default_str();
    cmd->add_flag("--verify", o.verify, "Also run the schedule on real data and check the result");
    cmd->add_flag("--json", o.json, "Print one JSON object");
    cmd->add_option("--trace", o.trace,
                    "Also write the event engine's timeline as a Chrome trace (JSON) to this file");
    return cmd;
}

namespace {

Topology makeTopology(const CollectiveOptions& o) {
    const Hardware hardware = loadHardware(o.hardware.value_or(defaultMachineName()));
    const std::string topology =
        o.topology ? *o.topology : namedTopologyPresets(hardware.name).front().name;
    TopologySpec spec = resolveTopology(topology, o.wrap, hardware);
    if (o.twisted) {
        twistTopology(spec, hardware.name);
    }
    if (o.linkBwGBps) {
        if (!(*o.linkBwGBps > 0)) {
            throw InputError("link-bw", "must be a positive bandwidth in GB/s");
        }
        spec.linkBandwidthBps = *o.linkBwGBps * units::kGB;
    }
    if (o.crossPodBwGBps) {
        if (!(*o.crossPodBwGBps > 0)) {
            throw InputError("cross-pod-bw", "must be a positive bandwidth in GB/s");
        }
        spec.crossPodBandwidthBps = *o.crossPodBwGBps * units::kGB;
    }
    if (o.latencyUs) {
        spec.linkLatencyS = *o.latencyUs * units::kMicrosecond;
    }
    return Topology(std::move(spec));
}

CollectiveSpec makeSpec(const CollectiveOptions& o, const Topology& topology) {
    CollectiveSpec spec;
    spec.op = parseCollectiveOp(o.op);
    spec.algorithm = parseAlgorithm(o.algorithm);
    spec.bytesPerChip = parseByteSize(o.bytes);
    spec.element = parseElementType(o.element);
    spec.groups = parseGroupLayout(o.groups);
    if (o.dimOrder) {
        spec.dimOrder = parseDimOrder(*o.dimOrder, topology.rank());
    }
    spec.chunks = o.chunks;
    return spec;
}

void printText(const Topology& topology, const CollectiveSpec& spec, const CollectiveResult& result,
               double wallS, const std::optional<FunctionalCheck>& check, std::ostream& out) {
    out << "Topology   " << topology.spec().name << ": " << topology.dimsText() << " chips, wrap "
        << topology.wrapText() << ", " << formatCount(topology.chipCount(), "chip") << ", "
        << formatCount(topology.hostCount(), "host") << ", "
        << formatCount(topology.podCount(), "pod") << "\n";
    out << "Links      " << formatNumber(topology.spec().linkBandwidthBps / units::kGB)
        << " GB/s per direction, " << formatNumber(topology.linkLatency() / units::kMicrosecond, 2)
        << " µs per hop";
    if (topology.spec().crossPodBandwidthBps != topology.spec().linkBandwidthBps) {
        out << ", " << formatNumber(topology.spec().crossPodBandwidthBps / units::kGB)
            << " GB/s between pods";
    }
    out << "\n";
    out << "Collective " << toString(spec.op) << " of " << formatBytes(spec.bytesPerChip)
        << " per chip (" << toString(spec.element) << "), algorithm " << toString(spec.algorithm)
        << ", " << formatCount(spec.chunks, "chunk") << ", groups " << toString(spec.groups) << " ("
        << result.groupCount << " x " << result.groupSize << " chips)\n";
    out << "Engine     " << result.engine << " (" << formatDuration(wallS) << " wall";
    if (result.engine == "event") {
        out << ", " << formatCount(result.events, "ring step") << ", "
            << formatCount(result.linkOccupancies, "link occupancy", "link occupancies");
    }
    out << ")\n\n";
    for (const auto& phase : result.phases) {
        out << "  " << phase.name
            << std::string(phase.name.size() < 28 ? 28 - phase.name.size() : 1, ' ')
            << formatDuration(phase.timeS) << "\n";
    }
    out << "  total" << std::string(23, ' ') << formatDuration(result.timeS) << "\n\n";
    out << "Algorithm bandwidth  " << formatNumber(result.algbwBps / units::kGB) << " GB/s\n";
    out << "Bus bandwidth        " << formatNumber(result.busbwBps / units::kGB) << " GB/s\n";
    out << "Lower bound          " << formatDuration(result.lowerBoundS) << " (efficiency "
        << formatPercent(result.efficiency) << ")\n";
    out << "Link utilisation     max " << formatPercent(result.maxLinkUtilization) << ", mean "
        << formatPercent(result.meanLinkUtilization) << " of links used\n";
    if (check) {
        out << "Functional check     "
            << (check->verified ? "verified" : "FAILED: " + check->problem) << " ("
            << formatCount(check->elementsPerChip, "element") << " per chip)\n";
    }
}

} // namespace

void runCollectiveCommand(const CollectiveOptions& o, std::ostream& out) {
    const Topology topology = makeTopology(o);
    const CollectiveSpec spec = makeSpec(o, topology);
    if (o.engine != "analytic" && o.engine != "event") {
        throw InputError("engine",
                         "unknown engine '" + o.engine + "' (expected analytic or event)");
    }
    validateCollective(topology, spec);

    if (!o.trace.empty()) {
        // Refuse a trace that cannot be written before spending seconds on the simulation.
        checkOutputFile(o.trace, "trace");
    }

    const auto began = std::chrono::steady_clock::now();
    std::optional<EventSimulation> simulation;
    if (o.engine == "event") {
        simulation = runEventEngine(topology, spec);
    }
    const CollectiveResult result =
        simulation ? simulation->results.front() : runAnalytic(topology, spec);
    const double wallS =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    if (!o.trace.empty()) {
        // The timeline exists only in the event engine's record, whichever engine was timed.
        if (!simulation) {
            simulation = runEventEngine(topology, spec);
        }
        const std::string text =
            trace::buildCollectiveTrace(topology, spec, simulation->record).dump();
        writeFileAtomically(o.trace, text, "trace");
    }
    std::optional<FunctionalCheck> check;
    if (o.verify) {
        check = runFunctional(topology, spec);
    }

    if (o.json) {
        auto json = toJson(result);
        json["wall_s"] = wallS;
        json["topology"] = toJson(topology);
        json["collective"] = toJson(spec);
        if (check) {
            json["verified"] = check->verified;
            json["verify_elements_per_chip"] = check->elementsPerChip;
            if (!check->verified) {
                json["verify_problem"] = check->problem;
            }
        }
        out << json.dump(2) << "\n";
    } else {
        printText(topology, spec, result, wallS, check, out);
        if (!o.trace.empty()) {
            out << "Trace                " << o.trace << " (event engine timeline)\n";
        }
    }
}

} // namespace podscope::cli
