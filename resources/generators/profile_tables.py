#!/usr/bin/env python3
"""The per-model tables of docs/training-model.md section 14, from `podscope-cli profile
--summary NAME --json`: prints them, or with --write replaces each model's table in the doc.

    python3 resources/generators/profile_tables.py build/bin/podscope-cli [--write docs/training-model.md]
"""
import json
import re
import subprocess
import sys

MODELS = ["resnet", "bert", "transformer", "ssd", "maskrcnn", "gnmt"]
ROWS = [("matmul", "matmul/convolution"), ("elementwise", "elementwise"),
        ("reduction", "reductions"), ("data_formatting", "data formatting"),
        ("gather_scatter", "gathers/scatters"), ("collective", "collectives"),
        ("infeed", "infeed/outfeed"), ("other", "other")]
UNCOMPUTED = ("collective", "infeed", "other")


def ratio(a, b):
    return f"{a / b:.2f}" if b > 0 else "-"


def table(cli, name):
    j = json.loads(subprocess.run([cli, "profile", "--summary", name, "--json"], check=True,
                                  capture_output=True, text=True).stdout)
    cats = j["categories"]
    ms = lambda s: f"{1e3 * s:.2f}"
    lines = [f"**{name}** ({j['measured']['steps_in_window']:.2f} steps of "
             f"{j['measured']['cores']} cores in the window)", "",
             "| part (ms per step, one core) | profile | PodScope | PodScope / profile |",
             "|---|---|---|---|"]
    for key, label in ROWS:
        p, q = cats[key]["profile"]["seconds"], cats[key]["podscope"]["seconds"]
        lines.append(f"| {label} | {ms(p)} | {ms(q)} | {ratio(q, p)} |")
    p, q = j["step_s"]["profile"], j["step_s"]["podscope"]
    lines.append(f"| **step** | **{ms(p)}** | **{ms(q)}** | **{ratio(q, p)}** |")
    pc = sum(cats[k]["profile"]["seconds"] for k, _ in ROWS if k not in UNCOMPUTED)
    qc = sum(cats[k]["podscope"]["seconds"] for k, _ in ROWS if k not in UNCOMPUTED)
    lines.append(f"| compute (all but collectives, infeed, other) | {ms(pc)} | {ms(qc)} | "
                 f"{ratio(qc, pc)} |")
    measured = j["measured"]["bound_s"]
    pb, qb = j["bound_s"]["profile"], j["bound_s"]["podscope"]
    lines.append(f"| compute-bound (roofline) | {ms(pb['compute'])} | {ms(qb['compute'])} | "
                 f"{ratio(qb['compute'], pb['compute'])} |")
    lines.append(f"| memory-bound (roofline) | {ms(pb['memory'])} | {ms(qb['memory'])} | "
                 f"{ratio(qb['memory'], pb['memory'])} |")
    share_p = 100 * measured["hbm"] / (measured["compute"] + measured["hbm"] + measured["unknown"])
    modelled = qb["compute"] + qb["memory"]
    share_q = 100 * qb["memory"] / modelled
    lines.append(f"| HBM-bound share of compute (roofline) | {share_p:.0f} % | {share_q:.0f} % | "
                 f"{share_q - share_p:+.0f} points |")
    share_u = 100 * qb["other_units"] / modelled
    lines.append(f"| PodScope by binding unit: MXU / other units | | {ms(qb['mxu_unit'])} / "
                 f"{ms(qb['other_units'])} ({share_u:.0f} % other) | {share_u - share_p:+.0f} "
                 f"points |")
    pk = sum(c["profile"]["kernels"] for c in cats.values())
    qk = sum(c["podscope"]["kernels"] for c in cats.values())
    lines.append(f"| kernels per step | {pk:.0f} | {qk:.0f} | {ratio(qk, pk)} |")
    ph = sum(cats[k]["profile"]["hbm_bytes"] for k, _ in ROWS if k not in UNCOMPUTED)
    qh = sum(cats[k]["podscope"]["hbm_bytes"] for k, _ in ROWS if k not in UNCOMPUTED)
    lines.append(f"| HBM GB (compute parts) | {ph / 1e9:.1f} | {qh / 1e9:.1f} | {ratio(qh, ph)} |")
    pf, qf = cats["matmul"]["profile"]["flops"], cats["matmul"]["podscope"]["flops"]
    lines.append(f"| matmul TFLOP | {pf / 1e12:.2f} | {qf / 1e12:.2f} | {ratio(qf, pf)} |")
    return "\n".join(lines) + "\n"


def main():
    if len(sys.argv) not in (2, 4) or (len(sys.argv) == 4 and sys.argv[2] != "--write"):
        sys.exit(__doc__)
    tables = {name: table(sys.argv[1], name) for name in MODELS}
    if len(sys.argv) == 2:
        print("\n".join(tables.values()))
        return
    path = sys.argv[3]
    text = open(path, encoding="utf-8").read()
    for name, block in tables.items():
        # The heading line, a blank line and the table up to the next blank line.
        pattern = re.compile(r"^\*\*" + name + r"\*\* \(.*?\n\n(?:\|.*\n)+", re.M)
        text, count = pattern.subn(block, text, count=1)
        if count != 1:
            sys.exit(f"{path}: no table for {name}")
    open(path, "w", encoding="utf-8").write(text)


if __name__ == "__main__":
    main()
