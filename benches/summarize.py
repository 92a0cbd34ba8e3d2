"""Collects every benchmark's rows into one table, target/bench/summary.json,
target/bench/summary.svg (every ratio) and target/bench/scaling.svg (how time grows with the
number of handlers and of concurrent fires) (python3 stdlib only).

    python3 benches/summarize.py TARGET_BENCH_DIR CRITERION_DIR

Rows come from TARGET_BENCH_DIR/*.jsonl (one JSON object per line, written by the spawn, Python,
Node and Go benchmarks) and from criterion's sample.json for the core groups, whose members are
`hookwire` and `baseline`. Ratios are hookwire / baseline for the median and for the p90.
"""

import html
import json
import math
import os
import sys

OUT, CRIT = sys.argv[1], sys.argv[2]

CORE = [
    ("1a", "config_load_200", "Dispatcher::new, 200-handler settings", "serde_json::from_str::<Value> of the same text"),
    ("1b", "no_match_fire_200", "fire_json, no match (200 handlers)", "serde_json::from_str::<Value> of the event"),
    ("1c", "unconfigured_event_fire", "fire_json, event with no handlers", "serde_json::from_str::<Value> of the event"),
    ("1d", "no_match_fire_value_200", "fire(&Value), no match (200 handlers)", "Value::clone of the event"),
    ("1h", "if_rule_skip", "fire_json, a Bash guard its `if` rule skips (`cd && npm test | tail && git status`)",
     "serde_json::from_str::<Value> of the event"),
    ("1i", "if_rule_skip_heredoc", "fire_json, a Bash guard its `if` rule skips (a commit with a here-document)",
     "serde_json::from_str::<Value> of the event"),
    ("1s", "sandboxed_spawn", "fire_json, one /bin/true hook in the strict sandbox (issue 35)",
     "the same fire, the hook unsandboxed"),
    ("1n", "netallow_spawn", "fire_json, one /bin/true hook in the strict sandbox with a network allow-list (`localhost:443`)",
     "the same fire in the strict sandbox without one"),
]


def q(xs, p):
    s = sorted(xs)
    return s[max(0, min(len(s) - 1, math.ceil(p * len(s)) - 1))]


def criterion_times(group, member):
    path = os.path.join(CRIT, group, member, "new", "sample.json")
    with open(path) as f:
        s = json.load(f)
    # One figure per sample: its mean time per iteration (criterion reports nanoseconds).
    return [t / i * 1e-9 for t, i in zip(s["times"], s["iters"])]


def core_rows():
    rows = []
    for fig, group, name, baseline in CORE:
        try:
            hw, base = criterion_times(group, "hookwire"), criterion_times(group, "baseline")
        except OSError as e:
            rows.append({"figure": fig, "name": name, "skipped": f"no criterion data ({e.strerror})"})
            continue
        r = {"figure": fig, "name": name, "baseline": baseline, "unit": "s", "n": len(hw),
             "median": q(hw, 0.5), "p90": q(hw, 0.9), "base_median": q(base, 0.5), "base_p90": q(base, 0.9),
             "note": "criterion samples (mean per iteration); the pair runs one after the other, not interleaved"}
        r["ratio_median"] = r["median"] / r["base_median"]
        r["ratio_p90"] = r["p90"] / r["base_p90"]
        if group in ("no_match_fire_200", "unconfigured_event_fire"):
            r["goal_abs"] = 1e-6  # issue 10: a no-match fire ≤ 1 µs
        rows.append(r)
    try:
        with open(os.path.join(OUT, "core-allocs.json")) as f:
            a = json.load(f)
        rows.append({"figure": "1e", "name": "heap allocations per no-match fire_json", "baseline":
                     "allocations of serde_json::from_str::<Value> of the event", "unit": "allocs", "n": 100,
                     "median": a["no_match_fire_allocs"], "p90": a["no_match_fire_allocs"],
                     "base_median": a["event_parse_allocs"], "base_p90": a["event_parse_allocs"],
                     "ratio_median": a["no_match_fire_allocs"] / a["event_parse_allocs"],
                     "ratio_p90": a["no_match_fire_allocs"] / a["event_parse_allocs"]})
    except (OSError, KeyError, ZeroDivisionError):
        pass
    return rows


def file_rows():
    rows = []
    for name in sorted(os.listdir(OUT)):
        if not name.endswith(".jsonl"):
            continue
        with open(os.path.join(OUT, name)) as f:
            for line in f:
                line = line.strip()
                if line.startswith("{"):
                    rows.append(json.loads(line))
    return rows


