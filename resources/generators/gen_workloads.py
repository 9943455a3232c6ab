#!/usr/bin/env python3
"""Writes resources/workloads/*.json. Every number carries its source.

- The layer graph of each model comes from layer_graphs.py (the architecture as the reference
  implementation writes it); the core lowers it to per-core kernels.
- Convergence: examples to the target against global batch follows McCandlish et al. 2018
  (arXiv 1812.06162), E(B) = E_min (1 + B / B_noise), fitted here per model on the MLPerf-target,
  closed-division points of ../shared/reference/convergence-points.csv (relative least squares).
  Google's own TPU-v3 runs enter as measured points: a framework's recipe scales the fitted curve
  so that it passes through that framework's measured point.
- Evaluation, start-up and input costs are measured facts from the logs or stated assumptions.

Edit the numbers here, run this script, rebuild."""
import csv, json, os, re

from layer_graphs import BUILDERS, DECODERS, PROFILE_NMT

HERE = os.path.dirname(os.path.abspath(__file__))
REF = "../shared/reference/README.md"
CONV_CSV = os.path.join(HERE, "..", "..", "..", "shared", "reference", "convergence-points.csv")
CONV_REF = "../shared/reference/convergence-points.csv"


def V(value, source):
    return {"value": value, "source": source}


def input_block(read, decode, augment, batch, bytes_to_device, source):
    return {"read_core_s": V(read, source), "decode_core_s": V(decode, source),
            "augment_core_s": V(augment, source), "batch_core_s": V(batch, source),
            "bytes_to_device": V(bytes_to_device, source)}


R07 = "mlcommons/training_results_v0.7 Google/"


def schedule(unit, every, first=None, mode="sync", fixed=0.0, first_extra=0.0, tail=0.0, source=""):
    """An evaluation schedule: evaluations at first, first + every, ... (in `unit`: epochs, steps
    or examples); the host work of each (metric, BLEU, COCO: beyond the forward pass of the
    evaluation set on the device), which a synchronous evaluation waits for; the extra cost of
    the first one (compilation); and for asynchronous evaluation the wait for the last result
    (the same host work, measured where the logs show it)."""
    return {"unit": unit, "every": V(every, source), "first": V(every if first is None else first, source),
            "mode": mode, "fixed_cost_s": V(fixed, source), "first_extra_s": V(first_extra, source),
            "async_tail_s": V(tail, source)}


def startup(default, source_default, **per_framework):
    """Seconds from run_start to the first steady step, measured per framework in the logs."""
    out = {"default": V(default, source_default)}
    for fw, (value, source, *fill) in per_framework.items():
        out[fw] = V(value, source)
        if fill:  # a cache fill: the chips of the measured slice (it scales with 1 / hosts)
            out[fw]["cache_fill_measured_chips"] = V(*fill[0])
    return out


# Beam-search bookkeeping per decoded token, as bf16 passes over the [sentences, beam, vocab]
# scores at the core's streaming rate: the profiled GNMT evaluation spends 5598 us per step at
# 64 sentences x 5 beams x 32316 (10.34 M elements) in 24 HBM-bound kernels over that tensor,
# 105 us of it the five max passes of the top-k (modelled apart); 5493 us x 423 GB/s / 20.7 MB.
SCORE_PASSES = round(5493e-6 * 423e9 / (64 * 5 * 32316 * 2), 1)
SCORE_SOURCE = (PROFILE_NMT + ": 5598 us per step in 24 HBM-bound kernels over the [64,5,32316] scores "
                "(log-softmax, score sums, finished masks, relayouts to [64,161580]), 105 us of it the 5 max "
                "passes of the top-k; [B] the other 5493 us at 423 GB/s = " + str(SCORE_PASSES) + " bf16 passes")


