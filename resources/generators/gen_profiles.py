#!/usr/bin/env python3
"""Writes resources/profiles/<model>.json: the per-step summary of Google's TPU-v3 per-op profiles
of the MLPerf v0.7 models (github.com/google/paragraph, paragraph/data/
hlo_after_optimizations_<model>_32_tpuv3_stats.csv, Apache-2.0) with the configuration each was
taken at. The "measured" block is what `podscope-cli profile --table ... --measured-json` reads
off the table; only these derived totals ship, not the tables.

usage: gen_profiles.py PODSCOPE_CLI PARAGRAPH_GIT_DIR   (the git folder of a clone of google/paragraph)
"""
import csv, io, json, os, subprocess, sys

CLI, GIT = sys.argv[1], sys.argv[2]
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "profiles")
COMMIT = subprocess.check_output(["git", "--git-dir", GIT, "rev-parse", "HEAD"], text=True).strip()
PATH = "paragraph/data/hlo_after_optimizations_{}_32_tpuv3_stats.csv"

# What the HLO shows of each run (shared/reference/paragraph/README.md section 1): 64 cores
# (replica_groups={{0..63}}), the per-core batch from the activation shapes, data parallel only,
# full (not sharded) weight updates, the gradient precision of the all-reduce.
def scenario(preset, global_batch, precision="bf16", **extra):
    s = {"preset": preset, "chips": 32, "global_batch": global_batch,
         "model_parallel": {"degree": 1, "kind": "none"}, "weight_update_sharding": False,
         "gradient": {"precision": precision}}
    s.update(extra)
    return s

MODELS = {
    "resnet": dict(table="resnet", desc="ResNet-50 v1.5 (TF1, LARS), 128 images per core (bf16[128,56,56,256])",
                   configs=[scenario("mlperf07-resnet50-tf-4096", 8192, batch_norm_group=1)], exclude=[]),
    "bert": dict(table="bert", desc="BERT-large (TF1, LAMB), 32 sequences of 512 per core (bf16[32,512,1024]); "
                 "XLA recomputed 63 forward matmul fusions to fit in HBM",
                 configs=[scenario("mlperf07-bert-tf-4096", 2048, sequence_length=512)], exclude=[]),
    "transformer": dict(table="transformer", desc="Transformer-big (tensor2tensor TF1, Adam), 16 x 256 tokens per core",
                        configs=[scenario("mlperf07-transformer-tf-4096", 1024, sequence_length=256)], exclude=[]),
    # The window holds 5 evaluation steps (while_1/, one top-k custom call with impossible rates).
    "ssd": dict(table="ssd", desc="SSD-ResNet-34 (TF1, momentum), 16 images per core, no spatial partitioning",
                configs=[scenario("mlperf07-ssd-tf-4096", 1024, batch_norm_group=1)],
                exclude=["while_1/", "%custom-call.724 ="]),
    "maskrcnn": dict(table="maskrcnn", desc="Mask R-CNN R50-FPN (TF1, momentum), 4 images per core, no spatial "
                     "partitioning (two orientation branches)",
                     configs=[scenario("mlperf07-maskrcnn-tf-512", 256, precision="fp32")], exclude=[]),
    # The window holds a beam-search evaluation (BeamSearch ops and its [320,...] / [64,5,...] shapes).
    "gnmt": dict(table="nmt", desc="GNMT (TF1, Adam), 256 sentences per core in length buckets 18/24/30/42/48",
                 buckets=[18, 24, 30, 42, 48], exclude=["BeamSearch", "[320,", "[320]{", "[64,5,", "[64,5]{"]),
}

def bucket_steps(text, length, exclude):
    """Steps of one GNMT bucket: the time-weighted runs per core of the ops on its logits [256 L, 32316]."""
    time = per_run = 0.0
    for r in csv.DictReader(io.StringIO(text)):
        if f"[{256 * length},32316]" in r["HLO op"] and not any(e in r["TF op"] or e in r["HLO op"] for e in exclude):
            t, n = float(r["Total self time (us)"]), int(r["#Occurrences"]) / 64
            time += t; per_run += t / n
    return time / per_run

for name, m in MODELS.items():
    path = PATH.format(m["table"])
    text = subprocess.check_output(["git", "--git-dir", GIT, "show", f"HEAD:{path}"], text=True)
    tmp = os.path.join(OUT, f".{name}.csv")
    with open(tmp, "w") as f:
        f.write(text)
    args = [CLI, "profile", "--table", tmp, "--measured-json"]
    for e in m["exclude"]:
        args += ["--exclude", e]
    measured = json.loads(subprocess.check_output(args, text=True))
    os.remove(tmp)
    if "buckets" in m:
        configs = [{"weight": round(bucket_steps(text, L, m["exclude"]), 3),
                    "scenario": scenario("mlperf07-gnmt-tf-512", 16384, sequence_length=L)} for L in m["buckets"]]
        weights_note = "weights: steps of each bucket in the window (time-weighted runs of the ops on its logits)"
    else:
        configs = [{"weight": 1, "scenario": c} for c in m["configs"]]
        weights_note = "one configuration"
    doc = {
        "name": name,
        "description": m["desc"] + "; 32 TPU-v3 chips (64 cores), MLPerf v0.7 code.",
        "source": {"repository": "google/paragraph", "path": path, "commit": COMMIT, "licence": "Apache-2.0",
                   "note": "XProf HLO op stats of one capture window; derived with resources/generators/gen_profiles.py "
                           "(podscope-cli profile --measured-json). Configuration read from the HLO shapes: "
                           "shared/reference/paragraph/README.md section 1; " + weights_note},
        "configurations": configs,
        "measured": measured,
    }
    with open(os.path.join(OUT, f"{name}.json"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print(name, f"{measured['step_s'] * 1e3:.2f} ms per step")
