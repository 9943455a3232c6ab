#!/usr/bin/env python3
"""Writes resources/workloads/*.json. Every number carries its source; fitted parameters say
so and point at docs/training-model.md. Edit the numbers here, run this script, rebuild."""
import json, os

REF = "../shared/reference/README.md"
FIT = "Fitted parameter (docs/training-model.md)"

def V(value, source):
    return {"value": value, "source": source}

def input_block(read, decode, augment, batch, bytes_to_device, source):
    return {"read_core_s": V(read, source), "decode_core_s": V(decode, source),
            "augment_core_s": V(augment, source), "batch_core_s": V(batch, source),
            "bytes_to_device": V(bytes_to_device, source)}

TEXT_INPUT = input_block(2e-6, 0.0, 5e-6, 2e-6, 4096,
    "Assumption: tokenised, pre-packed records; reading and batching cost microseconds of host CPU per example (not in " + REF + ")")

W = {}

W["resnet50"] = {
    "name": "resnet50", "example_unit": "image",
    "description": "ResNet-50 v1.5 on ImageNet to 75.9% top-1 (MLPerf v0.7), LARS optimizer",
    "parameters": V(25.6e6, "[B] " + REF + ", section 5"),
    "train_flops_per_example": V(24.6e9, "[B] " + REF + ", section 5: about 24.6 GFLOP per training image at 224x224"),
    "train_examples": V(1281167, "[A] " + REF + ", section 4"),
    "compute_efficiency": {"e_max": V(0.4234, FIT), "b_half": V(4.30, FIT),
        "source": FIT + ": two measured step times, 8 and 128 images per core (" + REF + ", section 3)"},
    "gradient_overlap_fraction": V(0.0, "Assumption: the gradient all-reduce follows the backward pass (no overlap); stated in docs/training-model.md"),
    "optimizer": {"name": "LARS", "bytes_per_param": V(5.0, FIT + ": effective HBM bytes per parameter of the fused update, fitted on BERT (TF without vs JAX with weight-update sharding) and used for every model")},
    "model_parallel": {"preferred": "none",
        "note": "Data parallel in the MLPerf v0.7 runs [A] section 2; spatial partitioning is offered as a what-if",
        "spatial": {"exchanges_per_step": V(106, "Assumption: 53 convolutions with a spatial extent above 1, forward and backward"),
                    "bytes_per_example_per_exchange": V(30000, "Assumption: halo rows of the feature maps, averaged over the stages (2 x 56 x 128 x 2 bytes at the first stage, less later)")}},
    "eval": {"every_epochs": V(4, "[A] " + REF + ", section 4: eval every 4 epochs"),
             "async": False,
             "flops_per_example": V(8.2e9, "[B] " + REF + ", section 5: about 8.2 GFLOP forward"),
             "examples": V(50000, "[A] " + REF + ", section 4"),
             "fixed_cost_s": V(0.01, FIT + ": metric reduction and loop switch on the device")},
    "input": input_block(1e-4, 9.0e-3, 1.0e-3, 5e-5, 224 * 224 * 3 * 2,
        "Assumption (not in " + REF + "): host CPU core-seconds per image for read, JPEG decode + resize, crop/flip/normalise, batch; bf16 224x224x3 to the device. With 48 cores per host the no-cache capacity is below the 9,000 images/s per host that 4096 chips need, consistent with [A] section 6 (decoded JPEGs cached above 2048 replicas)"),
    "in_run_startup_s": V(2.5, FIT + ": input pipeline warm-up and first loop; whole-run minus steady time is 4.6 s (TF) and 2.4 s (JAX) [B] section 3"),
    "convergence": {
        "rule": "points of the scenario's framework replace 'any' points at the same batch; log-log linear between points; constant below the smallest batch; above the largest, the slope of the last segment",
        "points": [
            {"global_batch": 4096, "epochs": 38, "framework": "any", "source": "[A] " + REF + ", section 4 and CSV (TF2 16-chip runs: 38 epochs)"},
            {"global_batch": 65536, "epochs": 88, "framework": "any", "source": "[A] CSV: the three TF 4096-chip runs the score keeps all stop at epoch 88"},
            {"global_batch": 65536, "epochs": 92, "framework": "jax", "source": "[A] CSV: the three JAX 4096-chip runs the score keeps all stop at epoch 92 (different LARS recipe)"}]},
}