def decode_block(model, source_note, output_length=None, eval_batch=None, per_replica_max=None):
    """Beam-search decoding of the evaluation set on the device: the encoder once per batch and
    the decoder step once per token (graphs from layer_graphs.py); how the set is batched."""
    d = DECODERS[model](SCORE_PASSES, SCORE_SOURCE if model == "gnmt" else
                        SCORE_SOURCE + "; assumed the same for this model's beam search (same XLA lowering of "
                        "log-softmax, relayout and top-k over [sentences, beam, vocab]; not profiled)")
    out = {"note": source_note, "encoder": d["encoder"], "step": d["step"]}
    if output_length is not None:
        out["output_length"] = V(*output_length)
    if eval_batch is not None:
        out["eval_batch"] = V(*eval_batch)
    if per_replica_max is not None:
        out["batch_per_replica_max"] = V(*per_replica_max)
    return out


RESEARCH = "[A/B] " + R07 + " results logs (notes in docs/training-model.md, 'Measured facts')"

TEXT_INPUT = input_block(2e-6, 0.0, 5e-6, 2e-6, 4096,
    "Assumption: tokenised, pre-packed records; reading and batching cost microseconds of host CPU per example (not in " + REF + ")")

# --- convergence fits -------------------------------------------------------------------------

CSV_MODEL = {"resnet50": "ResNet-50 v1.5", "bert": "BERT-large (phase 2 from MLPerf ckpt)",
             "transformer": "Transformer-big", "gnmt": "GNMT", "ssd": "SSD-ResNet34 (300x300)",
             "maskrcnn": "Mask R-CNN R50-FPN"}
TRANSFORMER_PAIRS_PER_PACKED = 8.1  # convergence.md section 2: 4.59M pairs / 566,340 packed examples
TRANSFORMER_EPOCH = 566340


def batch_and_examples(model, row):
    """Global batch in the workload's example unit, and examples to the target."""
    batch = row["global_batch"]
    if model == "transformer":
        # Batches are in packed 256-token examples (Google) or a token cap (fairseq); both are
        # converted to packed examples through the sentence pairs per step the notes give.
        examples = float(row["epochs"]) * TRANSFORMER_EPOCH
        if "packed" in batch:
            return float(batch.split()[0]), examples
        m = re.search(r"~([0-9.]+)(k?) sentence pairs", row["notes"])
        pairs = float(m.group(1)) * (1000 if m.group(2) else 1)
        return pairs / TRANSFORMER_PAIRS_PER_PACKED, examples
    return float(batch), float(row["examples"])


def fit_convergence(model):
    """E(B) = a + b B by least squares of the relative error; E_min = a, B_noise = a / b."""
    pts = []
    with open(CONV_CSV) as f:
        for row in csv.DictReader(f):
            # Other submitters' runs only: Google's own runs are the in-sample points (the
            # presets' "points" below), so the fit alone is an out-of-sample convergence.
            if (row["model"] == CSV_MODEL[model] and row["mlperf_target"] == "yes"
                    and "Google/" not in row["source"]):
                pts.append(batch_and_examples(model, row))
    # Weighted normal equations with weights 1 / E^2.
    s00 = s01 = s11 = t0 = t1 = 0.0
    for B, E in pts:
        w = 1.0 / (E * E)
        s00 += w; s01 += w * B; s11 += w * B * B; t0 += w * E; t1 += w * E * B
    det = s00 * s11 - s01 * s01
    a = (t0 * s11 - t1 * s01) / det
    b = (s00 * t1 - s01 * t0) / det
    rms = (sum(((a + b * B) / E - 1) ** 2 for B, E in pts) / len(pts)) ** 0.5
    return a, a / b, min(B for B, _ in pts), max(B for B, _ in pts), len(pts), rms


