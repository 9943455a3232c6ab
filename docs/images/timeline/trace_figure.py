#!/usr/bin/env python3
"""Draws a step-timeline trace (podscope-cli timeline --out) as an SVG figure for the docs.

  trace_figure.py tracks TRACE.json "PROCESS" OUT.svg TITLE   one chip's tracks and the links
  trace_figure.py chips TRACE.json OUT.svg TITLE "PROCESS=LABEL"...   one row per chip

Colours follow docs/figures.md (Okabe and Ito); time in ms with round ticks.
"""
import json
import math
import sys

COLOURS = {
    "forward": "#0072B2",
    "backward": "#56B4E9",
    "gradient sync": "#E69F00",
    "batch-norm sum": "#CC79A7",
    "model-parallel exchange": "#CC79A7",
    "optimizer": "#009E73",
    "waiting for input": "#D55E00",
    "waiting at a barrier": "#999999",
    "evaluating": "#F0E442",
    "idle": "#F0E442",
}
LEGEND = ["forward", "backward", "batch-norm sum", "model-parallel exchange", "gradient sync",
          "optimizer", "waiting for input", "waiting at a barrier", "evaluating"]
FONT = 'font-family="DejaVu Sans"'
WIDTH, LEFT, RIGHT = 1600, 380, 40


def esc(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def round_step(span_ms, ticks=8):
    raw = span_ms / ticks
    base = 10 ** math.floor(math.log10(raw))
    return next(m * base for m in (1, 2, 5, 10) if m * base >= raw)


class Figure:
    def __init__(self, title, end_us):
        self.parts, self.y, self.end_us = [], 0, end_us
        self.text(WIDTH / 2, 30, title, 'text-anchor="middle"', size=20)
        self.y = 50

    def text(self, x, y, s, extra="", size=15):
        self.parts.append(f'<text x="{x:.1f}" y="{y:.1f}" {FONT} font-size="{size}" {extra}>{esc(s)}</text>')

    def rect(self, x, y, w, h, colour, tip=""):
        title = f"<title>{esc(tip)}</title>" if tip else ""
        self.parts.append(f'<rect x="{x:.2f}" y="{y:.1f}" width="{max(w, 0.6):.2f}" height="{h}" '
                          f'fill="{colour}">{title}</rect>')

    def x(self, us):
        return LEFT + (WIDTH - LEFT - RIGHT) * us / self.end_us

    def legend(self, used):
        x = LEFT
        for name in [n for n in LEGEND if n in used]:
            self.rect(x, self.y, 16, 16, COLOURS[name])
            self.text(x + 22, self.y + 13, name)
            x += 40 + 8.6 * len(name)
        self.y += 34

    def row(self, label, spans, height=22):
        self.text(LEFT - 10, self.y + height - 6, label, 'text-anchor="end"')
        self.parts.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{self.y + height + 2}" '
                          f'y2="{self.y + height + 2}" stroke="#dddddd"/>')
        for ts, dur, activity, name in spans:
            self.rect(self.x(ts), self.y, self.x(ts + dur) - self.x(ts), height,
                      COLOURS.get(activity, "#000000"), f"{name} ({dur:.1f} µs)")
        self.y += height + 6

    def counter(self, label, samples, colour, height=90):
        """samples: [(ts_us, percent)] as steps; axis 0..100 %."""
        top, bottom = self.y + 8, self.y + 8 + height
        pts = []
        for (ts, v), nxt in zip(samples, samples[1:] + [(self.end_us, samples[-1][1])]):
            y = bottom - height * v / 100
            pts += [(self.x(ts), y), (self.x(nxt[0]), y)]
        path = f"M{LEFT},{bottom} " + " ".join(f"L{px:.1f},{py:.1f}" for px, py in pts) + f" L{pts[-1][0]:.1f},{bottom} Z"
        self.parts.append(f'<path d="{path}" fill="{colour}" fill-opacity="0.85" stroke="none"/>')
        for pct in (0, 50, 100):
            y = bottom - height * pct / 100
            self.parts.append(f'<line x1="{LEFT - 4}" x2="{WIDTH - RIGHT}" y1="{y}" y2="{y}" stroke="#cccccc"/>')
            self.text(LEFT - 8, y + 5, f"{pct}", 'text-anchor="end"', size=13)
        for i, line in enumerate(label):
            self.text(LEFT - 40, top + 20 + 18 * i, line, 'text-anchor="end"')
        self.y = bottom + 10

    def axis(self):
        step = round_step(self.end_us / 1000)
        y = self.y + 4
        self.parts.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y}" y2="{y}" stroke="#000000"/>')
        t = 0.0
        while t <= self.end_us / 1000 + 1e-9:
            x = self.x(t * 1000)
            self.parts.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{y}" y2="{y + 6}" stroke="#000000"/>')
            self.text(x, y + 24, f"{t:g}", 'text-anchor="middle"')
            t += step
        self.text((LEFT + WIDTH - RIGHT) / 2, y + 50, "time from the start of the step (ms)", 'text-anchor="middle"')
        self.y = y + 64

    def svg(self):
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{self.y:.0f}" '
                f'viewBox="0 0 {WIDTH} {self.y:.0f}"><rect width="100%" height="100%" fill="#ffffff"/>'
                + "".join(self.parts) + "</svg>\n")


