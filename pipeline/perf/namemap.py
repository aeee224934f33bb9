"""Time and memory of the n-CDA name map (``make perf-namemap``).

    python -m pipeline.perf.namemap [--runs 3] [--subset 4000] [--full-lsa]

Every measurement runs in a fresh child process, so its peak memory is its own: the peak
resident set size (``ru_maxrss``) of the child, which includes the interpreter and the
imported libraries (the "baseline" row shows that share: numpy, scipy and POT imported,
nothing computed). Printed: median wall time and median peak RSS over ``--runs`` runs of

* the full map (parse nam_dict.txt, both matchings, by the transport formulation);
* on a random subset of ``--subset`` male and ``--subset`` female names: the transport
  formulation and scipy's dense ``linear_sum_assignment`` side by side, with both totals;
* with ``--full-lsa``: dense ``linear_sum_assignment`` on the full male/female lists
  (about 9 minutes and 7.5 GB here; off by default).

Columns: wall and CPU seconds of the computation (medians; imports excluded), wall seconds of
the whole child process (interpreter start, imports, computation), peak RSS. The load average
is printed first: other jobs on the machine inflate wall times, CPU times much less.

May import: the standard library; inside the measured child: :mod:`pipeline.cda.core` (``namemap``) and
:mod:`pipeline.cda.formats.name_map`.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time


def _child(kind: str, n: int, seed: int) -> dict:
    import numpy as np
    import ot  # noqa: F401  (import cost belongs to every row alike)
    import scipy.optimize  # noqa: F401

    from pipeline.cda.core import namemap as nm
    from pipeline.cda.formats.name_map import load_nam_dict

    if kind == "baseline":
        return {"seconds": 0.0, "cpu": 0.0, "total": 0.0}
    t0, c0 = time.perf_counter(), time.process_time()
    if kind == "full":
        results = nm.build_name_map(load_nam_dict())
        return {"seconds": time.perf_counter() - t0, "cpu": time.process_time() - c0,
                "total": sum(r.total for r in results),
                "pairs": {f"{r.left_class}-{r.right_class}": len(r.pairs) for r in results}}
    entries = load_nam_dict()
    males = [e for e in entries.values() if e.cls == "male"]
    females = [e for e in entries.values() if e.cls == "female"]
    if kind.endswith("-full"):
        left, right = nm.select_sides(males, females)
    else:
        rng = np.random.default_rng(seed)
        left = [males[i] for i in rng.choice(len(males), n, replace=False)]
        right = [females[i] for i in rng.choice(len(females), n, replace=False)]
    U = np.array([e.vector for e in left])
    V = np.array([e.vector for e in right])
    t0, c0 = time.perf_counter(), time.process_time()
    if kind.startswith("transport"):
        total = nm.match(U, V).total
    else:
        total = nm.reference_total(U, V)
    return {"seconds": time.perf_counter() - t0, "cpu": time.process_time() - c0, "total": total}


def _run_child(kind: str, n: int, seed: int) -> dict:
    code = ("import json, resource, sys; from pipeline.perf.namemap import _child; "
            f"r = _child({kind!r}, {n}, {seed}); "
            "r['peak_rss_mb'] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024; "
            "print(json.dumps(r))")
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    res = json.loads(out.stdout.strip().splitlines()[-1])
    res["process_seconds"] = time.perf_counter() - t0
    return res


def _median(rows: list[dict], key: str) -> float:
    return statistics.median(r[key] for r in rows)


def main(argv: list[str] | None = None) -> int:
    from pipeline import options as opt

    args = opt.parse_script(argv, "python -m pipeline.perf.namemap", "benchmark of the n-CDA name map", [
        opt.option("--runs", type=int, default=3),
        opt.option("--subset", type=int, default=4000, help="names per side for the side-by-side rows"),
        opt.option("--seed", type=int, default=0),
        opt.option("--full-lsa", is_flag=True,
                   help="also run dense linear_sum_assignment on the full lists (minutes, ~7.5 GB)"),
    ])

    plan = [("baseline", "imports only (numpy, scipy, POT, pipeline)", 0),
            ("full", "full map, transport (parse + both matchings)", 0),
            ("transport", f"male-female subset {args.subset}x{args.subset}, transport", args.subset),
            ("lsa", f"male-female subset {args.subset}x{args.subset}, dense scipy LSA", args.subset)]
    if args.full_lsa:
        plan += [("transport-full", "male-female full, transport (matching only)", 0),
                 ("lsa-full", "male-female full, dense scipy LSA", 0)]
    import os

    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'measurement':<52} {'runs':>4} {'wall s':>7} {'CPU s':>6} {'process s':>9} {'peak RSS MB':>11} {'total cost':>16}")
    results = {}
    for kind, label, n in plan:
        runs = 1 if kind == "lsa-full" else args.runs
        rows = [_run_child(kind, n, args.seed + i * (kind in ("transport", "lsa"))) for i in range(runs)]
        results[kind] = rows
        totals = {round(r["total"], 6) for r in rows}
        total = f"{rows[0]['total']:.6f}" if len(totals) == 1 else "varies"
        print(f"{label:<52} {runs:>4} {_median(rows, 'seconds'):>7.2f} {_median(rows, 'cpu'):>6.2f} "
              f"{_median(rows, 'process_seconds'):>9.2f} {_median(rows, 'peak_rss_mb'):>11.0f} {total:>16}", flush=True)
    for a, b in (("transport", "lsa"), ("transport-full", "lsa-full")):
        if a in results and b in results:
            pairs = list(zip(results[a], results[b]))
            rel = max(abs(x["total"] - y["total"]) / max(abs(y["total"]), 1e-12) for x, y in pairs)
            speed = _median(results[b], "seconds") / max(_median(results[a], "seconds"), 1e-9)
            print(f"{a} vs {b}: max relative total difference {rel:.2e}; LSA / transport time {speed:.1f}x")
    if "full" in results:
        print(f"full map pairs: {results['full'][0]['pairs']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
