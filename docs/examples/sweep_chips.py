"""Time to train over chip counts for two MLPerf v0.7 presets (docs/python.md).

Run from the repository root after the dev build:
    PYTHONPATH=build/python /usr/bin/python3 docs/examples/sweep_chips.py docs/images/python-sweep-chips.png
"""

import sys

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt
from matplotlib.ticker import FixedLocator, NullLocator

import podscope

CHIPS = [16, 32, 64, 128, 256, 512, 1024, 2048, 4096]
# Okabe and Ito's palette (docs/figures.md): blue for the first model, orange for the second.
PRESETS = [("mlperf07-bert-jax-4096", "BERT (JAX)", "#0072B2", "o"),
           ("mlperf07-resnet50-tf-4096", "ResNet-50 (TF)", "#E69F00", "s")]

fig, ax = plt.subplots(figsize=(8, 5), dpi=200)
for preset, label, colour, marker in PRESETS:
    frame = podscope.sweep(preset=preset, chips=CHIPS)  # the preset's own global batch
    ok = frame[frame["error"].isna()]
    minutes = ok["time_to_train_s"] / 60
    batch = int(ok["global_batch"].iloc[0])
    ax.plot(ok["chips"], minutes, color=colour, marker=marker, label=f"{label}, batch {batch:,}")
    # Perfect scaling from the smallest slice that fits: twice the chips, half the time.
    first = ok.iloc[0]
    ideal = first["time_to_train_s"] / 60 * first["chips"] / ok["chips"]
    ax.plot(ok["chips"], ideal, color=colour, linestyle="--", linewidth=1, alpha=0.6)

ax.set_xscale("log", base=2)
ax.set_yscale("log")
ax.xaxis.set_major_locator(FixedLocator(CHIPS))
ax.xaxis.set_major_formatter(lambda value, _: f"{value:.0f}")
ax.xaxis.set_minor_locator(NullLocator())
# 1-2-5 ticks in each decade, the axis widened to the ticks around the data.
low, high = ax.get_ylim()
steps = [t * 10**e for e in range(-3, 6) for t in (1, 2, 5)]
low = max(t for t in steps if t <= low)
high = min(t for t in steps if t >= high)
ax.set_ylim(low, high)
ax.yaxis.set_major_locator(FixedLocator([t for t in steps if low <= t <= high]))
ax.yaxis.set_major_formatter(lambda value, _: f"{value:g}")
ax.yaxis.set_minor_locator(NullLocator())
ax.set_xlabel("chips (TPU-v3, standard slices)")
ax.set_ylabel("time to train (minutes)")
ax.set_title("Time to train over chip counts (podscope.sweep); dashed: perfect scaling")
ax.grid(True, which="major", color="#dddddd", linewidth=0.6)
ax.legend(frameon=False)
fig.tight_layout()
fig.savefig(sys.argv[1] if len(sys.argv) > 1 else "python-sweep-chips.png")