def convergence(model, google_points, note=""):
    e_min, b_noise, lo, hi, n, rms = fit_convergence(model)
    fit = (f"Fitted by resources/generators/gen_workloads.py: E(B) = E_min (1 + B / B_noise) "
           f"(McCandlish et al. 2018, arXiv 1812.06162), relative least squares on the {n} "
           f"MLPerf-target closed-division points of {CONV_REF} for this model, Google's runs left out "
           f"(batches {lo:g} to {hi:g}; rms relative error {100 * rms:.1f}%){note}")
    return {
        "model": "McCandlish et al. 2018: examples to target E(B) = E_min (1 + B / B_noise); a framework with a measured Google TPU-v3 point scales the curve through it",
        "examples_min": V(round(e_min), fit),
        "batch_noise": V(round(b_noise, 1), fit),
        "measured_batches": V([lo, hi], f"[A/B] smallest and largest global batch of the fitted points; results outside [{lo:g}, max(this, the Google points)] are marked extrapolated"),
        "points": google_points,
    }


# --- workloads ---------------------------------------------------------------------------------

W = {}

W["resnet50"] = {
    "name": "resnet50", "example_unit": "image",
    "description": "ResNet-50 v1.5 on ImageNet to 75.9% top-1 (MLPerf v0.7), LARS optimizer",
    "published": {"parameters": V(25.5e6, "[D] ../shared/reference/compute-model.md section 2.1: 25.5M parameters"),
                  "forward_macs_per_example": V(4.09e9, "[D] compute-model.md section 2.1: 4.09 GMAC forward per image at 224x224")},
    "train_examples": V(1281167, "[A] " + REF + ", section 4"),
    "optimizer": "LARS",
    "model_parallel": {"preferred": "none",
                       "note": "Data parallel in the MLPerf v0.7 runs [A] section 2; spatial partitioning is offered as a what-if"},
    "graph": BUILDERS["resnet50"](),
    "eval": {"examples": V(50000, "[A] " + REF + ", section 4"),
             "schedules": {
                 "default": schedule("epochs", 4, source="[A] " + R07 + "benchmarks/resnet/tpu-v3-8192-TF/run_and_time.sh: --steps_per_eval=79 (4 epochs at 65536); one device program runs training and evaluation (train_and_eval_runner.py), no host work per evaluation"),
                 "tf2": schedule("epochs", 4, first=3, fixed=2.1, first_extra=18.1,
                                 source="[A] " + R07 + "benchmarks/resnet/tpu-v3-32-TF2.0/run_and_time.sh: --epochs_between_evals=4 --eval_offset_epochs=3; [B] results/tpu-v3-32-TF2.0/resnet logs: 2.6 s per evaluation (about 0.5 s of it the device forward pass), the first 20.7 s")}},
    "input": input_block(1e-4, 9.0e-3, 1.0e-3, 5e-5, 224 * 224 * 3 * 2,
        "Assumption (not in " + REF + "): host CPU core-seconds per image for read, JPEG decode + resize, crop/flip/normalise, batch; bf16 224x224x3 to the device. With 48 cores per host the no-cache capacity is below the 9,000 images/s per host that 4096 chips need, consistent with [A] section 6 (decoded JPEGs cached above 2048 replicas)"),
    "in_run_startup_s": startup(3.0, "[B] about the mean of the TF (4.0 s) and JAX (2.3 s) measurements",
        tf=(4.0, "[B] " + R07 + "results/tpu-v3-8192-TF/resnet logs: first block 4.6-5.6 s against steady 1.11 s"),
        jax=(2.3, "[B] " + R07 + "results/tpu-v3-8192-JAX/resnet logs: first block 3.24-3.68 s against steady 1.12-1.14 s"),
        tf2=(149.0, "[B] " + R07 + "results/tpu-v3-32-TF2.0/resnet logs: the first 3-epoch block takes 266.9 s against 117.9 s at the steady rate (the decoded-image cache fills on the first pass)",
             (16, "[A] " + R07 + "results/tpu-v3-32-TF2.0: a v3-32 slice, 16 chips. Assumption (not measured at another size): each host runs its own input pipeline and decodes and caches its share of ImageNet on the first pass (1 / hosts of the data set), so the fill scales with that share: 149 s x (hosts of the measured slice) / (hosts of the run), hosts counted alike for both; a slice within one host fills the whole set"))),
    "convergence": convergence("resnet50", [
        {"global_batch": 4096, "steps": 12168, "framework": "tf2", "source": "[A] " + R07 + "results/tpu-v3-32-TF2.0/resnet: 10 evaluations, 39 epochs of 312 steps"},
        {"global_batch": 65536, "steps": 1738, "framework": "tf", "source": "[A] CSV and run flags: the three TF 4096-chip runs the score keeps stop at the 22nd evaluation, 22 x 79 steps"},
        {"global_batch": 65536, "steps": 1817, "framework": "jax", "source": "[A] CSV: the three JAX runs the score keeps stop at the 23rd evaluation, 23 x 79 steps (different LARS recipe)"}]),
}