W["bert"] = {
    "name": "bert", "example_unit": "sequence",
    "description": "BERT-large pre-training, sequence length 512, to masked-LM accuracy 0.712 (MLPerf v0.7), LAMB optimizer",
    "parameters": V(335e6, "[B] " + REF + ", section 5"),
    "train_flops_per_example": V(1.0e12, "[B] " + REF + ", section 5: about 1.0 TFLOP per 512-token training sequence"),
    "train_examples": V(1.57e8, "Assumption, unverified and only used to print epochs: the size of the MLPerf BERT Wikipedia training set in 512-token sequences is not in " + REF + "; about 1.6e8 is a rough figure. Convergence is given in sequences [A], so no result depends on it"),
    "compute_efficiency": {"e_max": V(0.519, FIT), "b_half": V(0.06, FIT),
        "source": FIT + ": step times at 1 and 14 sequences per core (" + REF + ", section 3)"},
    "gradient_overlap_fraction": V(0.0, "Assumption: no overlap; stated in docs/training-model.md"),
    "optimizer": {"name": "LAMB", "bytes_per_param": V(5.0, FIT + ": TF (replicated update) 46.5 ms vs JAX (weight-update sharding) about 43 ms per step [B] section 3")},
    "model_parallel": {"preferred": "none",
        "note": "Data parallel in the MLPerf v0.7 runs [A] section 2; a Megatron split is offered as a what-if",
        "tensor": {"exchanges_per_step": V(96, "[B] Megatron split: after attention and MLP in each of 24 layers, forward and backward: 2 x 2 x 24"),
                   "bytes_per_example_per_exchange": V(1048576, "[B] 512 tokens x hidden 1024 x 2 bytes (bf16)")}},
    "eval": {"every_examples": V(507904, "[B] " + REF + ", section 4: every 62 steps at b=8192"),
             "async": False,
             "flops_per_example": V(3.3e11, "[B] one third of the training FLOPs (forward only)"),
             "examples": V(10000, "Assumption: the MLPerf BERT eval set of 10,000 sequences (not in " + REF + ")"),
             "fixed_cost_s": V(0.01, FIT + ": metrics summed on the device [A] section 6"),
             "async_tail_s": V(2.7, FIT + ": the JAX run (asynchronous eval) takes 24.01 s [B] while 496 steps at the whole-run average of 43.1 ms take 21.4 s [B] section 3: the run waits for the last evaluation")},
    "input": TEXT_INPUT,
    "in_run_startup_s": V(0.0, FIT + ": TF whole-run average 47.6 ms vs steady 46.5 ms per step leaves 0.5 s [B] section 3, about the TF framework start"),
    "convergence": {
        "rule": "as resnet50; one measured point per batch",
        "points": [
            {"global_batch": 448, "steps": 7250, "framework": "any", "source": "[A] " + REF + ", section 4: 6.7k-7.8k steps at b=448; the score keeps four runs at each end, so the midpoint 7,250 [B]"},
            {"global_batch": 8192, "steps": 496, "framework": "any", "source": "[A] " + REF + ", section 4 and CSV: converged at step 496"}]},
}

