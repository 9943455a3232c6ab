"""Layer graphs of the six MLPerf v0.7 workloads, as Google trained them on TPU-v3.

Each builder returns {"source", "variables", "layers"}; gen_workloads.py writes it into the
workload file as "graph". A layer is described at the level of the reference code (a convolution
with its kernel and channels, a dense layer with its rows per example); the C++ core lowers it to
MXU matmuls, vector work and HBM traffic (docs/training-model.md, "Lowering and fusion rules").

Numbers that depend on the example shape are expressions over the graph's variables ("seq",
"len", ...): a number, or factors joined by "*". The per-core batch multiplies everything that is
per example; it never appears here.

Layer fields (all counts per example):
  conv        h, w (output), cin, cout, k (kernel), stride, count (maps per example: RoIs),
              bn ("batch" | "frozen" | "none"),
              act ("relu" | "none"), residual (adds a shortcut before the activation), bias,
              fold (window folded into the contraction: the space-to-depth stems),
              spatial ("split" | "replicated" | "rois"): what spatial partitioning does with it
  dense       rows, in, out, bias, act ("none" | "relu" | "gelu" | "tanh"), residual,
              split (Megatron: "column" | "row" | "vocab" | "none"), spatial
  attention   heads, q, kv, dim (per head): scores q x kv and context, softmax between
  recurrent   steps, in (per-step input that cannot be hoisted), hidden, gates: one matmul
              [b, in + hidden] x [in + hidden, gates * hidden] per time step, then the gates
  embedding   vocab, dim, rows (lookups), lookup (gather or streamed), tied (shares the weights of an earlier layer)
  norm        rows, dim (layer normalisation)
  pool        h, w (output), c, k, stride (the input is stride x the output per side)
  crop_resize h, w (the feature map), c, rois, size (output cells per side), samples (per
              cell and axis): RoIAlign on one level as one-hot einsums
  elementwise elements, ops (vector ops per element), eup (transcendentals per element),
              passes (HBM reads + writes of the tensor), backward (bool)
  loss        rows, classes: softmax cross-entropy
"""

R07 = "mlcommons/training_results_v0.7"


def conv(name, group, h, w, cin, cout, k, stride=1, bn="batch", act="relu", residual=False,
         bias=False, fold=False, spatial="split", count=1):
    layer = {"name": name, "group": group, "type": "conv", "h": h, "w": w, "cin": cin,
             "cout": cout, "k": k, "stride": stride, "bn": bn, "act": act}
    if residual:
        layer["residual"] = True
    if bias:
        layer["bias"] = True
    if fold:
        layer["fold"] = True
    if spatial != "split":
        layer["spatial"] = spatial
    if count != 1:
        layer["count"] = count
    return layer


def dense(name, group, rows, n_in, n_out, bias=True, act="none", split="none", residual=False,
          spatial="replicated"):
    layer = {"name": name, "group": group, "type": "dense", "rows": rows, "in": n_in,
             "out": n_out, "bias": bias, "act": act, "split": split}
    if residual:
        layer["residual"] = True
    if spatial != "replicated":
        layer["spatial"] = spatial
    return layer


def elementwise(name, group, elements, ops, eup=0, passes=2, backward=True, spatial="replicated",
                count=1, element_bytes=None):
    layer = {"name": name, "group": group, "type": "elementwise", "elements": elements,
             "ops": ops, "eup": eup, "passes": passes, "backward": backward}
    if spatial != "replicated":
        layer["spatial"] = spatial
    if count != 1:
        layer["count"] = count
    if element_bytes is not None:
        layer["element_bytes"] = element_bytes
    return layer


