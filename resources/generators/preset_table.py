#!/usr/bin/env python3
"""Prints measured vs predicted for every preset (the table of docs/training-model.md).
Usage: resources/generators/preset_table.py [path/to/podscope-cli]"""
import json, subprocess, sys

args = [a for a in sys.argv[1:] if a != "-v"]
cli = args[0] if args else "build/bin/podscope-cli"
presets = json.loads(subprocess.check_output([cli, "presets", "--json"]))
import os
HERE = os.path.dirname(os.path.abspath(__file__))


def other_submitters_examples(preset):
    """Examples to the target from the workload's E(B) alone (fitted on other submitters' runs,
    Google's left out): the out-of-sample convergence."""
    with open(os.path.join(HERE, "..", "presets", preset + ".json")) as f:
        sc = json.load(f)["scenario"]
    with open(os.path.join(HERE, "..", "workloads", sc["workload"] + ".json")) as f:
        c = json.load(f)["convergence"]
    return c["examples_min"]["value"] * (1 + sc["global_batch"] / c["batch_noise"]["value"])


print("| preset | measured TTT (s) | predicted (s) | error | other submitters' convergence (s) | error | measured step (ms) | predicted (ms) | error | evaluations (runs) | bottleneck |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for p in presets:
    r = json.loads(subprocess.check_output([cli, "simulate", "--preset", p["name"], "--json"]))
    ref = p["reference"]
    ttt = r["time_to_train_s"]
    e1 = 100 * (ttt / ref["time_to_train_s"] - 1)
    step = ms = e2 = ""
    if "step_time_s" in ref:
        pred = r["step_time_s"] if ref["step_time_includes_eval"] else r["train_step_time_s"]
        step = "%.1f" % (1000 * ref["step_time_s"])
        ms = "%.1f" % (1000 * pred)
        e2 = "%+.1f %%" % (100 * (pred / ref["step_time_s"] - 1))
    oos = json.loads(subprocess.check_output([cli, "simulate", "--preset", p["name"], "--json",
                                              "--train-examples", "%.6g" % other_submitters_examples(p["name"])]))
    ttt2 = oos["time_to_train_s"]
    e3 = 100 * (ttt2 / ref["time_to_train_s"] - 1)
    b = r["breakdown"]
    ev = "%d (%s)" % (r["evaluations"], "%d-%d" % (ref["evaluations"]["min"], ref["evaluations"]["max"]) if "evaluations" in ref else "?")
    print("| %s | %.2f | %.2f | %+.1f %% | %.2f | %+.1f %% | %s | %s | %s | %s | %s |" % (p["name"], ref["time_to_train_s"], ttt, e1, ttt2, e3, step, ms, e2, ev, r["bottleneck"]))
    if "-v" in sys.argv:
        print("   ", {k: round(v * 1000, 3) for k, v in b.items()}, "steps", r["steps"], "evals", r["evaluations"], "eval_s", round(r["evaluation_s"], 3), "eff", round(r["compute_efficiency"], 3), "sync", round(r["gradient_sync_s"]*1000, 3))