def fmt(v, unit):
    if v is None:
        return "-"
    if unit == "s":
        for scale, u in ((1, "s"), (1e-3, "ms"), (1e-6, "µs"), (1e-9, "ns")):
            if abs(v) >= scale or u == "ns":
                return f"{v / scale:.3g} {u}"
    return f"{v:.3g} {unit}"


def goal_text(r):
    if "goal" in r:
        return f"ratio ≤ {r['goal']}"
    if "goal_abs" in r:
        return f"≤ {fmt(r['goal_abs'], r['unit'])}"
    return ""


def table(rows):
    head = ["fig", "what", "baseline", "median", "p90", "base median", "base p90", "ratio med", "ratio p90", "goal"]
    lines = []
    for r in rows:
        if "skipped" in r:
            lines.append([r["figure"], r["name"], f"skipped: {r['skipped']}", "", "", "", "", "", "", ""])
            continue
        u = r["unit"]
        rm = f"{r['ratio_median']:.2f}" if "ratio_median" in r else "-"
        r9 = f"{r['ratio_p90']:.2f}" if "ratio_p90" in r else "-"
        lines.append([r["figure"], r["name"], r["baseline"], fmt(r["median"], u), fmt(r["p90"], u),
                      fmt(r["base_median"], u), fmt(r["base_p90"], u), rm, r9, goal_text(r)])
    md = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    md += ["| " + " | ".join(c.replace("|", "\\|") for c in line) + " |" for line in lines]
    return "\n".join(md)


def svg(rows):
    bars = [r for r in rows if "ratio_median" in r]
    w, left, right, bh, top = 1000, 420, 40, 22, 40
    h = top + bh * len(bars) + 40
    lo, hi = 0.1, max([10.0] + [r.get("ratio_p90", r["ratio_median"]) * 1.2 for r in bars])
    span = math.log10(hi) - math.log10(lo)
    x = lambda v: left + (w - left - right) * (math.log10(max(v, lo)) - math.log10(lo)) / span  # noqa: E731
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="11">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<text x="{left}" y="18" font-size="13">hookwire / baseline (log scale; bar = median ratio, '
           'whisker = p90 ratio, red tick = goal)</text>']
    t = lo
    while t <= hi * 1.0001:
        for m in (1, 2, 5):
            v = t * m
            if lo <= v <= hi:
                out.append(f'<line x1="{x(v):.1f}" y1="{top - 6}" x2="{x(v):.1f}" y2="{h - 30}" stroke="#ddd"/>')
                out.append(f'<text x="{x(v):.1f}" y="{h - 16}" text-anchor="middle">{v:g}</text>')
        t *= 10
    out.append(f'<line x1="{x(1):.1f}" y1="{top - 6}" x2="{x(1):.1f}" y2="{h - 30}" stroke="#444"/>')
    for i, r in enumerate(bars):
        y = top + i * bh
        label = html.escape(f"{r['figure']}  {r['name']}"[:70])
        out.append(f'<text x="{left - 6}" y="{y + 14}" text-anchor="end">{label}</text>')
        x0, x1 = x(min(1, r["ratio_median"])), x(max(1, r["ratio_median"]))
        color = "#4a7bd0"
        if "goal" in r:
            color = "#3a9a4a" if r["ratio_median"] <= r["goal"] else "#d0703a"
        out.append(f'<rect x="{x0:.1f}" y="{y + 4}" width="{max(1, x1 - x0):.1f}" height="{bh - 8}" fill="{color}"/>')
        if "ratio_p90" in r:
            out.append(f'<line x1="{x(r["ratio_median"]):.1f}" y1="{y + bh / 2}" x2="{x(r["ratio_p90"]):.1f}" '
                       f'y2="{y + bh / 2}" stroke="black"/>')
        if "goal" in r:
            out.append(f'<line x1="{x(r["goal"]):.1f}" y1="{y + 1}" x2="{x(r["goal"]):.1f}" y2="{y + bh - 1}" '
                       'stroke="red" stroke-width="2"/>')
        out.append(f'<text x="{x(max(r["ratio_median"], r.get("ratio_p90", 0))) + 4:.1f}" y="{y + 14}">'
                   f'{r["ratio_median"]:.2f}×</text>')
    out.append("</svg>")
    return "\n".join(out)


# Goals of issue 20 (and 10) for rows whose benchmark program does not state one itself.
GOALS = {
    "1a": ("goal", 5), "1f": ("goal", 2), "1g": ("goal", 5), "4b": ("goal", 1.5),
    "6go-0": ("goal", 3), "6py-0": ("goal", 2), "6node-0": ("goal_abs", 10e-6),
}