W["bert"] = {
    "name": "bert", "example_unit": "sequence",
    "description": "BERT-large pre-training, sequence length 512, to masked-LM accuracy 0.712 (MLPerf v0.7), LAMB optimizer",
    "published": {"parameters": V(336e6, "[D] ../shared/reference/compute-model.md section 2.2: 336M parameters (BERT-large 335M, " + REF + " section 5)"),
                  "forward_macs_per_example": V(170e9, "[D] compute-model.md section 2.2: 170 GMAC forward per 512-token sequence")},
    "train_examples": V(1.57e8, "Assumption, unverified and only used to print epochs: the size of the MLPerf BERT Wikipedia training set in 512-token sequences is not in " + REF + "; about 1.6e8 is a rough figure. Convergence is given in sequences [A], so no result depends on it"),
    "optimizer": "LAMB",
    "model_parallel": {"preferred": "none",
                       "note": "Data parallel in the MLPerf v0.7 runs [A] section 2; a Megatron split is offered as a what-if"},
    "graph": BUILDERS["bert"](),
    "eval": {"examples": V(10000, "[A] " + R07 + "benchmarks/bert/tpu-v3-8192-TF/run_and_time.sh: --num_eval_samples=10000"),
             "schedules": {
                 "default": schedule("examples", 507904, source="[A] " + R07 + "benchmarks/bert/tpu-v3-8192-TF/run_and_time.sh: --iterations_per_loop=62 at 8192, two evaluation steps on the device"),
                 "jax": schedule("examples", 507904, first=3047424, source="[A] " + R07 + "benchmarks/bert/implementations/bert-research-JAX-tpu-v3-8192/run_pretraining.py: no evaluation in the first 5 loops of 62 steps (first at step 372)"),
                 "tf2": schedule("examples", 500416, first=3002496, fixed=2.6, first_extra=45.0,
                                 source="[A] " + R07 + "benchmarks/bert/tpu-v3-32-TF2.0/run_and_time.sh: --steps_between_eval=1117 --steps_before_eval_start=6697 (first at step 6702); [B] logs: 6.3 s per evaluation (about 3.7 s of it the device forward pass), the first 51-53 s")}},
    "input": TEXT_INPUT,
    "in_run_startup_s": startup(0.5, "[B] the TF measurement",
        tf=(0.5, "[B] " + R07 + "results/tpu-v3-8192-TF/bert logs: first block 3.21-3.60 s against steady 2.86-2.90 s"),
        jax=(0.5, "[B] " + R07 + "results/tpu-v3-8192-JAX/bert logs: step 372 reached at 17.79-18.25 s, 0.5 s more than 6 loops at the steady rate"),
        tf2=(3.2, "[B] " + R07 + "results/tpu-v3-32-TF2.0/bert logs: first block 517.5 s against steady 514.3 s")),
    "convergence": convergence("bert", [
        {"global_batch": 448, "steps": 7260.5, "framework": "tf2", "source": "[A] CSV: of the 8 runs the score keeps, 4 stop at the first evaluation (step 6702) and 4 at the second (7819); the mean"},
        {"global_batch": 8192, "steps": 496, "framework": "any", "source": "[A] " + REF + ", section 4 and CSV: converged at step 496 (TF and JAX)"}]),
}