def out_size(size, stride):
    return -(-size // stride)  # SAME padding


# ---------------------------------------------------------------------------------------------
# ResNet-50 v1.5 (bottleneck stride on the 3x3), 224x224, as in
# R07 Google/benchmarks/resnet/implementations/resnet-research-TF-tpu-v3-8192/resnet_model.py:
# conv0 with space-to-depth (4x4 kernel on 112x112x12), batch norm + ReLU after every
# convolution, projection shortcuts on the first block of each group.

def bottleneck_groups(layers, prefix, h, w, cin, groups, bn="batch", feats=None):
    """ResNet v1.5 bottleneck groups (stride on the 3x3) on an h x w map; `feats` collects each
    group's output map for an FPN."""
    for g, (mid, blocks, stride) in enumerate(groups, start=1):
        group = f"{prefix}group{g}"
        for blk in range(1, blocks + 1):
            s = stride if blk == 1 else 1
            ho, wo = out_size(h, s), out_size(w, s)
            base = f"{group}.block{blk}"
            if blk == 1:
                layers.append(conv(base + ".shortcut", group, ho, wo, cin, 4 * mid, 1, s, bn=bn,
                                   act="none"))
            layers.append(conv(base + ".conv1", group, h, w, cin, mid, 1, bn=bn))
            layers.append(conv(base + ".conv2", group, ho, wo, mid, mid, 3, s, bn=bn))
            layers.append(conv(base + ".conv3", group, ho, wo, mid, 4 * mid, 1, bn=bn,
                               residual=True))
            cin, h, w = 4 * mid, ho, wo
        if feats is not None:
            feats[g + 1] = (h, w, cin)
    return cin, h


RESNET50_GROUPS = [(64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)]


PROFILE_RESNET = "[B] google/paragraph paragraph/data/hlo_after_optimizations_resnet_32_tpuv3_stats.csv (commit 97f466f): "


def resnet50():
    layers = [
        # The infeed's flat image batch into the stem's layout, the images on the lanes, as
        # the profile shows it (bf16[19267584] to bf16[224,224,3,128]{3,2,1,0:T(4,128)}).
        relayout("input.image", "stem", ([224 * 224 * 3], [1, 0]), ([224, 224, 3], [0, 3, 2, 1]),
                 2, False, "while/Reshape reshape.1477", profile=PROFILE_RESNET),
        conv("conv0", "stem", 112, 112, 12, 64, 4, fold=True),
        {"name": "maxpool", "group": "stem", "type": "pool", "h": 56, "w": 56, "c": 64, "k": 3,
         "stride": 2},
    ]
    c, h = bottleneck_groups(layers, "", 56, 56, 64, RESNET50_GROUPS)
    layers += [
        elementwise("avgpool", "head", h * h * c, 1, passes=1),
        dense("fc", "head", 1, c, 1000),
        {"name": "loss", "group": "head", "type": "loss", "rows": 1, "classes": 1000},
    ]
    return {"source": f"[A] {R07} Google/benchmarks/resnet/implementations/resnet-research-TF-tpu-v3-8192/resnet_model.py "
                      "(ResNet-50 v1.5, conv0 space-to-depth); shapes as in ../shared/reference/compute-model.md section 2.1",
            "variables": {}, "layers": layers}


# ---------------------------------------------------------------------------------------------
# BERT-large, sequence 512, 76 masked predictions (R07 Google/benchmarks/bert/implementations/
# bert-research-JAX-tpu-v3-8192/{transformer_encoder,transformer_block,masked_lm}.py).

def transformer_layer(layers, group, rows, d, heads, ffn, act, q, kv=None, cross=False,
                      norm_first=False):
    """Self-attention (+ cross-attention) and FFN, post-norm, Megatron split annotations."""
    kv = kv if kv is not None else q
    dh = d // heads
    layers.append(dense(group + ".qkv", group, rows, d, 3 * d, split="column"))
    layers.append({"name": group + ".attention", "group": group, "type": "attention",
                   "heads": heads, "q": q, "kv": q, "dim": dh})
    layers.append(dense(group + ".attention_out", group, rows, d, d, split="row", residual=True))
    layers.append({"name": group + ".norm1", "group": group, "type": "norm", "rows": rows,
                   "dim": d})
    if cross:
        layers.append(dense(group + ".cross_q", group, rows, d, d, split="column"))
        layers.append(dense(group + ".cross_kv", group, kv, d, 2 * d, split="column"))
        layers.append({"name": group + ".cross_attention", "group": group, "type": "attention",
                       "heads": heads, "q": q, "kv": kv, "dim": dh})
        layers.append(dense(group + ".cross_out", group, rows, d, d, split="row", residual=True))
        layers.append({"name": group + ".norm_cross", "group": group, "type": "norm",
                       "rows": rows, "dim": d})
    layers.append(dense(group + ".ffn_in", group, rows, d, ffn, act=act, split="column"))
    layers.append(dense(group + ".ffn_out", group, rows, ffn, d, split="row", residual=True))
    layers.append({"name": group + ".norm2", "group": group, "type": "norm", "rows": rows,
                   "dim": d})


def bert():
    d, heads, ffn, vocab = 1024, 16, 4096, 30522
    layers = [
        {"name": "embeddings.word", "group": "embeddings", "type": "embedding", "vocab": vocab,
         "dim": d, "rows": "seq", "split": "vocab"},
        # The position table is sliced and the token type is a one-hot product
        # (modeling.py embedding_postprocessor): both read their rows in order.
        {"name": "embeddings.position", "group": "embeddings", "type": "embedding", "vocab": 512,
         "dim": d, "rows": "seq", "lookup": "streamed"},
        {"name": "embeddings.type", "group": "embeddings", "type": "embedding", "vocab": 2,
         "dim": d, "rows": "seq", "lookup": "streamed"},
        {"name": "embeddings.norm", "group": "embeddings", "type": "norm", "rows": "seq", "dim": d},
    ]
    for i in range(24):
        transformer_layer(layers, f"layer{i:02d}", "seq", d, heads, ffn, "gelu", "seq")
    layers += [
        dense("mlm.transform", "heads", "preds", d, d, act="gelu"),
        {"name": "mlm.norm", "group": "heads", "type": "norm", "rows": "preds", "dim": d},
        dense("mlm.decoder", "heads", "preds", d, vocab, split="vocab"),  # tied to the word embedding
        {"name": "mlm.loss", "group": "heads", "type": "loss", "rows": "preds", "classes": vocab,
         "split": "vocab"},
        dense("nsp.pooler", "heads", 1, d, d, act="tanh"),
        dense("nsp.classifier", "heads", 1, d, 2),
        {"name": "nsp.loss", "group": "heads", "type": "loss", "rows": 1, "classes": 2},
    ]
    # The MLM decoder reuses the word embedding matrix: only its bias is a new parameter.
    layers[-5]["tied"] = "embeddings.word"
    return {"source": f"[A] {R07} Google/benchmarks/bert/implementations/bert-research-JAX-tpu-v3-8192/"
                      "{transformer_encoder.py,transformer_block.py,masked_lm.py} (BERT-large); shapes in ../shared/reference/compute-model.md section 2.2",
            "sequence_variable": "seq",
            "variables": {"seq": {"value": 512, "min": 8, "max": 512, "source": "[A] ../shared/reference/README.md section 4: sequence length 512 (the LAMB paper's phase 1 uses 128; 512 is the largest position embedding)"},
                          "preds": {"value": 76, "source": "[A] ../shared/reference/compute-model.md section 2.2: 76 masked predictions per sequence"}},
            "layers": layers}


# ---------------------------------------------------------------------------------------------
# Transformer-big, packed 256-token examples (R07 Google/benchmarks/transformer/implementations/
# transformer-research-JAX-tpu-v3-8192/{models.py,train.py}): 6+6 layers, d 1024, 16 heads,
# FFN 4096 ReLU, shared source/target/output embedding of 33,708 tokens.

def transformer():
    d, heads, ffn, vocab = 1024, 16, 4096, 33708
    layers = [
        {"name": "encoder.embedding", "group": "embeddings", "type": "embedding", "vocab": vocab,
         "dim": d, "rows": "seq", "split": "vocab"},
    ]
    for i in range(6):
        transformer_layer(layers, f"encoder{i}", "seq", d, heads, ffn, "relu", "seq")
    layers.append({"name": "decoder.embedding", "group": "embeddings", "type": "embedding",
                   "vocab": vocab, "dim": d, "rows": "seq", "split": "vocab",
                   "tied": "encoder.embedding"})
    for i in range(6):
        transformer_layer(layers, f"decoder{i}", "seq", d, heads, ffn, "relu", "seq", kv="seq",
                          cross=True)
    layers += [
        dense("logits", "output", "seq", d, vocab, bias=False, split="vocab"),
        {"name": "loss", "group": "output", "type": "loss", "rows": "seq", "classes": vocab,
         "split": "vocab"},
    ]
    layers[-2]["tied"] = "encoder.embedding"
    return {"source": f"[A] {R07} Google/benchmarks/transformer/implementations/transformer-research-JAX-tpu-v3-8192/"
                      "{models.py,train.py} (Transformer-big, shared embeddings); shapes in ../shared/reference/compute-model.md section 2.3",
            "sequence_variable": "seq",
            "variables": {"seq": {"value": 256, "min": 8, "max": 256, "source": "[A] ../shared/reference/compute-model.md section 2.3: max_target_length 256, packed examples"}},
            "layers": layers}


# ---------------------------------------------------------------------------------------------
# GNMT (R07 Google/benchmarks/gnmt/implementations/gnmt-research-TF-tpu-v3-1024/{model.py,nmt.py}):
# 1024 units; encoder: bidirectional layer 0, layers 1-3; decoder: layer 0 with normed Bahdanau
# attention, layers 1-3 fed [h, attention context]. On TPU the input projections of every LSTM
# are hoisted out of the time loop (M = len x b) and only h @ W_rec runs per step (M = b).

# GNMT's length buckets as Google's profile of the v0.7 code shows them: steps per core of each
# padded length in the profiled window (2.5/36.0/47.3/36.0/20.7 of 142.2).
GNMT_BUCKETS = {"lengths": [18, 24, 30, 42, 48], "shares": [0.018, 0.253, 0.332, 0.253, 0.145],
                "source": "[B] google/paragraph paragraph/data/hlo_after_optimizations_nmt_32_tpuv3_stats.csv "
                          "(commit 97f466f): steps per core at each padded length in the profiled window, "
                          "2.5/36.0/47.3/36.0/20.7, shares 1.8/25.3/33.2/25.3/14.5 % (our reading: "
                          "../shared/reference/paragraph/gnmt_buckets.csv and README.md)"}
GNMT_MEAN = round(sum(l * f for l, f in zip(GNMT_BUCKETS["lengths"], GNMT_BUCKETS["shares"])), 2)
GNMT_LEN = round(GNMT_MEAN)


def gnmt():
    d, vocab = 1024, 32316
    gates = 4
    L = "len"
    layers = [
        {"name": "encoder.embedding", "group": "embeddings", "type": "embedding", "vocab": vocab,
         "dim": d, "rows": L},
        {"name": "decoder.embedding", "group": "embeddings", "type": "embedding", "vocab": vocab,
         "dim": d, "rows": L},
    ]

    def lstm(name, group, n_in, step_in=0):
        if n_in:
            layers.append(dense(name + ".input", group, L, n_in, gates * d))
        layers.append({"name": name + ".recurrent", "group": group, "type": "recurrent",
                       "steps": L, "in": step_in, "hidden": d, "gates": gates})

    lstm("encoder0.forward", "encoder", d)
    lstm("encoder0.backward", "encoder", d)
    lstm("encoder1", "encoder", 2 * d)
    layers.append(elementwise("encoder2.residual_in", "encoder", f"{L}*{d}", 1, passes=3))
    lstm("encoder2", "encoder", d)
    lstm("encoder3", "encoder", d)
    layers.append(dense("attention.memory", "attention", L, d, d, bias=False))
    # Decoder layer 0: its input projection of the embedding is hoisted; the attention context
    # of the previous step enters the recurrent matmul.
    lstm("decoder0", "decoder", d, step_in=d)
    layers.append(dense("attention.query", "attention", L, d, d, bias=False))
    # Normed Bahdanau scores v . tanh(keys + query) over every source position, per target step:
    # [len_tgt, len_src, 1024] adds and tanh, the softmax and the weighted sum of the memory.
    layers.append(elementwise("attention.scores", "attention", f"{L}*{L}*{d}", 3, eup=1, passes=1))
    layers.append(elementwise("attention.context", "attention", f"{L}*{L}*{d}", 2, passes=1))
    for i in (1, 2, 3):
        lstm(f"decoder{i}", "decoder", 2 * d)
    layers += [
        dense("output.projection", "output", L, d, vocab, bias=False),
        {"name": "output.loss", "group": "output", "type": "loss", "rows": L, "classes": vocab},
    ]
    return {"source": f"[A] {R07} Google/benchmarks/gnmt/implementations/gnmt-research-TF-tpu-v3-1024/{{model.py,nmt.py}}; "
                      "shapes and the hoisting of input projections in ../shared/reference/compute-model.md section 2.4",
            "sequence_variable": "len",
            "variables": {"len": {"value": GNMT_LEN, "min": 1, "max": 48, "buckets": GNMT_BUCKETS,
                                 "source": "The mean padded length of a step, the share-weighted mean of the measured length buckets (below) to the whole token: " + str(GNMT_MEAN) + ". Each step takes one length bucket (width 10) and each core pads to the next of 18/24/30/36/42/48 above its longest sentence ([A] mlcommons/training_results_v0.7 Google/benchmarks/gnmt/implementations/gnmt-research-TF-tpu-v3-1024/model.py), so the five buckets pad to 18, 24, 30, 42 and 48 (equal shares, assumed before, gave 32)"}},
            "layers": layers}



# ---------------------------------------------------------------------------------------------
# Beam-search decoding of the evaluation set (docs/training-model.md, "Evaluation"). Two graphs
# per model: "encoder" runs once per batch, counts per sentence; "step" runs once per decoded
# token, counts per hypothesis (sentence x beam). Variables the evaluation binds: "beam" (beam
# width), "cache" (the maximum decode length: the size of the key/value cache the TPU code
# allocates and attends over, masked), "src" (the padded source length).
PROFILE_NMT = ("[B] google/paragraph paragraph/data/hlo_after_optimizations_nmt_32_tpuv3_stats.csv "
               "(commit 97f466f): the beam-search ops of one evaluation, 160 steps at 64 sentences x 5 "
               "beams per core")


def beam_search_scores(layers, group, vocab, passes, source):
    """Beam-search bookkeeping over the [sentences, beam, vocab] scores of a step: log-softmax,
    adding the hypotheses' scores, masking finished ones, the relayout to [sentences, beam x vocab],
    and top-k as beam-width successive max passes (each over beam x vocab per sentence)."""
    layers.append(dict(elementwise(group + ".scores", group, vocab, 4, eup=1, passes=passes,
                                   backward=False), source=source))
    layers.append(dict(elementwise(group + ".top_k", group, f"beam*{vocab}", 2, passes=1,
                                   backward=False), source=source))


def transformer_decode(score_passes, score_source):
    d, heads, ffn, vocab = 1024, 16, 4096, 33708
    dh = d // heads
    encoder = [{"name": "encoder.embedding", "group": "embeddings", "type": "embedding",
                "vocab": vocab, "dim": d, "rows": "src", "split": "vocab"}]
    for i in range(6):
        transformer_layer(encoder, f"encoder{i}", "src", d, heads, ffn, "relu", "src")
    step = [{"name": "decoder.embedding", "group": "embeddings", "type": "embedding",
             "vocab": vocab, "dim": d, "rows": 1, "split": "vocab"}]
    for i in range(6):
        g = f"decoder{i}"
        step += [
            dense(g + ".qkv", g, 1, d, 3 * d, split="column"),
            # The new key and value enter the cache by a one-hot multiply-add over all of it.
            elementwise(g + ".cache_update", g, f"2*cache*{d}", 2, passes=2, backward=False),
            {"name": g + ".attention", "group": g, "type": "attention", "heads": heads, "q": 1,
             "kv": "cache", "dim": dh},
            dense(g + ".attention_out", g, 1, d, d, split="row", residual=True),
            {"name": g + ".norm1", "group": g, "type": "norm", "rows": 1, "dim": d},
            dense(g + ".cross_q", g, 1, d, d, split="column"),
            # models.py projects the (beam-expanded) encoder output to keys and values in every
            # step: MultiHeadDotProductAttention(inputs_kv=encoded) with no cache.
            dense(g + ".cross_kv", g, "src", d, 2 * d, split="column"),
            {"name": g + ".cross_attention", "group": g, "type": "attention", "heads": heads,
             "q": 1, "kv": "src", "dim": dh},
            dense(g + ".cross_out", g, 1, d, d, split="row", residual=True),
            {"name": g + ".norm_cross", "group": g, "type": "norm", "rows": 1, "dim": d},
            dense(g + ".ffn_in", g, 1, d, ffn, act="relu", split="column"),
            dense(g + ".ffn_out", g, 1, ffn, d, split="row", residual=True),
            {"name": g + ".norm2", "group": g, "type": "norm", "rows": 1, "dim": d},
        ]
    step.append(dense("logits", "output", 1, d, vocab, bias=False, split="vocab"))
    beam_search_scores(step, "beam_search", vocab, score_passes, score_source)
    src = f"[A] {R07} Google/benchmarks/transformer/implementations/transformer-research-JAX-tpu-v3-8192/"
    variables = {
        "beam": {"value": 4, "min": 1, "max": 64, "source": src + "train.py predict_step: beam_size = 4"},
        "cache": {"value": 147, "min": 1, "max": 1024, "source": src + "train.py: max_predict_length 147, the length of the decoding cache (initialize_cache) that models.py attends over with a mask"},
        "src": {"value": 97, "source": src + "mlperf_input_pipeline.py: MAX_EVAL_LEN = 97, eval inputs padded to it"},
    }
    return {
        "encoder": {"source": src + "{train.py (predict_step: model.encode), models.py}", "variables": variables, "layers": encoder},
        "step": {"source": src + "{decode.py (beam_search), models.py (decode with a cache)}", "variables": variables, "layers": step},
    }


def gnmt_decode(score_passes, score_source):
    d, vocab, gates = 1024, 32316, 4
    src = f"[A] {R07} Google/benchmarks/gnmt/implementations/gnmt-research-TF-tpu-v3-1024/"
    encoder = [{"name": "encoder.embedding", "group": "embeddings", "type": "embedding",
                "vocab": vocab, "dim": d, "rows": "src"}]

    def lstm(layers, name, group, rows, n_in, steps, step_in=0):
        if n_in:
            layers.append(dense(name + ".input", group, rows, n_in, gates * d))
        layers.append({"name": name + ".recurrent", "group": group, "type": "recurrent",
                       "steps": steps, "in": step_in, "hidden": d, "gates": gates})

    lstm(encoder, "encoder0.forward", "encoder", "src", d, "src")
    lstm(encoder, "encoder0.backward", "encoder", "src", d, "src")
    lstm(encoder, "encoder1", "encoder", "src", 2 * d, "src")
    encoder.append(elementwise("encoder2.residual_in", "encoder", f"src*{d}", 1, passes=3))
    lstm(encoder, "encoder2", "encoder", "src", d, "src")
    lstm(encoder, "encoder3", "encoder", "src", d, "src")
    # build_atten_rnn tiles the encoder output by the beam width before the memory layer.
    encoder.append(dense("attention.memory", "attention", f"beam*src", d, d, bias=False))
    step = [{"name": "decoder.embedding", "group": "embeddings", "type": "embedding",
             "vocab": vocab, "dim": d, "rows": 1}]
    lstm(step, "decoder0", "decoder", 1, d, 1, step_in=d)
    step.append(dense("attention.query", "attention", 1, d, d, bias=False))
    step.append(elementwise("attention.scores", "attention", f"src*{d}", 3, eup=1, passes=1,
                            backward=False))
    step.append(elementwise("attention.context", "attention", f"src*{d}", 2, passes=1,
                            backward=False))
    for i in (1, 2, 3):
        lstm(step, f"decoder{i}", "decoder", 1, 2 * d, 1)
    step.append(dense("output.projection", "output", 1, d, vocab, bias=False))
    beam_search_scores(step, "beam_search", vocab, score_passes, score_source)
    variables = {
        "beam": {"value": 5, "min": 1, "max": 64, "source": src + "nmt.py: --beam_width default 5"},
        "cache": {"value": 160, "min": 1, "max": 1024, "source": src + "nmt.py: --tgt_max_len_infer default 160, the decode loop's maximum_iterations"},
        "src": {"value": 160, "source": src + "nmt.py --src_max_len_infer 160; utils/iterator_utils.py get_infer_iterator pads every source to it"},
    }
    return {
        "encoder": {"source": src + "model.py (encoder, build_atten_rnn)", "variables": variables, "layers": encoder},
        "step": {"source": src + "{model.py (cell_fn), beam_search_decoder.py}", "variables": variables, "layers": step},
    }

# ---------------------------------------------------------------------------------------------
# SSD with a ResNet-34 backbone at 300x300 (R07 Google/benchmarks/ssd/implementations/
# ssd-research-TF-tpu-v3-8192/{ssd_architecture.py,ssd_constants.py,ssd_model.py}): conv0
# space-to-depth, groups of basic blocks 64x3, 128x4 (stride 2), 256x6 (stride 1, 38x38), extra
# layers with bias and ReLU (no batch norm), class and box heads on six levels, box targets
# encoded on the host, softmax cross-entropy with hard negative mining on the device.

def basic_groups(layers, h, cin, groups):
    for g, (width, blocks, stride) in enumerate(groups, start=1):
        group = f"group{g}"
        for blk in range(1, blocks + 1):
            s = stride if blk == 1 else 1
            h_out = out_size(h, s)
            base = f"{group}.block{blk}"
            if blk == 1 and (s != 1 or cin != width):
                layers.append(conv(base + ".shortcut", group, h_out, h_out, cin, width, 1, s,
                                   act="none"))
            layers.append(conv(base + ".conv1", group, h_out, h_out, cin, width, 3, s))
            layers.append(conv(base + ".conv2", group, h_out, h_out, width, width, 3,
                               residual=True))
            cin, h = width, h_out
    return cin, h


# Relayouts as XLA emits them in the profiled Mask R-CNN step (google/paragraph
# hlo_after_optimizations_maskrcnn_32_tpuv3_stats.csv, 'data formatting' ops, 4 images per core,
# the 832x1344 orientation's op names): copies and reshapes that change an array's HBM tiling.
# Each array is [batch, dims...] with XLA's minor-to-major order (axis 0 the batch); `transposed`
# where the destination puts other elements on the lanes, as the profile's rate shows (95-160
# GB/s against 250-360 for those that regroup rows; docs/training-model.md section 3, rule 13).
PROFILE_MASKRCNN = "[B] google/paragraph paragraph/data/hlo_after_optimizations_maskrcnn_32_tpuv3_stats.csv (commit 97f466f): "


def relayout(name, group, src, dst, element_bytes, transposed, hlo, pass_="forward",
             spatial="split", profile=None):
    # Spatial partitions split the first axis after the batch, as they split the maps (the
    # anchors follow their rows) and the RoIs.
    return {"name": name, "group": group, "type": "relayout", "spatial": spatial,
            "from": {"dims": src[0], "minor_to_major": src[1]},
            "to": {"dims": dst[0], "minor_to_major": dst[1]},
            "element_bytes": element_bytes, "transposed": transposed, "pass": pass_,
            "source": (profile or PROFILE_MASKRCNN) + hlo}


def reduce_(name, group, src, dst, element_bytes, hlo, count=1, pass_="forward",
            spatial="split", profile=None):
    """A reduction as XLA emits it: the operand and the result as a relayout states them,
    `count` kernels per step (a loop's iterations, each over the whole batch)."""
    layer = {"name": name, "group": group, "type": "reduce", "spatial": spatial,
             "from": {"dims": src[0], "minor_to_major": src[1]},
             "to": {"dims": dst[0], "minor_to_major": dst[1]},
             "element_bytes": element_bytes, "pass": pass_,
             "source": (profile or PROFILE_MASKRCNN) + hlo}
    if count != 1:
        layer["count"] = count
    return layer


PROFILE_SSD = "[B] google/paragraph paragraph/data/hlo_after_optimizations_ssd_32_tpuv3_stats.csv (commit 97f466f): "


def ssd_head_relayouts(level, size, defaults, classes):
    """The class and box predictions of one level on their way to the loss, as the profile's
    level-38 ops show them (16 images per core; the other levels likewise, per level): the class
    logits [b, s, s, A x 81] split per default box, moved default-box-major and flattened to
    [b, s s A, 81] (the 81 classes stay on the lanes: rows regrouped), the gradient back; the box
    offsets [b, s, s, A x 4] moved to the boxes' own layouts and back (the 4 offsets leave the
    lanes: transposes). Axes are written [b, s, s, A, n] whatever XLA's logical order."""
    s, a, n = size, defaults, classes
    src = PROFILE_SSD
    return [
        relayout(f"class{level}.split", "heads", ([s, s, a * n], [3, 0, 2, 1]),
                 ([s, s, a, n], [4, 3, 0, 2, 1]), 4, False, "while/Reshape reshape.22431",
                 profile=src),
        relayout(f"class{level}.transpose", "heads", ([s, s, a, n], [4, 3, 0, 2, 1]),
                 ([s, s, a, n], [4, 2, 1, 3, 0]), 4, False,
                 "while/transpose_2 copy.4612 (f32[16,4,38,38,81] {4,1,0,3,2} to {4,3,2,1,0})",
                 profile=src),
        relayout(f"class{level}.flatten", "heads", ([s, s, a, n], [4, 2, 1, 3, 0]),
                 ([s * s * a, n], [2, 1, 0]), 4, False, "while/Reshape_1 reshape.22432",
                 profile=src),
        relayout(f"class{level}.gradient_unflatten", "heads", ([s * s * a, n], [2, 1, 0]),
                 ([s, s, a, n], [4, 2, 1, 3, 0]), 2, False,
                 "while/gradients/while/Cast_grad reshape.22438", pass_="backward", profile=src),
        relayout(f"class{level}.gradient_transpose", "heads", ([s, s, a, n], [4, 2, 1, 3, 0]),
                 ([s, s, a, n], [4, 3, 0, 2, 1]), 2, False,
                 "while/gradients/while/Cast_grad copy.4621", pass_="backward", profile=src),
        relayout(f"class{level}.gradient_merge", "heads", ([s, s, a, n], [4, 3, 0, 2, 1]),
                 ([s, s, a * n], [3, 0, 2, 1]), 2, False,
                 "while/gradients/while/Cast_grad reshape.22439", pass_="backward", profile=src),
        relayout(f"box{level}.relayout", "heads", ([s, s, a * 4], [3, 0, 2, 1]),
                 ([s, s, a * 4], [2, 3, 1, 0]), 4, True, "while/Cast_1 copy.4622", profile=src),
        relayout(f"box{level}.transpose", "heads", ([s, s, a, 4], [2, 4, 3, 1, 0]),
                 ([s, s, a, 4], [0, 4, 2, 1, 3]), 4, True,
                 "while/transpose_3 copy.4623 (f32[16,4,38,38,4] {3,4,1,2,0} to {0,4,3,2,1})",
                 profile=src),
        relayout(f"box{level}.gradient_transpose", "heads", ([s, s, a, 4], [0, 4, 2, 1, 3]),
                 ([s, s, a, 4], [2, 4, 3, 1, 0]), 2, True, "while/gradients/while/Cast_1_grad "
                 "(bf16[16,4,38,38,4] {0,4,3,2,1} to {3,4,1,2,0})", pass_="backward", profile=src),
        relayout(f"box{level}.gradient_relayout", "heads", ([s, s, a * 4], [2, 3, 1, 0]),
                 ([s, s, a * 4], [3, 0, 2, 1]), 2, True, "while/gradients/while/Cast_1_grad "
                 "(bf16[16,38,38,16] {2,3,1,0} to {3,0,2,1})", pass_="backward", profile=src),
    ]


def ssd():
    classes, defaults = 81, (4, 6, 6, 6, 4, 4)
    layers = [
        # The infeed's flat image batch into the stem's layout, the images on the lanes
        # (bf16[300,300,3,16]{3,2,1,0:T(4,128)}).
        relayout("input.image", "stem", ([300 * 300 * 3], [1, 0]), ([300, 300, 3], [0, 3, 2, 1]),
                 2, True, "while/InfeedQueue/dequeue reshape.22430", profile=PROFILE_SSD),
        conv("conv0", "stem", 150, 150, 12, 64, 4, fold=True),
        {"name": "maxpool", "group": "stem", "type": "pool", "h": 75, "w": 75, "c": 64, "k": 3,
         "stride": 2},
    ]
    c, h = basic_groups(layers, 75, 64, [(64, 3, 1), (128, 4, 2), (256, 6, 1)])
    levels = [(h, c)]
    extras = [(256, 512, 2, 19), (256, 512, 2, 10), (128, 256, 2, 5), (128, 256, 1, 3),
              (128, 256, 1, 1)]
    for i, (mid, cout, stride, size) in enumerate(extras, start=7):
        layers.append(conv(f"block{i}.conv1x1", "extras", h, h, c, mid, 1, bn="none", bias=True))
        layers.append(conv(f"block{i}.conv3x3", "extras", size, size, mid, cout, 3, stride,
                           bn="none", bias=True))
        c, h = cout, size
        levels.append((h, c))
    boxes = 0
    for level, ((size, ch), n) in enumerate(zip(levels, defaults), start=3):
        k = min(size, 3)
        layers.append(conv(f"class{level}", "heads", size, size, ch, classes * n, k, bn="none",
                           act="none", bias=True))
        layers.append(conv(f"box{level}", "heads", size, size, ch, 4 * n, k, bn="none",
                           act="none", bias=True))
        boxes += size * size * n
    for level, ((size, ch), n) in enumerate(zip(levels, defaults), start=3):
        layers += ssd_head_relayouts(level, size, n, classes)
    assert boxes == 8732, boxes
    layers += [
        {"name": "class_loss", "group": "loss", "type": "loss", "rows": boxes, "classes": classes,
         "spatial": "split"},
        # Hard negative mining: rank the 8732 background losses (a sort on the vector units,
        # about log2(8732) = 14 compare-exchange passes), then the smooth-L1 box loss.
        elementwise("hard_negative_mining", "loss", boxes, 14 * 2, passes=2, backward=False,
                    spatial="split"),
        elementwise("box_loss", "loss", 4 * boxes, 6, passes=3, spatial="split"),
    ]
    return {"source": f"[A] {R07} Google/benchmarks/ssd/implementations/ssd-research-TF-tpu-v3-8192/"
                      "{ssd_architecture.py,ssd_constants.py,ssd_model.py}; shapes in ../shared/reference/compute-model.md section 2.5",
            "variables": {}, "layers": layers}


# ---------------------------------------------------------------------------------------------
# Mask R-CNN, ResNet-50 FPN at 832x1344 (R07 Google/benchmarks/maskrcnn/implementations/
# maskrcnn-research-TF-tpu-v3-1024/{mask_rcnn_params.py,mask_rcnn_architecture.py,fpn.py,
# resnet.py}): batch norm frozen (is_training_bn=False: a scale and shift), FPN P2-P6, RPN on
# every level, 512 sampled RoIs per image (box head), 128 foreground RoIs (mask head); the RoI
# heads are split over the partitions by RoI (xla_sharding.split in the box head).

# RoIAlign as the TPU code runs it (mask_rcnn_architecture.py `multilevel_crop_and_resize`,
# `two_step_gather_per_level`; the profile's `multilevel_crop_and_resize/einsum` ops, e.g.
# bf16[4,336,256,512,7] from [4,208,336,256] x [4,512,7,208]): on every RoI level, P2-P5 (the
# profile's einsums do 2.173 TFLOP per step at 4 images per core; P2-P5 give 2.173, with P6
# 2.184), every RoI's sampling weights as one-hot rows over the map, two einsums, the level's
# share masked into the sum; sampling_ratio 2 points per cell and axis.
def roi_align(group, sizes, rois, cells):
    return [{"name": f"{group}.roi_align{level}", "group": group, "type": "crop_resize",
             "h": sizes[level][0], "w": sizes[level][1], "c": 256, "rois": rois,
             "size": cells, "samples": 2, "spatial": "rois"} for level in (2, 3, 4, 5)]


def maskrcnn_anchor_relayouts(level, h, w):
    """The RPN outputs of one level on their way to the proposals and the loss."""
    n = h * w * 3
    row_major3, row_major2, row_major1 = [3, 2, 1, 0], [2, 1, 0], [1, 0]
    return [
        # The head's outputs leave the convolution batch-second-minor ({3,0,2,1}).
        relayout(f"rpn.box{level}.relayout", "proposals", ([h, w, 12], [3, 0, 2, 1]),
                 ([h, w, 12], row_major3), 2, False, "rpn_net/rpn-box/BiasAdd copy.8143"),
        relayout(f"rpn.score{level}.relayout", "proposals", ([h, w, 3], [3, 0, 2, 1]),
                 ([h, w, 3], row_major3), 2, False, "proposal/proposal-l2/Sigmoid copy.8144"),
        relayout(f"proposals.boxes{level}", "proposals", ([h, w, 12], row_major3),
                 ([n, 4], row_major2), 2, False, "proposal/proposal-l2/Reshape_1 reshape.21133"),
        relayout(f"proposals.boxes{level}.transpose", "proposals", ([n, 4], row_major2),
                 ([n, 4], [1, 2, 0]), 2, True, "proposal/proposal-l2/Reshape_1 copy.8146"),
        relayout(f"proposals.scores{level}", "proposals", ([h, w, 3], row_major3),
                 ([n], row_major1), 2, True, "proposal/proposal-l2/Sigmoid reshape.42453"),
        # The loss: the box targets from the infeed's flat buffer into the map's layout, the
        # per-anchor score loss back to the map's (and its gradient).
        relayout(f"rpn.loss.box_targets{level}.unpack", "rpn_loss", ([n * 4], row_major1),
                 ([n, 4], row_major2), 4, False, "InfeedQueue/dequeue reshape.44497"),
        relayout(f"rpn.loss.box_targets{level}", "rpn_loss", ([n, 4], row_major2),
                 ([h, w, 12], row_major3), 4, False, "rpn_loss/Reshape_1 reshape.23353"),
        relayout(f"rpn.loss.scores{level}", "rpn_loss", ([n, 1], [1, 0, 2]),
                 ([h, w, 3], row_major3), 4, True,
                 "rpn_loss/rpn_score_loss/sigmoid_cross_entropy_loss/Cast reshape.42645, its "
                 "gradient Mul_grad reshape.42688", "both"),
        # The box loss's normaliser (huber_loss num_present: the weights that are not zero),
        # summed over the box weights [b, anchors, 4] with the 4 offsets on the lanes.
        reduce_(f"rpn.loss.box_weights{level}", "rpn_loss", ([n, 4], row_major2),
                ([1], row_major1), 4, "rpn_loss/rpn_box_loss/huber_loss/num_present:Sum "
                "%fusion.4041 (f32[4,209664,4]{2,1,0} to f32[] on P2; the other levels "
                "likewise)"),
    ]


def maskrcnn():
    H, W = 832, 1344
    layers = [relayout("input.image", "backbone.stem", ([H // 2 * W // 2 * 12], [1, 0]),
                       ([H // 2 * W // 2, 12], [2, 0, 1]), 2, True,
                       "InfeedQueue/dequeue reshape.44495: the space-to-depth image batch "
                       "bf16[279552,4,12], the images second-minor"),
              conv("conv0", "backbone.stem", H // 2, W // 2, 12, 64, 4, bn="frozen", fold=True),
              {"name": "maxpool", "group": "backbone.stem", "type": "pool", "h": H // 4,
               "w": W // 4, "c": 64, "k": 3, "stride": 2}]
    feats = {}
    bottleneck_groups(layers, "backbone.", H // 4, W // 4, 64, RESNET50_GROUPS, bn="frozen",
                      feats=feats)
    # FPN: lateral 1x1 to 256 channels, top-down nearest upsampling + add, 3x3 output convs.
    # As the profile's HLO runs the top-down path: the 2x upsampling is a broadcast kernel that
    # reads the coarser map and writes this level's (resnet_fpn/nearest_upsampling*/mul), the add
    # is in the lateral convolution's epilogue (its fusion reads the upsampled map), and the
    # upsampling's gradient is a reduction summing each 2 x 2 block of the gradient
    # (nearest_upsampling*/mul_grad/Sum, bf16[4,104,2,168,2,256]{5,0,4,3,2,1} to
    # bf16[4,104,168,256]{3,0,2,1} on P2).
    for level in (5, 4, 3, 2):
        fh, fw, fc = feats[level]
        if level < 5:
            layers.append(elementwise(f"fpn.topdown{level}", "fpn", fh * fw * 256, 0,
                                      passes=1.25, backward=False, spatial="split"))
        layers.append(conv(f"fpn.lateral{level}", "fpn", fh, fw, fc, 256, 1, bn="none",
                           act="none", bias=True, residual=level < 5))
        if level < 5:
            upsampling = {4: "", 3: "_1", 2: "_2"}[level]
            layers.append(reduce_(f"fpn.topdown{level}.grad", "fpn",
                                  ([fh // 2, 2, fw // 2, 2, 256], [5, 0, 4, 3, 2, 1]),
                                  ([fh // 2, fw // 2, 256], [3, 0, 2, 1]), 2,
                                  f"gradients/resnet_fpn/nearest_upsampling{upsampling}/mul_grad/"
                                  "Sum:Sum, the gradient's 2 x 2 blocks summed", pass_="backward"))
    for level in (2, 3, 4, 5):
        fh, fw, _ = feats[level]
        layers.append(conv(f"fpn.output{level}", "fpn", fh, fw, 256, 256, 3, bn="none",
                           act="none", bias=True))
    p6 = (feats[5][0] // 2, feats[5][1] // 2)
    layers.append({"name": "fpn.p6", "group": "fpn", "type": "pool", "h": p6[0], "w": p6[1],
                   "c": 256, "k": 1, "stride": 2})
    anchors = 0
    level_anchors = {}
    sizes = {lv: feats[lv][:2] for lv in (2, 3, 4, 5)}
    sizes[6] = p6
    for level in (2, 3, 4, 5, 6):
        fh, fw = sizes[level]
        head = [conv(f"rpn.conv{level}", "rpn", fh, fw, 256, 256, 3, bn="none", bias=True),
                conv(f"rpn.score{level}", "rpn", fh, fw, 256, 3, 1, bn="none", act="none",
                     bias=True),
                conv(f"rpn.box{level}", "rpn", fh, fw, 256, 12, 1, bn="none", act="none",
                     bias=True)]
        if level > 2:  # one RPN head shared by every level
            for layer in head:
                layer["tied"] = layer["name"][:-1] + "2"
        layers += head
        anchors += fh * fw * 3
        level_anchors[level] = fh * fw * 3
    rois, fg, classes = 512, 128, 91
    post_nms = sum(min(n, 1000) for n in level_anchors.values())
    layers += [
        # RPN targets against up to 100 ground-truth boxes (IoU, about 20 vector ops each) and
        # the proposal step: the top 2000 of each level by a sort of its bf16 scores with their
        # s32 indices (the profile's `top_k_wrapper` sorts [4, 209664] ... [4, 819]), box
        # decoding, NMS over 2000 boxes in tiles (IoU of 2000 x 2000 pairs), and the top 1000
        # of the survivors of every level (`post_nms_topk`, [4, 4819]).
    ]
    for level in (2, 3, 4, 5, 6):
        layers += maskrcnn_anchor_relayouts(level, *sizes[level])
    layers += [
        elementwise("rpn.targets", "proposals", anchors * 100, 20, passes=1, backward=False),
        elementwise("rpn.loss", "proposals", anchors * 16, 4, eup=1, passes=2),
    ] + [
        {"name": f"proposals.topk{level}", "group": "proposals", "type": "sort", "rows": 1,
         "length": n, "element_bytes": 2 + 4} for level, n in level_anchors.items()
    ] + [
    ] + [
        # NMS as the TPU code runs it (box_utils sorted_non_max_suppression_padded): the top
        # 2000 boxes of each level in tiles of 512, each tile's 512 x 512 IoU suppressed in a
        # loop until it stops changing. The profile's loop kernels stream that IoU matrix
        # f32[4,512,512]: per step 72.8 `Max` reduces to a row [4,512] (%reduce.2714) and as
        # many `Max_1` loop fusions, 18.0 `Sum_1` reduces, and 90.7 `Sum` loop fusions that
        # write the masked matrix back (%fusion.10651), over the 18 tiles: about 4 iterations a
        # tile (a measured, data-dependent count), each a Max, a Max_1 and a Sum, and a Sum and
        # a Sum_1 a tile besides.
        layer
        for level, n in level_anchors.items()
        for tiles in [-(-min(n, 2000) // 512)]
        for layer in (
            reduce_(f"proposals.nms{level}", "proposals", ([512, 512], [2, 1, 0]),
                    ([512], [1, 0]), 4, "the NMS loop's Max:Max %reduce.2714, Max_1 "
                    "%fusion.10649 and Sum_1 %reduce.2740 over f32[4,512,512]",
                    count=9 * tiles, spatial="replicated"),
            elementwise(f"proposals.nms{level}.mask", "proposals", 512 * 512, 2, passes=2,
                        backward=False, count=5 * tiles, element_bytes=4))
    ] + [
        {"name": "proposals.post_nms_topk", "group": "proposals", "type": "sort", "rows": 1,
         "length": post_nms, "element_bytes": 2 + 4},
        elementwise("roi.targets", "proposals", 2000 * 100, 20, passes=1, backward=False),
    ]
    layers += roi_align("box_head", sizes, rois, 7)
    layers += [
        # The RoI features, RoI-minor out of the einsums, relaid for fc6, and back in the
        # gradient.
        relayout("box_head.features", "box_head", ([rois, 7, 7, 256], [4, 3, 2, 1, 0]),
                 ([rois, 7, 7, 256], [1, 0, 4, 3, 2]), 2, True,
                 "faster_rcnn_heads/multilevel_crop_and_resize/add_71 copy.8273, its gradient "
                 "faster_rcnn_heads/Reshape_grad copy.8285", "both", spatial="rois"),
        relayout("box_head.fc6_input", "box_head", ([rois, 7 * 7 * 256], [1, 0, 2]),
                 ([rois, 7 * 7 * 256], [2, 1, 0]), 2, True,
                 "faster_rcnn_heads/Reshape copy.8274, its gradient fc6/einsum/Einsum_grad "
                 "copy.8284", "both", spatial="rois"),
        dense("box_head.fc6", "box_head", rois, 7 * 7 * 256, 1024, act="relu", spatial="rois"),
        dense("box_head.fc7", "box_head", rois, 1024, 1024, act="relu", spatial="rois"),
        dense("box_head.class", "box_head", rois, 1024, classes, spatial="rois"),
        dense("box_head.box", "box_head", rois, 1024, 4 * classes, spatial="rois"),
        {"name": "box_head.loss", "group": "box_head", "type": "loss", "rows": rois,
         "classes": classes},
    ]
    layers += roi_align("mask_head", sizes, fg, 14)
    for i in range(1, 5):
        layers.append(conv(f"mask_head.conv{i}", "mask_head", 14, 14, 256, 256, 3, bn="none",
                           bias=True, count=fg, spatial="rois"))
    layers += [
        # The 2x2 stride-2 transposed convolution: four outputs per input cell, i.e. a 1x1
        # convolution to 4 x 256 channels on the 14x14 grid.
        conv("mask_head.deconv", "mask_head", 14, 14, 256, 4 * 256, 1, bn="none", bias=True,
             count=fg, spatial="rois"),
        conv("mask_head.logits", "mask_head", 28, 28, 256, classes, 1, bn="none", act="none",
             bias=True, count=fg, spatial="rois"),
        elementwise("mask_head.loss", "mask_head", fg * 28 * 28, 6, eup=1, passes=2,
                    spatial="rois"),
        # The gradients of the box regression and of the mask logits between the heads'
        # layouts.
        relayout("box_head.box_gradient", "box_head", ([rois * classes, 4], [1, 2, 0]),
                 ([rois * classes, 4], [2, 1, 0]), 2, True,
                 "gradients/Cast_125_grad copy.8283 (bf16[186368,4], the RoIs and classes minor)",
                 "backward", spatial="rois"),
        relayout("mask_head.logits_gradient", "mask_head", ([fg, 28, 28, classes], [1, 0, 4, 3, 2]),
                 ([fg, 28, 28, classes], [1, 4, 3, 2, 0]), 2, False,
                 "gradients/mask_rcnn_heads/Reshape_1_grad reshape.23349 (bf16[4,128,28,28,91] to "
                 "bf16[512,28,28,91], the RoIs minor in both)", "backward", spatial="rois"),
    ]
    return {"source": f"[A] {R07} Google/benchmarks/maskrcnn/implementations/maskrcnn-research-TF-tpu-v3-1024/"
                      "{mask_rcnn_params.py,mask_rcnn_architecture.py,fpn.py,resnet.py}; shapes in ../shared/reference/compute-model.md section 2.6",
            "variables": {}, "layers": layers}


DECODERS = {"transformer": transformer_decode, "gnmt": gnmt_decode}

BUILDERS = {"resnet50": resnet50, "bert": bert, "transformer": transformer, "gnmt": gnmt,
            "ssd": ssd, "maskrcnn": maskrcnn}
