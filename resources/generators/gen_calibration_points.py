#!/usr/bin/env python3
"""Writes resources/calibration/tpu-v3-steps.json: measured TPU-v3 step times that the
calibration (podscope-cli calibrate) fits on or holds out.

- "fit": the eleven MLPerf v0.7 presets (their measured steps are in the preset files).
- "check": the points of ../shared/reference/compute-model.md section 4.1 that the model can
  configure, never fitted on: other chip counts and per-core batches (MLPerf v0.5, Ying et al.),
  the LAMB weak-scaling series and the JAX SSD run. v0.5 ran older software (TF 1.12), so those
  points test the shape of the model more than its absolute level.
A point is a configuration (a preset plus keys of the configuration format), what was measured
(a step time, with or without amortised evaluation, or a time to train) and its source."""
import json, os

CM = "../shared/reference/compute-model.md section 4.1"
points = []

def fit(preset, role="fit", note=""):
    pt = {"name": preset, "role": role, "preset": preset, "measured": "preset"}
    if note:
        pt["note"] = note
    points.append(pt)

for p in ["mlperf07-resnet50-tf-4096", "mlperf07-resnet50-jax-4096", "mlperf07-resnet50-tf2-16",
          "mlperf07-bert-tf-4096", "mlperf07-bert-jax-4096", "mlperf07-bert-tf2-16",
          "mlperf07-transformer-tf-4096", "mlperf07-transformer-jax-4096",
          "mlperf07-ssd-tf-4096", "mlperf07-gnmt-tf-512"]:
    fit(p)
# Mask R-CNN is held out of the fit: its step is dominated by detection-specific work (data-
# dependent gathers and scatters of RoIAlign, the loops of NMS and RoI sampling) that the layer
# graph only estimates, so fitting on it would bend the shared parameters (docs/training-model.md).
fit("mlperf07-maskrcnn-tf-512", role="check",
    note="held out of the fit: detection-specific work the layer graph only estimates")

def check(name, preset, config, step_s=None, includes_eval=False, ttt_s=None, mix=None, source="", note=""):
    pt = {"name": name, "role": "check", "preset": preset, "config": config, "source": source}
    if step_s is not None:
        pt["step_time_s"] = step_s
        pt["step_time_includes_eval"] = includes_eval
    if ttt_s is not None:
        pt["time_to_train_s"] = ttt_s
    if mix:
        pt["mix"] = mix
    if note:
        pt["note"] = note
    points.append(pt)

V05 = {"weight_update_sharding": False}
check("v0.5 resnet50 4 chips b=128", "mlperf07-resnet50-tf-4096",
      {**V05, "chips": 4, "global_batch": 1024, "batch_norm_group": 1}, step_s=1024 / (4 * 1865.0),
      source="[D] " + CM + ": MLPerf v0.5 cloud_v3.8/resnet-tpuv3-8, 7,460 images/s = 1,865 per chip")
check("v0.5 resnet50 16 chips b=128", "mlperf07-resnet50-tf-4096",
      {**V05, "chips": 16, "global_batch": 4096, "batch_norm_group": 1}, step_s=4096 / (16 * 1511.0),
      source="[D] " + CM + ": MLPerf v0.5 research_v3.32/resnet-tpuv3-32, 24,181 images/s = 1,511 per chip (median over 69 spans)")
check("v0.5 resnet50 256 chips b=32", "mlperf07-resnet50-tf-4096",
      {**V05, "chips": 256, "global_batch": 16384, "batch_norm_group": 1}, step_s=16384 / (256 * 1467.0),
      source="[D] " + CM + ": MLPerf v0.5 research_v3.512/resnet-tpuv3-512, 375,437 images/s = 1,467 per chip")
check("Ying et al. resnet50 1024 chips b=16", "mlperf07-resnet50-tf-4096",
      {"chips": 1024, "global_batch": 32768, "batch_norm_group": 1}, step_s=32768 / (1024 * 1025.0),
      source="[D] " + CM + ": Ying et al. arXiv 1811.06992, more than 1.05 million images/s on 1024 chips (a lower bound on speed)",
      note="a bound: the measured step is at most this long")
check("v0.5 gnmt 4 chips b=256", "mlperf07-gnmt-tf-512",
      {**V05, "chips": 4, "global_batch": 2048}, step_s=2048 / (4 * 1196.0),
      source="[D] " + CM + ": MLPerf v0.5 cloud_v3.8/gnmt-tpuv3-8, 4,785 sentence pairs/s = 1,196 per chip (older TPU GNMT code)")
check("v0.5 gnmt 16 chips b=128 len 48", "mlperf07-gnmt-tf-512",
      {**V05, "chips": 16, "global_batch": 4096, "sequence_length": 48}, step_s=4096 / (16 * 1214.0),
      source="[D] " + CM + ": MLPerf v0.5 research_v3.32/gnmt-tpuv3-32 with --num_buckets=1 (every sentence padded to 48), 19,427 pairs/s = 1,214 per chip")
check("v0.5 ssd 16 chips b=32", "mlperf07-ssd-tf-4096",
      {**V05, "chips": 16, "global_batch": 1024, "model_parallel": {"degree": 1, "kind": "none"}, "batch_norm_group": 1},
      step_s=1024 / (16 * 415.0),
      source="[D] " + CM + ": MLPerf v0.5 research_v3.32/ssd-tpuv3-32, 6,140-7,250 images/s = 380-450 per chip (the middle, 415)")
for chips, s_per_it in [(16, 0.2955), (32, 0.311), (64, 0.308), (128, 0.333), (256, 0.375), (512, 0.384), (1024, 0.389)]:
    check(f"LAMB bert {chips} chips b=16", "mlperf07-bert-tf-4096",
          {"chips": chips, "global_batch": 32 * chips, "weight_update_sharding": False, "gradient": {"precision": "fp32"}},
          step_s=s_per_it, mix=[{"weight": 0.9, "config": {"sequence_length": 128}}, {"weight": 0.1, "config": {}}],
          source="[D] " + CM + ": You et al. arXiv 1904.00962 v1 Table 1, BERT-large with LAMB, 90% of the steps at sequence 128 and 10% at 512, 16 sequences per core; seconds per iteration from the training times")
check("JAX ssd 2048 chips time to train", "mlperf07-ssd-tf-4096",
      {"topology": "tpu-v3-2pod", "framework": "jax", "model_parallel": {"degree": 4, "kind": "spatial"}},
      ttt_s=32.2,
      source="[A] mlcommons/training_results_v0.7 Google/results/tpu-v3-4096-JAX/ssd: time to train 30.4-34.0 s (success at epoch 70, 75 or 80)")

out = {"description": __doc__.strip(), "points": points}
path = os.path.join(os.path.dirname(__file__), "..", "calibration", "tpu-v3-steps.json")
with open(path, "w") as f:
    json.dump(out, f, indent=1)
    f.write("\n")
print("wrote", len(points), "points")
