#include "training/Rematerialization.hpp"

#include "common/InputError.hpp"

#include <algorithm>
#include <cstddef>
#include <vector>

namespace podscope {
namespace {

// Activations that recomputing layer i spares: what it keeps of its own outputs and what the
// next layer keeps of its input (the layer graph is a chain). Its own input stays: the
// recompute starts from it.
double sparedBytes(const std::vector<LayerCost>& layers, std::size_t i) {
    const LayerCost& c = layers[i];
    const double next = i + 1 < layers.size() ? layers[i + 1].savedInputBytes : 0;
    return c.savedBytes - c.savedInputBytes + next;
}

// The most activations live at once in the backward pass (layers run last to first, each freeing
// what it kept): all that is kept when it starts, or, when a run of consecutive recomputed
// layers is recomputed (from its first layer's input, just before the backward pass of the layer
// after it), what the layers up to that one keep plus all the run spares.
double peakActivations(const std::vector<LayerCost>& layers, const std::vector<char>& recomputed) {
    const std::size_t n = layers.size();
    auto kept = [&](std::size_t k) {
        const LayerCost& c = layers[k];
        double bytes = c.savedBytes;
        if (recomputed[k]) {
            bytes -= c.savedBytes - c.savedInputBytes;
        }
        if (k > 0 && recomputed[k - 1]) {
            bytes -= c.savedInputBytes;
        }
        return bytes;
    };
    double keptUpTo = 0, peak = 0, run = 0;
    for (std::size_t k = 0; k < n; ++k) {
        keptUpTo += kept(k);
        if (!recomputed[k]) {
            continue;
        }
        run += sparedBytes(layers, k);
        if (k + 1 == n || !recomputed[k + 1]) {
            const double next = k + 1 < n ? kept(k + 1) : 0;
            peak = std::max(peak, keptUpTo + next + run);
            run = 0;
        }
    }
    return std::max(peak, keptUpTo);
}

struct Candidate {
    std::size_t layer = 0;
    double bytes = 0;   // activations spared
    double seconds = 0; // the forward pass again
};

// The recomputed layers' forward halos and tensor all-reduces run again with them (batch norm
// reuses the statistics it kept); gradient buckets complete after the recomputes before them.
void rescheduleExchanges(StepPlan& p) {
    const std::size_t original = p.exchanges.size();
    for (std::size_t i = 0; i < original; ++i) {
        const Exchange e = p.exchanges[i];
        const bool again =
            e.phase == StepPhase::Forward && e.layer >= 0 &&
            p.layers[static_cast<std::size_t>(e.layer)].recompute.seconds > 0 &&
            (e.kind == ExchangeKind::Halo || e.kind == ExchangeKind::TensorAllReduce);
        if (again) {
            Exchange copy = e;
            copy.phase = StepPhase::Backward;
            p.exchanges.push_back(copy);
        }
    }
    for (Exchange& e : p.exchanges) {
        if (e.kind != ExchangeKind::GradientReduce || e.phase != StepPhase::Backward ||
            e.layer < 0) {
            continue;
        }
        // Layer j is recomputed before the backward pass of layer j + 1, which needs its output.
        const std::size_t first = e.layer > 0 ? static_cast<std::size_t>(e.layer) - 1 : 0;
        for (std::size_t j = first; j < p.layers.size(); ++j) {
            e.readyAfterS += p.layers[j].recompute.seconds;
        }
    }
}

} // namespace

void rematerialize(StepPlan& p, RematPolicy policy) {
    MemoryUse& m = p.memory;
    if (policy == RematPolicy::Off || m.fits()) {
        return;
    }
    std::vector<Candidate> candidates;
    for (std::size_t i = 0; i < p.layers.size(); ++i) {
        const double bytes = sparedBytes(p.layers, i);
        const double seconds = p.layers[i].forward.seconds;
        if (bytes > 0 && seconds > 0) {
            candidates.push_back({i, bytes, seconds});
        }
    }
    // Cheapest first: the least forward time per byte spared; ties in layer order.
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const Candidate& a, const Candidate& b) {
                         return a.seconds * b.bytes < b.seconds * a.bytes;
                     });
    const double others = m.total() - m.activations;
    const double kept = m.activations;
    double peak = kept;
    std::vector<char> recomputed(p.layers.size(), 0);
    for (const Candidate& c : candidates) {
        if (others + peak <= m.capacity) {
            break;
        }
        recomputed[c.layer] = 1;
        const double tried = peakActivations(p.layers, recomputed);
        if (tried >= peak) {
            recomputed[c.layer] = 0; // live again at once, it would save nothing
            continue;
        }
        peak = tried;
    }
    for (std::size_t i = 0; i < p.layers.size(); ++i) {
        if (recomputed[i]) {
            LayerCost& layer = p.layers[i];
            layer.recompute = layer.forward;
            layer.sparedBytes = sparedBytes(p.layers, i);
            m.recompute.layers += 1;
            m.recompute.seconds += layer.forward.seconds;
        }
    }
    if (m.recompute.layers == 0) {
        return;
    }
    m.activations = peak;
    m.recompute.savedBytes = kept - peak;
    rescheduleExchanges(p);
}

std::string toString(RematPolicy policy) {
    return policy == RematPolicy::Auto ? "auto" : "off";
}

RematPolicy parseRematPolicy(const std::string& text, const std::string& field) {
    if (text == "auto") {
        return RematPolicy::Auto;
    }
    if (text == "off") {
        return RematPolicy::Off;
    }
    throw InputError(field, "'" + text + "' is not a rematerialization policy (auto, off)");
}

} // namespace podscope
