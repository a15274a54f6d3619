#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Draws a skin-bench JSON run (skin-bench [--quick] --json FILE) as a PNG.

Left: ns/vertex against vertex count, per ISA, for skin's LBS and DQS and
the per-vertex SIMD loop (LBS, 4 influences, position + normal + tangent
into a 40-byte vertex, 64-joint random rig, one thread, median).
Right: skin's LBS speed-up over that loop per ISA and vertex count, and on
the real models.

Usage: scripts/plot-bench.py RUN.json OUT.png [--title TEXT]
Needs Debian's python3-matplotlib (scripts/setup.sh plot)."""
import argparse
import json
import sys
import textwrap

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit("plot-bench: needs python3-matplotlib (scripts/setup.sh plot)")

ISA_ORDER = ["scalar", "sse2", "neon", "avx2", "avx512"]
COLOURS = {"scalar": "#7f7f7f", "sse2": "#1f77b4", "neon": "#9467bd", "avx2": "#2ca02c", "avx512": "#d62728"}
METHODS = [("lbs", "skin LBS", "-", "o"), ("dqs", "skin DQS", "--", "s"),
           ("baseline", "per-vertex SIMD loop (LBS)", ":", "^")]


def standard(r):
    """The summary's case: 4 influences p+n+t, interleaved f32, one thread."""
    return (r["influences"] == 4 and r["attributes"] == "pnt" and r["output"] == "interleaved"
            and r["joint_format"] == "u16" and r["weight_format"] == "f32" and r["stores"] == "normal"
            and r["output_format"] == "f32" and r["morph_targets"] == 0 and r["threads"] == 1
            and r.get("case", "standard") == "standard" and r["rig"].startswith("random"))


def isa_key(isa):
    return ISA_ORDER.index(isa) if isa in ISA_ORDER else len(ISA_ORDER)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json")
    ap.add_argument("png")
    ap.add_argument("--title", default="skin-bench")
    a = ap.parse_args()
    try:
        with open(a.json) as f:
            runs = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"plot-bench: cannot read {a.json}: {e}")

    cases = [r for r in runs if standard(r)]
    if not cases:
        sys.exit(f"plot-bench: {a.json} has no LBS-4 p+n+t one-thread records (a skin-bench --json run?)")
    t = {(r["method"], r["isa"], r["vertices"]): r["ns_per_vertex_median"] for r in cases}
    isas = sorted({isa for (m, isa, n) in t if m == "baseline"}, key=isa_key)

    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 6), gridspec_kw={"width_ratios": [1, 1.15]})
    for isa in isas:
        for method, label, style, marker in METHODS:
            pts = sorted((n, v) for (m, i, n), v in t.items() if m == method and i == isa)
            if pts:
                left.plot([p[0] for p in pts], [p[1] for p in pts], style, marker=marker, color=COLOURS.get(isa),
                          label=f"{isa} {label}")
    left.set_xscale("log")
    left.set_ylim(bottom=0)
    sizes = sorted({n for (m, i, n) in t})
    left.set_xticks(sizes)
    left.set_xticklabels([f"{n // 1000}k" if n >= 1000 else str(n) for n in sizes])
    left.set_xlabel("vertices")
    left.set_ylabel("ns per vertex (median; lower is faster)")
    left.set_title("LBS/DQS, 4 influences, p+n+t, 1 thread")
    left.grid(True, alpha=0.3)
    left.legend(fontsize=8, ncol=3, loc="upper center", bbox_to_anchor=(0.5, -0.13))

    # Speed-ups over the loop: random rig per size, then the real models.
    bars = []  # (group label, isa, speed-up)
    for n in sizes:
        for isa in isas:
            if ("lbs", isa, n) in t and ("baseline", isa, n) in t:
                bars.append((f"random rig\n{n // 1000}k", isa, t[("baseline", isa, n)] / t[("lbs", isa, n)]))
    real = {}
    for r in runs:
        if r["rig"].startswith(("random", "coherent")) or r["threads"] != 1 or r.get("case", "standard") != "standard":
            continue
        real.setdefault((r["rig"], r["isa"]), {})[r["method"]] = r["ns_per_vertex_median"]
    for (rig, isa), m in sorted(real.items(), key=lambda x: (x[0][0], isa_key(x[0][1]))):
        if "lbs" in m and "baseline" in m:
            name = textwrap.fill(rig.rsplit(".", 1)[0].replace("_", " "), 14)
            bars.append((name, isa, m["baseline"] / m["lbs"]))
    groups = list(dict.fromkeys(g for g, _, _ in bars))
    width = 0.8 / max(1, len(isas))
    labelled = set()
    for gi, g in enumerate(groups):
        here = [(i, v) for gg, i, v in bars if gg == g]  # each group's bars centred on its tick
        for k, (isa, v) in enumerate(here):
            x = gi + (k - (len(here) - 1) / 2) * width
            right.bar(x, v, width * 0.95, color=COLOURS.get(isa), label=None if isa in labelled else isa)
            right.text(x, v + 0.03, f"{v:.2f}", ha="center", va="bottom", fontsize=8)
            labelled.add(isa)
    right.axhline(1.0, color="black", linewidth=0.8)
    right.set_xticks(range(len(groups)))
    right.set_xticklabels(groups, fontsize=8)
    right.set_ylabel("speed-up over the per-vertex SIMD loop (x)")
    right.set_title("skin LBS over the loop, same ISA (median)")
    right.grid(True, axis="y", alpha=0.3)
    right.legend(fontsize=8, loc="upper left")

    fig.suptitle(a.title)
    fig.tight_layout()
    fig.savefig(a.png, dpi=110)


if __name__ == "__main__":
    main()