W["transformer"] = {
    "name": "transformer", "example_unit": "sequence",
    "description": "Transformer-big on WMT English-German to BLEU 25.0 (MLPerf v0.7), Adam optimizer",
    "parameters": V(210e6, "[B] " + REF + ", section 5"),
    "train_flops_per_example": V(3.2e11, "[B] 6 x 210M parameters x 256 tokens per packed example (" + REF + ", sections 4-5); attention adds little at 256 tokens"),
    "train_examples": V(566340, "[A] " + REF + ", section 4"),
    "compute_efficiency": {"e_max": V(0.382, FIT), "b_half": V(0.25, "Assumption: the shape is not measurable with one batch size; b_half set to the per-core work of the preset (0.25 sequence) so e_max carries the fit")},
    "gradient_overlap_fraction": V(0.0, "Assumption: no overlap"),
    "optimizer": {"name": "Adam", "bytes_per_param": V(5.0, FIT + ": shared with BERT")},
    "model_parallel": {"preferred": "tensor", "tensor": {
        "exchanges_per_step": V(60, "[B] Megatron split: one activation all-reduce after attention and MLP in each of 6 encoder layers (2) and 6 decoder layers (3, with cross-attention), forward and backward: 2 x (12 + 18)"),
        "bytes_per_example_per_exchange": V(524288, "[B] 256 tokens x d_model 1024 x 2 bytes (bf16)")}},
    "eval": {"every_epochs": V(1, "[A] " + REF + ", section 4: BLEU decode each epoch"),
             "async": False,
             "flops_per_example": V(1.1e11, "[B] forward FLOPs of one sentence (one third of training)"),
             "examples": V(3003, "[A] " + REF + ", section 4: 3003 sentences"),
             "fixed_cost_s": V(0.3, FIT + ": autoregressive BLEU decode, latency bound")},
    "input": TEXT_INPUT,
    "in_run_startup_s": V(0.9, FIT + ": whole-run minus steady time is 2.9 s (TF) and 0.4 s (JAX) [B] section 3"),
    "convergence": {
        "rule": "as resnet50",
        "points": [
            {"global_batch": 2048, "epochs": 5.625, "framework": "any", "source": "[B] CSV: mean epochs of the eight TF 4096-chip runs the score keeps (3 at 5, 5 at 6)"},
            {"global_batch": 2048, "epochs": 4.5, "framework": "jax", "source": "[B] CSV: mean epochs of the eight JAX runs the score keeps (4 at 4, 4 at 5)"}]},
}

W["ssd"] = {
    "name": "ssd", "example_unit": "image",
    "description": "SSD with a ResNet-34 backbone at 300x300 on COCO to mAP 0.23 (MLPerf v0.7)",
    "parameters": V(20e6, "Assumption: about 20M parameters for SSD-ResNet-34 (not in " + REF + ")"),
    "train_flops_per_example": V(1.0e11, "Assumption: about 33 GFLOP forward at 300x300, 3x for training (not in " + REF + "); e_max carries the fit"),
    "train_examples": V(118287, "[A] " + REF + ", section 4"),
    "compute_efficiency": {"e_max": V(0.2395, FIT), "b_half": V(0.5, "Assumption: set to the per-core work of the preset (0.5 image); e_max carries the fit")},
    "gradient_overlap_fraction": V(0.0, "Assumption: no overlap"),
    "optimizer": {"name": "SGD-momentum", "bytes_per_param": V(5.0, FIT + ": shared with BERT")},
    "model_parallel": {"preferred": "spatial", "spatial": {
        "exchanges_per_step": V(100, "Assumption: about 50 convolutions with a spatial extent above 1, forward and backward"),
        "bytes_per_example_per_exchange": V(40000, "Assumption: one halo row of a 38-wide, 256-channel bf16 feature map on each side (2 x 38 x 256 x 2 bytes)")}},
    "eval": {"every_epochs": V(5, "[A] " + REF + ", section 4"),
             "first_epoch": V(40, "[A] " + REF + ", section 4: from epoch 40"),
             "async": True,
             "flops_per_example": V(3.3e10, "Assumption: forward FLOPs (one third of training)"),
             "examples": V(5000, "[A] " + REF + ", section 4"),
             "fixed_cost_s": V(2.4, "Assumption: COCO metric on a host thread [A] section 6, as async_tail_s"),
             "async_tail_s": V(2.4, FIT + ": whole-run 27.73 s minus 2686 steps at the steady 8.6 ms [B] leaves 4.6 s: TF start (1.0 s), the input warm-up (in_run_startup_s) and the wait for the last COCO metric")},
    "input": input_block(1e-4, 6.0e-3, 2.0e-3, 5e-5, 300 * 300 * 3 * 2,
        "Assumption (not in " + REF + "): host core-seconds per image for read, decode, SSD augmentation (random crop with boxes, flip), batch"),
    "in_run_startup_s": V(1.2, FIT + ": see async_tail_s"),
    "convergence": {"rule": "as resnet50", "points": [
        {"global_batch": 4096, "epochs": 93, "framework": "any", "source": "[A] " + REF + ", section 4 and CSV"}]},
}

