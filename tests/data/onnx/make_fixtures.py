#!/usr/bin/python3
"""Exports the ONNX fixtures of tests/core/OnnxImportTest.cpp: torchvision architectures (no
pretrained weights: weights=None) and a small torch.nn.Transformer, opset 13, batch axis dynamic,
batch norms kept (keep_batch_norm). The weights are stripped: each initializer moves to
external data whose file is then deleted, so the committed models keep the shapes only.

Run with Debian's interpreter (python3-torch 1.13, python3-torchvision 0.14, python3-onnx 1.12):
    /usr/bin/python3 tests/data/onnx/make_fixtures.py [output folder]
"""
import os
import sys

import onnx
import onnx.external_data_helper
import torch
import torchvision


class TinyTransformer(torch.nn.Module):
    """torch.nn.Transformer with batch-first inputs of 32 tokens, model width 128."""

    def __init__(self):
        super().__init__()
        self.body = torch.nn.Transformer(d_model=128, nhead=4, num_encoder_layers=2,
                                         num_decoder_layers=2, dim_feedforward=512,
                                         dropout=0.0, batch_first=True)

    def forward(self, src, tgt):
        return self.body(src, tgt)


class TokenTagger(torch.nn.Module):
    """Embedding, LSTM, GRU, LayerNorm and a classifier over 16 tokens: the recurrent and
    embedding mappings (exported at opset 17, which has LayerNormalization)."""

    def __init__(self):
        super().__init__()
        self.embedding = torch.nn.Embedding(1000, 64)
        self.lstm = torch.nn.LSTM(64, 128, batch_first=True)
        self.gru = torch.nn.GRU(128, 128, batch_first=True)
        self.norm = torch.nn.LayerNorm(128)
        self.classifier = torch.nn.Linear(128, 1000)

    def forward(self, tokens):
        x, _ = self.lstm(self.embedding(tokens))
        x, _ = self.gru(x)
        return self.classifier(self.norm(x))


class SequenceFirstTagger(torch.nn.Module):
    """A bidirectional LSTM and a GRU in torch's default layout, [sequence, batch, features]
    (batch_first=False): the batch is the input's second axis."""

    def __init__(self):
        super().__init__()
        self.lstm = torch.nn.LSTM(32, 64, bidirectional=True)
        self.gru = torch.nn.GRU(128, 48)
        self.classifier = torch.nn.Linear(48, 10)

    def forward(self, x):
        x, _ = self.lstm(x)
        x, _ = self.gru(x)
        return self.classifier(x)


class Upsampler(torch.nn.Module):
    """A grouped conv and a transposed conv (the convolution mappings torchvision's classifiers
    do not have)."""

    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(8, 32, 3, padding=1, groups=4)
        self.up = torch.nn.ConvTranspose2d(32, 16, 4, stride=2, padding=1)

    def forward(self, x):
        return self.up(torch.relu(self.conv(x)))


def keep_batch_norm():
    """Exporting in eval mode folds each batch norm into its convolution (torch.onnx's eval
    peephole pass, run whatever do_constant_folding says); a training simulator needs them."""
    torch._C._jit_pass_onnx_eval_peephole = lambda graph, params: params


def export(model, example, names, path, opset=13, batch_axis=0):
    model.eval()
    axes = {name: {batch_axis: "batch"} for name in names + ["output"]}
    torch.onnx.export(model, example, path, input_names=names, output_names=["output"],
                      dynamic_axes=axes, opset_version=opset, do_constant_folding=False)
    stripped = onnx.load(path)
    weights = os.path.basename(path) + ".weights"
    onnx.external_data_helper.convert_model_to_external_data(
        stripped, all_tensors_to_one_file=True, location=weights, size_threshold=0)
    onnx.save(stripped, path)
    os.remove(os.path.join(os.path.dirname(path), weights))
    parameters = sum(p.numel() for p in model.parameters())
    print(f"{path}: {os.path.getsize(path)} bytes, {len(stripped.graph.node)} nodes, "
          f"{parameters} parameters")


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    torch.manual_seed(0)
    keep_batch_norm()
    image = torch.zeros(1, 3, 224, 224)
    models = {
        "resnet50": torchvision.models.resnet50(weights=None),
        "vit_b_16": torchvision.models.vit_b_16(weights=None),
        "mobilenet_v3_large": torchvision.models.mobilenet_v3_large(weights=None),
        "efficientnet_b0": torchvision.models.efficientnet_b0(weights=None),
    }
    for name, model in models.items():
        export(model, (image,), ["input"], os.path.join(out, name + ".onnx"))
    tokens = torch.zeros(1, 32, 128)
    export(TinyTransformer(), (tokens, tokens), ["src", "tgt"],
           os.path.join(out, "transformer.onnx"))
    export(TokenTagger(), (torch.zeros(1, 16, dtype=torch.long),), ["tokens"],
           os.path.join(out, "token_tagger.onnx"), opset=17)
    export(Upsampler(), (torch.zeros(1, 8, 32, 32),), ["input"], os.path.join(out, "upsampler.onnx"))
    export_sequence_first(out)


def export_sequence_first(out):
    """12 steps of 32 features, the batch on axis 1."""
    torch.manual_seed(0)
    export(SequenceFirstTagger(), (torch.zeros(12, 2, 32),), ["input"],
           os.path.join(out, "sequence_first_tagger.onnx"), opset=13, batch_axis=1)


if __name__ == "__main__":
    main()
