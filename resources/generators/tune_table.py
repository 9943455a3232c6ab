#!/usr/bin/env python3
"""The table of docs/tune.md: for each MLPerf v0.7 preset, `podscope-cli tune` at the preset's chip
count against the preset's own configuration (Google's). Run from the repository root after a
build:  python3 resources/generators/tune_table.py [build/bin/podscope-cli]"""
import json
import subprocess
import sys

CLI = sys.argv[1] if len(sys.argv) > 1 else "build/bin/podscope-cli"


def cli(*args):
    return json.loads(subprocess.run([CLI, *args], check=True, capture_output=True, text=True).stdout)


def preset_settings(scenario):
    mp = scenario["model_parallel"]
    split = "none" if mp["degree"] == 1 else f'{mp["kind"]}:{mp["degree"]}'
    g = scenario["gradient"]
    return {
        "global_batch": str(scenario["global_batch"]),
        "model_parallel": split,
        "weight_update_sharding": "on" if scenario["weight_update_sharding"] else "off",
        "gradient.precision": g["precision"],
        "gradient.overlap": g.get("overlap", "after-backward"),
        "gradient.algorithm": g["algorithm"],
        "gradient.chunks": str(g["chunks"]),
    }


def main():
    print("| preset | chips | Google's configuration (predicted) | best found | faster by | what differs | biggest part of the lead |")
    print("|---|---|---|---|---|---|---|")
    for preset in cli("presets", "--json"):
        name = preset["name"]
        sim = cli("simulate", "--preset", name, "--json")
        chips = sim["chips"]
        tune = cli("tune", "--preset", name, "--chips", str(chips), "--top", "1", "--json")
        best = tune["top"][0]
        mine = preset_settings(preset["scenario"])
        differs = [f"{k} {best['settings'][k]} ({v})" for k, v in mine.items() if best["settings"][k] != v]
        lead = sim["time_to_train_s"] - best["time_to_train_s"]
        # The part of the step breakdown that the best saves most on, over the run.
        steps_p, steps_b = sim["steps"], best["steps"]
        parts = {k: steps_p * sim["breakdown"][k] - steps_b * best["breakdown"][k] for k in best["breakdown"]}
        part = max(parts, key=parts.get)
        print(f"| {name} | {chips} | {sim['time_to_train_s']:.2f} s | {best['time_to_train_s']:.2f} s | "
              f"{100 * lead / sim['time_to_train_s']:.1f} % | {', '.join(differs) or 'the same'} | "
              f"{part.replace('_', ' ')} {parts[part]:.2f} s |")


if __name__ == "__main__":
    main()
