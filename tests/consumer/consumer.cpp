// Uses PodScope through its installed public API only; exits 1 naming the first check that fails.
#include <cmath>
#include <cstdio>
#include <podscope/podscope.hpp>
#include <string>

namespace {

int failures = 0;

void check(bool ok, const char* what) {
    if (!ok) {
        std::fprintf(stderr, "consumer: FAILED: %s\n", what);
        ++failures;
    }
}

bool near(double a, double b) {
    return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b));
}

} // namespace

int main() {
    namespace api = podscope::api;
    const std::string preset = "mlperf07-bert-jax-4096";
    const api::Configuration full = api::Configuration::load({preset, "", {}});
    const api::Configuration small = api::Configuration::load({preset, "", {{"chips", 256}}});
    const api::SimulateResult a = api::simulate(full);
    const api::SimulateResult b = api::simulate(small);
    check(a.chips == 4096 && b.chips == 256, "the chips setting gives the slice");
    check(a.stepTimeS > 0 && near(a.json.at("step_time_s").get<double>(), a.stepTimeS),
          "the JSON holds the struct's step time");
    check(a.json.contains("scenario") && a.json.contains("what_if"),
          "the JSON is simulate --json's (scenario, what_if)");
    // The same batch on 16 times fewer chips: each chip has 16 times the examples per step.
    check(b.stepTimeS > a.stepTimeS, "fewer chips take longer per step for the same batch");
    double parts = 0;
    for (const auto& part : a.breakdown) {
        parts += part.seconds;
    }
    check(near(parts, a.stepTimeS), "the breakdown adds up to the step");

    // The file format round-trips: the same configuration, the same prediction.
    const api::SimulateResult again = api::simulate(api::Configuration::fromJson(full.toJson()));
    check(again.stepTimeS == a.stepTimeS,
          "a configuration read back from its JSON predicts the same");

    const auto rows = api::sweep({{preset, "", {}}, {256, 4096}, {}});
    check(rows.size() == 2 && rows[0].chips == 256 && rows[1].chips == 4096,
          "one row per chip count");
    check(rows.size() == 2 && rows[1].error.empty() && rows[1].stepTimeS == a.stepTimeS,
          "the sweep's point is simulate's");
    check(api::sweepColumns().front() == "chips" && api::sweepColumns().back() == "error",
          "the sweep's columns are sweep --csv's");

    try {
        api::Configuration::load({preset, "", {{"chunks", "x"}}});
        check(false, "a bad value is refused");
    } catch (const podscope::InputError& e) {
        check(e.field() == "chunks", "the refusal names the flag");
    }
    if (failures == 0) {
        std::printf("consumer: %s, 4096 chips: step %.6f s; 256 chips: step %.6f s\n",
                    preset.c_str(), a.stepTimeS, b.stepTimeS);
    }
    return failures == 0 ? 0 : 1;
}