W["maskrcnn"] = {
    "name": "maskrcnn", "example_unit": "image",
    "description": "Mask R-CNN, ResNet-50 FPN, on COCO to box 0.377 / mask 0.339 (MLPerf v0.7)",
    "parameters": V(44e6, "Assumption: about 44M parameters (not in " + REF + ")"),
    "train_flops_per_example": V(8.0e11, "Assumption: about 270 GFLOP forward at 800x1333, 3x for training (not in " + REF + "); e_max carries the fit"),
    "train_examples": V(118287, "[A] COCO train2017, as SSD (" + REF + ", section 4)"),
    "compute_efficiency": {"e_max": V(0.50, FIT), "b_half": V(0.25, "Assumption: set to the per-core work of the preset (0.25 image)")},
    "gradient_overlap_fraction": V(0.0, "Assumption: no overlap"),
    "optimizer": {"name": "SGD-momentum", "bytes_per_param": V(5.0, FIT + ": shared with BERT")},
    "model_parallel": {"preferred": "spatial", "spatial": {
        "exchanges_per_step": V(150, "Assumption: about 75 spatial convolutions, forward and backward"),
        "bytes_per_example_per_exchange": V(200000, "Assumption: halo rows of the FPN feature maps, bf16")}},
    "eval": {"every_epochs": V(1, "[A] " + REF + ", section 4: synchronous eval each epoch"),
             "async": False,
             "flops_per_example": V(2.7e11, "Assumption: forward FLOPs"),
             "examples": V(5000, "[A] COCO val2017 (" + REF + ", section 4)"),
             "fixed_cost_s": V(16.2, FIT + ": block of 24.6 s with about 8.4 s of training [B] section 3: the synchronous COCO evaluation")},
    "input": input_block(1e-4, 12e-3, 4e-3, 1e-4, 800 * 1344 * 3 * 2,
        "Assumption (not in " + REF + "): host core-seconds per image for read, decode, resize/pad and box/mask targets, batch"),
    "in_run_startup_s": V(44.0, FIT + ": whole-run 487.75 s [B] minus 18 blocks of 24.6 s [B] section 3, less the TF start"),
    "convergence": {"rule": "as resnet50", "points": [
        {"global_batch": 256, "epochs": 18, "framework": "any", "source": "[A] " + REF + ", section 4 and CSV"}]},
}

W["gnmt"] = {
    "name": "gnmt", "example_unit": "sentence pair",
    "description": "GNMT, 8-layer LSTM, on WMT16 English-German to BLEU 24 (MLPerf v0.7)",
    "parameters": V(160e6, "Assumption: about 160M parameters (not in " + REF + ")"),
    "train_flops_per_example": V(5.0e10, "Assumption: 6 x 160M parameters x about 50 tokens per sentence pair (max length 48 [B] section 5)"),
    "train_examples": V(3448832, "[B] 421 steps per epoch x 8192 (" + REF + ", section 3)"),
    "compute_efficiency": {"e_max": V(0.424, FIT), "b_half": V(4.3, "Assumption: the ResNet-50 value (" + FIT + ")")},
    "gradient_overlap_fraction": V(0.0, "Assumption: no overlap"),
    "optimizer": {"name": "Adam", "bytes_per_param": V(5.0, FIT + ": shared with BERT")},
    "model_parallel": {"preferred": "none",
        "note": "Data parallel only [A] section 2; no model-parallel split is modelled for GNMT"},
    "eval": {"every_epochs": V(1, "[A] " + REF + ", section 3: one epoch plus eval per block"),
             "async": False,
             "flops_per_example": V(1.7e10, "Assumption: forward FLOPs"),
             "examples": V(3003, "Assumption: newstest2014, 3003 sentences (not in " + REF + ")"),
             "fixed_cost_s": V(1.0, FIT + ": beam-search decode and BLEU")},
    "input": TEXT_INPUT,
    "in_run_startup_s": V(12.0, FIT + ": whole-run 126.07 s minus 7.5 blocks of 15.07 s [B] section 3, less the TF start"),
    "convergence": {"rule": "as resnet50", "points": [
        {"global_batch": 8192, "epochs": 7.5, "framework": "any", "source": "[B] CSV: mean epochs of the eight runs the score keeps (6 at 7, 1 at 8, 1 at 10)"}]},
}

out = os.path.join(os.path.dirname(__file__), "..", "workloads")
for name, w in W.items():
    with open(os.path.join(out, name + ".json"), "w") as f:
        json.dump(w, f, indent=2)
        f.write("\n")
print("wrote", ", ".join(W))