def with_goals(rows):
    for r in rows:
        key, value = GOALS.get(r["figure"], (None, None))
        if key and "skipped" not in r and "goal" not in r and "goal_abs" not in r:
            r[key] = value
    return rows


# Scaling series of issue 20: (figure prefix, label, colour, which value).
SERIES = {
    "handlers (200 → 100,000), median time": [
        ("7load-", "Dispatcher::new", "#4a7bd0", "median"),
        ("7fire-", "no-match fire_json", "#d0703a", "median"),
    ],
    "concurrent fires on one dispatcher, wall time of the round": [
        ("8conc-", "hookwire (exec /bin/true)", "#4a7bd0", "median"),
        ("8conc-", "bare posix_spawn threads", "#888888", "base_median"),
    ],
}


def points(rows, prefix, key):
    out = []
    for r in rows:
        tail = r["figure"][len(prefix):]
        if r["figure"].startswith(prefix) and tail.isdigit() and key in r:
            out.append((int(tail), r[key]))
    return sorted(out)


def scaling_svg(rows):
    """One log-log panel per entry of SERIES: how time grows with handlers and with concurrency."""
    pw, ph, pad = 460, 300, 60
    panels = [(title, [(label, colour, points(rows, prefix, key)) for prefix, label, colour, key in series])
              for title, series in SERIES.items()]
    panels = [(t, [s for s in series if s[2]]) for t, series in panels]
    panels = [p for p in panels if p[1]]
    w = max(1, len(panels)) * (pw + pad) + pad
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{ph + 2 * pad}" '
           'font-family="sans-serif" font-size="11">', f'<rect width="{w}" height="{ph + 2 * pad}" fill="white"/>']
    if not panels:
        out.append(f'<text x="{pad}" y="{pad}">no scaling rows in this run</text>')
    for i, (title, series) in enumerate(panels):
        x0, y0 = pad + i * (pw + pad), pad
        xs = [x for _, _, pts in series for x, _ in pts]
        ys = [y for _, _, pts in series for _, y in pts if y > 0]
        lx, hx = math.log10(min(xs)), math.log10(max(xs)) + 1e-9
        ly, hy = math.log10(min(ys)) - 0.1, math.log10(max(ys)) + 0.1
        px = lambda v: x0 + pw * (math.log10(v) - lx) / (hx - lx)  # noqa: E731
        py = lambda v: y0 + ph - ph * (math.log10(v) - ly) / (hy - ly)  # noqa: E731
        out.append(f'<text x="{x0}" y="{y0 - 24}" font-size="13">{html.escape(title)} (log-log)</text>')
        out.append(f'<rect x="{x0}" y="{y0}" width="{pw}" height="{ph}" fill="none" stroke="#444"/>')
        for x in sorted(set(xs)):
            out.append(f'<text x="{px(x):.1f}" y="{y0 + ph + 16}" text-anchor="middle">{x:,}</text>')
        d = 10 ** math.floor(ly)
        while d <= 10 ** hy:
            for m in (1, 3):
                v = d * m
                if 10 ** ly <= v <= 10 ** hy:
                    out.append(f'<line x1="{x0}" y1="{py(v):.1f}" x2="{x0 + pw}" y2="{py(v):.1f}" stroke="#ddd"/>')
                    out.append(f'<text x="{x0 - 4}" y="{py(v) + 4:.1f}" text-anchor="end">{fmt(v, "s")}</text>')
            d *= 10
        for k, (label, colour, pts) in enumerate(series):
            path = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in pts if y > 0)
            out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
            for x, y in pts:
                if y > 0:
                    out.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="{colour}"/>')
            out.append(f'<text x="{x0 + 8}" y="{y0 + 16 + 14 * k}" fill="{colour}">{html.escape(label)}</text>')
    out.append("</svg>")
    return "\n".join(out)


rows = with_goals(core_rows() + file_rows())
def order(r):
    """Figure number first, then the name, with a trailing count compared as a number (8conc-4
    before 8conc-16)."""
    fig = r["figure"]
    head, _, tail = fig.rpartition("-")
    count = int(tail) if head and tail.isdigit() else -1
    return (int("".join(c for c in fig[:2] if c.isdigit()) or 0), head if count >= 0 else fig, count)


rows.sort(key=order)
with open(os.path.join(OUT, "summary.json"), "w") as f:
    json.dump({"rows": rows}, f, indent=1, ensure_ascii=False)
with open(os.path.join(OUT, "summary.svg"), "w") as f:
    f.write(svg(rows))
with open(os.path.join(OUT, "scaling.svg"), "w") as f:
    f.write(scaling_svg(rows))
print(table(rows))