W["transformer"] = {
    "name": "transformer", "example_unit": "sequence",
    "description": "Transformer-big on WMT English-German to BLEU 25.0 (MLPerf v0.7), Adam optimizer; one example is a packed 256-token sequence",
    "published": {"parameters": V(211e6, "[D] ../shared/reference/compute-model.md section 2.3: 211M parameters"),
                  "forward_macs_per_example": V(56.3e9, "[D] compute-model.md section 2.3: 56.3 GMAC forward per packed 256-token example")},
    "train_examples": V(566340, "[A] " + REF + ", section 4"),
    "optimizer": "Adam",
    "model_parallel": {"preferred": "tensor", "note": "4-way Megatron-style split of heads, MLP and vocabulary [A] section 2"},
    "graph": BUILDERS["transformer"](),
    "eval": {"examples": V(3003, "[A] " + REF + ", section 4: 3003 sentences"),
             "schedules": {
                 "default": schedule("epochs", 1, mode="async", fixed=1.3, tail=1.3, source="[A/B] " + R07 + "results/tpu-v3-8192-TF/transformer logs: decode on the device each epoch, host BLEU (1.25-1.37 s) overlapped with the next epoch; the last one ends the run"),
                 "jax": schedule("epochs", 1, fixed=0.1, source="[A] " + R07 + "benchmarks/transformer/implementations/transformer-research-JAX-tpu-v3-8192/train.py: BLEU runs on the host before the next epoch (synchronous). Not measured: no log times the BLEU step; [B] derived as the difference of two measured periods, the JAX epoch (3.36 s) less the TF epoch (3.26 s, whose BLEU overlaps training), about 0.1 s, which assumes both codes train an epoch equally fast")},
             "decode": decode_block("transformer",
                 "Beam search as train.py predict_step runs it (beam 4, alpha 0.6, max_predict_length 147); the TF (lingvo) run decodes with the same beam, target_seq_len 147 and 97-token inputs (lingvo/tasks/mt/params/mlperf.py)",
                 output_length=(97, "Assumption: both codes stop a batch's loop once no live hypothesis can beat the finished ones (decode.py beam_search_loop_cond_fn; lingvo beam_search_tpu_helper.py LoopContinueLong), and the evaluation waits for the slowest replica, so a batch decodes about as many tokens as the longest target: at most 97 (" + "[A] " + R07 + "benchmarks/transformer/implementations/transformer-research-JAX-tpu-v3-8192/mlperf_input_pipeline.py: MAX_EVAL_LEN = 97, 'no eval sequences are longer than this')"),
                 per_replica_max=(32, "[A] " + R07 + "benchmarks/transformer/implementations/transformer-research-JAX-tpu-v3-8192/train.py: eval_batch_size = min(32 x replicas, ceil(3003 / replicas) x replicas) per host: at most 32 sentences per replica, fewer when the set spreads thinner (the TF run: DECODE_BATCH_SIZE 2 per replica of 4 cores at 4096 chips, lingvo/tasks/mt/params/mlperf.py)"))},
    "input": TEXT_INPUT,
    "in_run_startup_s": startup(1.5, "[B] the TF measurement",
        tf=(1.5, "[B] " + R07 + "results/tpu-v3-8192-TF/transformer logs: run_start to the first block 4.2-5.3 s for one epoch of 3.1-3.3 s"),
        jax=(0.4, "[B] " + R07 + "results/tpu-v3-8192-JAX/transformer logs: first block 3.60-3.89 s against 3.33-3.39 s")),
    "convergence": convergence("transformer", [
        {"global_batch": 2048, "steps": 1558.1, "framework": "tf", "source": "[B] CSV: mean epochs of the eight TF 4096-chip runs the score keeps (3 at 5, 5 at 6), 5.625 x 277 steps"},
        {"global_batch": 2048, "steps": 1246.5, "framework": "jax", "source": "[B] CSV: mean epochs of the eight JAX runs the score keeps (4 at 4, 4 at 5), 4.5 x 277 steps"}],
        "; fairseq token-capped batches are converted to packed 256-token examples at 8.1 sentence pairs each (convergence.md section 2)"),
}

