#!/usr/bin/env python3
"""Writes resources/presets/*.json: one MLPerf v0.7 row of ../shared/reference/README.md each.
The "scenario" block is a configuration file (same keys as --config); the "reference" block is
the measured result, used by tests and reports only, never by the model."""
import json, os

REF = "../shared/reference/README.md"

def preset(name, desc, scenario, ttt, ttt_src, step=None, step_incl_eval=True, step_src=None):
    ref = {"time_to_train_s": ttt, "source": ttt_src}
    if step is not None:
        ref["step_time_s"] = step
        ref["step_time_includes_eval"] = step_incl_eval
        ref["step_time_source"] = step_src
    return name, {"name": name, "description": desc, "scenario": scenario, "reference": ref}

def sc(workload, framework, batch, precision, topology=None, chips=None, mp=1, kind="none",
       wus=False, eval_mode=None, cache=True):
    s = {"workload": workload, "framework": framework}
    if chips is not None:
        s["chips"] = chips
    else:
        s["topology"] = topology
    s.update({"global_batch": batch, "model_parallel": {"degree": mp, "kind": kind},
              "weight_update_sharding": wus,
              "gradient": {"precision": precision, "algorithm": "2d", "chunks": 4},
              "input": {"decoded_cache": cache, "prefetch_batches": 2}})
    if eval_mode:
        s["eval_mode"] = eval_mode
    return s

MP = "tpu-v3-multipod"
S2 = "[B] " + REF + ", section 2 (score = mean of the runs after dropping the fastest and slowest)"
S3 = "[B] " + REF + ", section 3 (log timestamps)"
P = dict([
    preset("mlperf07-resnet50-tf-4096", "ResNet-50, TF, 4096 chips, batch 65536, data parallel, fp32 gradients",
           sc("resnet50", "tf", 65536, "fp32", MP, eval_mode="sync"), 28.89, S2, 0.0141, True, S3),
    preset("mlperf07-resnet50-jax-4096", "ResNet-50, JAX, 4096 chips, batch 65536, data parallel, fp32 gradients",
           sc("resnet50", "jax", 65536, "fp32", MP, eval_mode="sync"), 28.30, S2, 0.0144, True, S3),
    preset("mlperf07-bert-tf-4096", "BERT-large, TF, 4096 chips, batch 8192, bf16 gradient all-reduce",
           sc("bert", "tf", 8192, "bf16", MP, eval_mode="sync"), 23.57, S2, 0.0465, True, S3),
    preset("mlperf07-bert-jax-4096", "BERT-large, JAX, 4096 chips, batch 8192, weight-update sharding, asynchronous eval",
           sc("bert", "jax", 8192, "bf16", MP, wus=True, eval_mode="async"), 24.01, S2, 0.043, True, S3),
    preset("mlperf07-transformer-tf-4096", "Transformer-big, TF (Lingvo), 4096 chips, batch 2048, 4-way tensor model parallel",
           sc("transformer", "tf", 2048, "bf16", MP, mp=4, kind="tensor", eval_mode="sync"), 21.28, S2, 0.0118, True, S3),
    preset("mlperf07-transformer-jax-4096", "Transformer-big, JAX, 4096 chips, batch 2048, 4-way tensor model parallel",
           sc("transformer", "jax", 2048, "bf16", MP, mp=4, kind="tensor", eval_mode="sync"), 15.46, S2, 0.0121, True, S3),
    preset("mlperf07-ssd-tf-4096", "SSD (ResNet-34), TF, 4096 chips, batch 4096, 8-way spatial partitioning, weight-update sharding, asynchronous COCO eval",
           sc("ssd", "tf", 4096, "fp32", MP, mp=8, kind="spatial", wus=True, eval_mode="async"), 27.73, S2, 0.0086, True, S3),
    preset("mlperf07-maskrcnn-tf-512", "Mask R-CNN, TF, 512 chips, batch 256, 8-way spatial partitioning, synchronous eval",
           sc("maskrcnn", "tf", 256, "fp32", chips=512, mp=8, kind="spatial", eval_mode="sync"), 487.75, S2, 0.018, False,
           S3 + ": about 18 ms per step, training only"),
    preset("mlperf07-gnmt-tf-512", "GNMT, TF, 512 chips, batch 8192, data parallel, bf16 gradients",
           sc("gnmt", "tf", 8192, "bf16", chips=512, eval_mode="sync"), 126.07, S2, 0.0358, True, S3),
    preset("mlperf07-resnet50-tf2-16", "ResNet-50, TF2 on a Cloud v3-32 slice (16 chips), batch 4096, fp32 gradients",
           sc("resnet50", "tf2", 4096, "fp32", chips=16, eval_mode="sync"), 1722.6, S2, 4096 / (16 * 2003.0), False,
           "[B] " + REF + ", section 3: 2003 images/s per chip at 16 chips, so 4096 / (16 x 2003) s per step"),
    preset("mlperf07-bert-tf2-16", "BERT-large, TF2 on a Cloud v3-32 slice (16 chips), batch 448, bf16 gradients",
           sc("bert", "tf2", 448, "bf16", chips=16, eval_mode="sync"), 3404.4, S2, 0.4606, False, S3),
])

out = os.path.join(os.path.dirname(__file__), "..", "presets")
for name, p in P.items():
    with open(os.path.join(out, name + ".json"), "w") as f:
        json.dump(p, f, indent=2)
        f.write("\n")
print("wrote", len(P), "presets")