def load(path):
    trace = json.load(open(path))
    events = trace["traceEvents"]
    pids = {e["args"]["name"]: e["pid"] for e in events if e["ph"] == "M" and e["name"] == "process_name"}
    return trace, events, pids


def spans_of(events, pid, tid=None):
    out = []
    for e in events:
        if e["ph"] == "X" and e["pid"] == pid and (tid is None or e["tid"] == tid) and e["name"] != "training step":
            out.append((e["ts"], e["dur"], e["args"].get("activity", ""), e["name"]))
    return out


def tracks(path, process, out, title):
    trace, events, pids = load(path)
    pid = pids[process]
    names = {e["tid"]: e["args"]["name"] for e in events
             if e["ph"] == "M" and e["name"] == "thread_name" and e["pid"] == pid}
    fig = Figure(title, trace["otherData"]["step_s"] * 1e6)
    rows = [(tid, names[tid]) for tid in sorted(names) if names[tid] != "step"]
    fig.legend({s[2] for tid, _ in rows for s in spans_of(events, pid, tid)})
    for tid, name in rows:
        fig.row(name, spans_of(events, pid, tid))
    aggregate = next(p for n, p in pids.items() if n.startswith("all chips"))
    samples = [(e["ts"], e["args"]["gradient sync"]) for e in events
               if e["ph"] == "C" and e["pid"] == aggregate and e["name"].startswith("link use")]
    fig.counter(["links busy with", "gradient sync", "(% of capacity)"], samples[:-1], COLOURS["gradient sync"])
    fig.axis()
    open(out, "w").write(fig.svg())


def chips(path, out, title, rows):
    trace, events, pids = load(path)
    fig = Figure(title, trace["otherData"]["step_s"] * 1e6)
    chosen = [(pids[p], label) for p, label in (r.split("=", 1) for r in rows)]
    rows = []
    for pid, label in chosen:
        # Waiting for the group is grey whatever the chip waits at (the trace counts a wait for
        # the gradient sum as gradient sync, as the analytic breakdown does).
        spans = [(ts, dur, "waiting at a barrier" if name.startswith("waiting: ") else activity, name)
                 for ts, dur, activity, name in spans_of(events, pid) if "bucket" not in name]
        rows.append((label, spans))
    fig.legend({s[2] for _, spans in rows for s in spans})
    for label, spans in rows:
        fig.row(label, spans, height=34)
    fig.axis()
    open(out, "w").write(fig.svg())


if __name__ == "__main__":
    if sys.argv[1] == "tracks":
        tracks(*sys.argv[2:6])
    else:
        chips(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:])