W["gnmt"] = {
    "name": "gnmt", "example_unit": "sentence pair",
    "description": "GNMT, 8-layer LSTM, on WMT16 English-German to BLEU 24 (MLPerf v0.7), Adam optimizer",
    "published": {"parameters": V(198e6, "[D] ../shared/reference/compute-model.md section 2.4: 198M parameters"),
                  "forward_macs_per_example": V(6.32e9, "[D] compute-model.md section 2.4: 6.32 GMAC forward at padded length 48 (the test binds len = 48)")},
    "train_examples": V(3442299, "[A] " + R07 + "benchmarks/gnmt/tpu-v3-1024-TF/run_and_time.sh: --num_examples_per_epoch=3442299 (420 steps at 8192)"),
    "optimizer": "Adam",
    "model_parallel": {"preferred": "none", "note": "Data parallel only [A] section 2"},
    "graph": BUILDERS["gnmt"](),
    "eval": {"examples": V(3003, "[A] " + R07 + "benchmarks/gnmt/implementations/gnmt-research-TF-tpu-v3-1024: examples_to_infer 3003"),
             "schedules": {
                 "default": schedule("epochs", 1, mode="async", fixed=6.2, tail=6.2, source="[A/B] " + R07 + "results/tpu-v3-1024-TF/gnmt logs: a beam-search decode on the device each epoch; host BLEU (5.2-6.4 s) overlaps the next epoch (its wait falls as BLEU grows, r = -0.81); the last one ends the run")},
             "decode": decode_block("gnmt",
                 "Beam search as model.py/beam_search_decoder.py run it: beam 5, length penalty 0.6; decoder.py dynamic_decode's loop condition is always true, so every batch runs the full maximum_iterations (tgt_max_len_infer 160)",
                 eval_batch=(4096, "[A] " + R07 + "benchmarks/gnmt/tpu-v3-1024-TF/run_and_time.sh: --infer_batch_size=4096 over all cores (estimator.py: infer_batch_size / num_shards per core, ceil(3003 / 4096) = 1 evaluation step)"))},
    "input": TEXT_INPUT,
    "in_run_startup_s": startup(3.7, "[B] " + R07 + "results/tpu-v3-1024-TF/gnmt logs: run_start to the first evaluation 18.6-18.9 s for one epoch of 14.96 s"),
    "convergence": convergence("gnmt", [
        {"global_batch": 8192, "steps": 3150, "framework": "any", "source": "[B] CSV: mean epochs of the eight runs the score keeps (6 at 7, 1 at 8, 1 at 10), 7.5 x 420 steps"}]),
}

W["ssd"] = {
    "name": "ssd", "example_unit": "image",
    "description": "SSD with a ResNet-34 backbone at 300x300 on COCO to mAP 0.23 (MLPerf v0.7), SGD with momentum",
    "published": {"parameters": V(19.3e6, "[D] ../shared/reference/compute-model.md section 2.5: 19.3M parameters"),
                  "forward_macs_per_example": V(15.9e9, "[D] compute-model.md section 2.5: 15.9 GMAC forward at 300x300")},
    "train_examples": V(118287, "[A] " + REF + ", section 4"),
    "optimizer": "SGD-momentum",
    "model_parallel": {"preferred": "spatial", "note": "8-way spatial partitioning (TF) [A] section 2"},
    "graph": BUILDERS["ssd"](),
    "eval": {"examples": V(5000, "[A] " + REF + ", section 4"),
             "schedules": {
                 "default": schedule("epochs", 5, mode="async", fixed=3.6, tail=3.6, source="[A/B] " + R07 + "benchmarks/ssd/tpu-v3-8192-TF: --iterations_per_loop=145 (5 epochs at 4096), an evaluation after every loop; COCO on host processes, the last result 3.56-3.70 s after the last loop (results logs)"),
                 "jax": schedule("epochs", 5, first=40, mode="async", fixed=11.0, tail=11.0, source="[A/B] " + R07 + "benchmarks/ssd/implementations/ssd-research-JAX-tpu-v3-4096/ssd_constants.py EVAL_EPOCHS 40, 50, 55, ...; results logs: the successful evaluation's result 11.0-11.1 s after it starts")}},
    "input": input_block(1e-4, 6.0e-3, 2.0e-3, 5e-5, 300 * 300 * 3 * 2,
        "Assumption (not in " + REF + "): host core-seconds per image for read, decode, SSD augmentation (random crop with boxes, flip), batch"),
    "in_run_startup_s": startup(1.6, "[B] " + R07 + "results/tpu-v3-8192-TF/ssd logs: the device finishes loop 18 at 24.0-24.2 s against 18 x 1.248 s"),
    "convergence": convergence("ssd", [
        {"global_batch": 4096, "steps": 2610, "framework": "tf", "source": "[A] CSV and logs: the runs stop at the 18th evaluation, 18 x 145 steps (90.4 epochs; the logs label it epoch 93)"}]),
}

W["maskrcnn"] = {
    "name": "maskrcnn", "example_unit": "image",
    "description": "Mask R-CNN, ResNet-50 FPN, on COCO to box 0.377 / mask 0.339 (MLPerf v0.7), SGD with momentum",
    "published": {"parameters": V(44.4e6, "[D] ../shared/reference/compute-model.md section 2.6: 44.4M parameters"),
                  "forward_macs_per_example": V(285e9, "[D] compute-model.md section 2.6: 285 GMAC forward per 832x1344 image")},
    "train_examples": V(118287, "[A] COCO train2017, as SSD (" + REF + ", section 4)"),
    "optimizer": "SGD-momentum",
    "model_parallel": {"preferred": "spatial", "note": "8-way spatial partitioning [A] section 2"},
    "graph": BUILDERS["maskrcnn"](),
    "eval": {"examples": V(5000, "[A] COCO val2017 (" + REF + ", section 4)"),
             "schedules": {
                 "default": schedule("epochs", 1, mode="sync", fixed=4.5, source="[B] " + R07 + "results/tpu-v3-1024-TF/maskrcnn logs (result_1..4): the host COCO evaluation, eval_start to eval_accuracy, 4.5 s per evaluation (median of 72; 4.1-5.3 s, 10th-90th percentile); it does not overlap the next epoch: every block_start follows the previous eval_stop by 12 ms, and the last epoch, which nothing follows, takes the period of the others (24.3-25.7 s). The 7.7-8.5 s from block_stop to eval_start (the evaluation on the device, its post-processing and the transfer of the predictions) are not in this figure (docs/training-model.md, section 9)")}},
    "input": input_block(1e-4, 12e-3, 4e-3, 1e-4, 800 * 1344 * 3 * 2,
        "Assumption (not in " + REF + "): host core-seconds per image for read, decode, resize/pad and box/mask targets, batch"),
    "in_run_startup_s": startup(17.2, "[B] " + R07 + "results/tpu-v3-1024-TF/maskrcnn logs: run_start to the end of the first epoch 41.8 s against a steady period of 24.6 s"),
    "convergence": convergence("maskrcnn", [
        {"global_batch": 256, "steps": 8316, "framework": "tf", "source": "[A] CSV: 18 epochs of 462 steps"}]),
}

if __name__ == "__main__":
    out = os.path.join(HERE, "..", "workloads")
    for name, w in W.items():
        with open(os.path.join(out, name + ".json"), "w") as f:
            json.dump({"format_version": 1, **w}, f, indent=1)  # docs/workloads.md
            f.write("\n")
        c = w["convergence"]
        print(f"{name}: E_min {c['examples_min']['value']:.4g}, B_noise {c['batch_noise']['value']:.4g}, "
              f"measured {c['measured_batches']['value']}")
