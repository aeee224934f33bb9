"""The n-CDA name map (pure core): male <-> female first names by an optimal bipartite matching.

Matching
--------
Two bipartite problems: male vs female, and mostly male (1M, ?M) vs mostly female (1F, ?F);
unisex names are not matched. The edge weight is

    w(i, j) = ||v_i - v_j||_2 * (alpha - cos(v_i, v_j)),   alpha = 12/11 by default,

with cos = 0 when either vector is zero (none is, in the shipped file). All names of the
smaller side are matched against the same number of most frequent names of the larger side
(sorted by total frequency, descending, then by name in code-point order), by a
minimum-weight perfect matching.

Speed: names that share a frequency vector are interchangeable, so the assignment problem is
exactly a transportation problem between the distinct vectors (supply / demand = how many
names carry each vector); about 3.4k x 3.8k instead of 18k x 18k. POT's network simplex
(``ot.emd``) solves it; its transport plan is integral (a vertex of the transportation
polytope with integer margins) and its optimality is certified by the LP duals (the duality
gap is reported). Names are then paired inside each matched pair of vector classes by a fixed
rule: the names of a class are taken in code-point order, and the plan's non-zero cells are
visited in row-major order of the classes (classes sorted lexicographically by vector), each
cell pairing the next ``flow`` unpaired names of its row class with the next ``flow`` unpaired
names of its column class. Any pairing inside the classes has the same total cost.

The source, gender-guesser's ``nam_dict.txt``, is read and parsed into :class:`NameEntry`
records by :mod:`pipeline.cda.formats.name_map`; the command is :mod:`pipeline.cda.commands.namemap`.

May import: the standard library, numpy, scipy, POT (``ot``), :mod:`pipeline.errors`,
:mod:`pipeline.cda.formats.name_map` (the NameEntry record).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import numpy as np

from pipeline.cda.formats.name_map import NameEntry

ALPHA = 12 / 11
# (left class, right class): the two matchings
PAIRINGS = (("male", "female"), ("mostly_male", "mostly_female"))


# ----------------------------------------------------------------------------------------
# weights and the optimal matching (pure)
# ----------------------------------------------------------------------------------------

def edge_weights(U: np.ndarray, V: np.ndarray, alpha: float = ALPHA) -> np.ndarray:
    """w(i, j) = ||u_i - v_j|| * (alpha - cos(u_i, v_j)) for all rows of U and V.

    The vectors hold small integers, so the dot products and squared norms below are exact
    in float64 (every partial sum is an integer far below 2**53), and
    ||u - v||^2 = |u|^2 + |v|^2 - 2 u.v carries no rounding error before the square root.
    cos is 0 when a vector is zero.
    """
    U = np.asarray(U, dtype=np.float64)
    V = np.asarray(V, dtype=np.float64)
    uu = np.einsum("ij,ij->i", U, U)
    vv = np.einsum("ij,ij->i", V, V)
    uv = U @ V.T                                    # exact integers
    dist = np.add.outer(uu, vv)
    dist -= uv
    dist -= uv                                      # |u|^2 + |v|^2 - 2 u.v, exact
    np.maximum(dist, 0.0, out=dist)
    np.sqrt(dist, out=dist)
    nu, nv = np.sqrt(uu), np.sqrt(vv)
    inv_u = np.divide(1.0, nu, out=np.zeros_like(nu), where=nu > 0)
    inv_v = np.divide(1.0, nv, out=np.zeros_like(nv), where=nv > 0)
    cos = uv                                        # reuse the buffer
    cos *= inv_u[:, None]
    cos *= inv_v[None, :]                           # 0 where a norm is 0
    np.subtract(alpha, cos, out=cos)
    dist *= cos
    return dist


def order_by_frequency(entries: Iterable[NameEntry]) -> list[NameEntry]:
    """Most frequent first (total frequency, descending), ties by name in code-point order."""
    return sorted(entries, key=lambda e: (-e.total, e.name))


def select_sides(left: list[NameEntry], right: list[NameEntry]) -> tuple[list[NameEntry], list[NameEntry]]:
    """All names of the smaller side, and the equally many most frequent names of the larger
    side (see :func:`order_by_frequency`). Both returned in frequency order."""
    left, right = order_by_frequency(left), order_by_frequency(right)
    n = min(len(left), len(right))
    return left[:n], right[:n]


@dataclass
class MatchResult:
    pairs: list[tuple[int, int]]   # (index into left, index into right)
    weights: np.ndarray            # w of each pair
    total: float                   # sum of the pair weights
    n_left_classes: int            # distinct vectors
    n_right_classes: int
    duality_gap: float             # primal - dual objective of the transport LP (≈ 0)
    dual_violation: float          # max(u_k + v_l - C_kl, 0): 0 certifies optimality


def _group(vectors) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct vectors (sorted lexicographically), each row's class, class sizes -- like
    ``np.unique(axis=0)``, but hashing tuples is much faster for 18k rows."""
    rows = [tuple(r) for r in (vectors.tolist() if isinstance(vectors, np.ndarray) else vectors)]
    distinct = sorted(set(rows))
    index = {v: k for k, v in enumerate(distinct)}
    inv = np.fromiter((index[r] for r in rows), dtype=np.int64, count=len(rows))
    return np.array(distinct, dtype=np.int64), inv, np.bincount(inv, minlength=len(distinct))


def match(left_vectors: np.ndarray, right_vectors: np.ndarray, alpha: float = ALPHA,
          left_names: list[str] | None = None, right_names: list[str] | None = None) -> MatchResult:
    """Minimum-weight perfect matching between equally many left and right vectors, solved as
    a transportation problem between the distinct vectors (see module doc).

    ``*_names`` give the order in which names inside one vector class are paired (default:
    index order).
    """
    import ot

    n = len(left_vectors)
    if len(right_vectors) != n:
        raise ValueError(f"sides differ in size: {len(left_vectors)} vs {len(right_vectors)}")
    if n == 0:
        return MatchResult([], np.zeros(0), 0.0, 0, 0, 0.0, 0.0)
    lu, linv, lcnt = _group(left_vectors)
    ru, rinv, rcnt = _group(right_vectors)
    # The solver sees the classes in a fixed pseudo-random order (seed 0): the network
    # simplex pivots about 20 % faster than on the lexicographic order; the plan is mapped
    # back to class indices below, so the result does not depend on it beyond ties.
    rng = np.random.default_rng(0)
    pl, pr = rng.permutation(len(lu)), rng.permutation(len(ru))
    C = edge_weights(lu[pl], ru[pr], alpha)
    a = lcnt[pl].astype(np.float64)
    b = rcnt[pr].astype(np.float64)
    max_iter = max(1_000_000, 50 * C.size)
    G, log = ot.emd(a, b, C, numItermax=max_iter, log=True)
    if log.get("warning"):
        raise RuntimeError(f"network simplex did not reach an optimum: {log['warning']}")
    ip, jp = np.nonzero(G > 0.5)
    g_nz = G[ip, jp]
    f_nz = np.rint(g_nz).astype(np.int64)
    # integral plan: every entry is a whole number (entries below 0.5 must be exactly 0)
    if np.abs(g_nz - f_nz).max(initial=0.0) > 1e-6 or float(G.sum()) - float(g_nz.sum()) > 1e-6:
        raise RuntimeError("transport plan is not integral")
    del G
    # optimality certificate from the duals: feasible duals with the same objective
    u, v = np.asarray(log["u"], dtype=np.float64), np.asarray(log["v"], dtype=np.float64)
    c_nz = C[ip, jp]
    primal = float(f_nz @ c_nz)
    dual = float(a @ u + b @ v)
    C -= u[:, None]
    C -= v[None, :]
    violation = float(max(-C.min(), 0.0))
    del C
    # back to class indices, cells in row-major order
    rows_nz, cols_nz = pl[ip], pr[jp]
    order = np.lexsort((cols_nz, rows_nz))
    rows_nz, cols_nz, f_nz, c_nz = rows_nz[order], cols_nz[order], f_nz[order], c_nz[order]
    if not (np.array_equal(np.bincount(rows_nz, f_nz, len(lu)), lcnt)
            and np.array_equal(np.bincount(cols_nz, f_nz, len(ru)), rcnt)):
        raise RuntimeError("transport plan does not meet the class sizes")

    # pair names inside matched classes
    def members(inv, names, n_classes):
        order = np.arange(len(inv)) if names is None else np.array(
            sorted(range(len(inv)), key=lambda i: names[i]), dtype=np.int64)
        order = order[np.argsort(inv[order], kind="stable")]
        starts = np.searchsorted(inv[order], np.arange(n_classes))
        return order, starts

    lorder, lstart = members(linv, left_names, len(lu))
    rorder, rstart = members(rinv, right_names, len(ru))
    lnext, rnext = lstart.copy(), rstart.copy()
    pairs: list[tuple[int, int]] = []
    weights = []
    for k, l, f, c in zip(rows_nz.tolist(), cols_nz.tolist(), f_nz.tolist(), c_nz.tolist()):
        i, j = lnext[k], rnext[l]
        pairs.extend(zip(lorder[i:i + f].tolist(), rorder[j:j + f].tolist()))
        lnext[k] += f
        rnext[l] += f
        weights.extend([c] * f)
    w = np.array(weights, dtype=np.float64)
    return MatchResult(pairs, w, float(w.sum()), len(lu), len(ru), primal - dual, violation)


def reference_total(left_vectors, right_vectors, alpha: float = ALPHA) -> float:
    """Optimal total by a plain dense assignment over every name (scipy's
    linear_sum_assignment), the reference the transport formulation is checked against."""
    from scipy.optimize import linear_sum_assignment

    C = edge_weights(np.asarray(left_vectors), np.asarray(right_vectors), alpha)
    rows, cols = linear_sum_assignment(C)
    return float(C[rows, cols].sum())


@dataclass
class PairingResult:
    left_class: str
    right_class: str
    n_left: int                 # names in the class before truncation
    n_right: int
    pairs: list[tuple[NameEntry, NameEntry, float]]
    total: float
    n_left_classes: int
    n_right_classes: int
    duality_gap: float
    dual_violation: float


def build_name_map(entries: dict[str, NameEntry] | Iterable[NameEntry], alpha: float = ALPHA,
                   pairings=PAIRINGS) -> list[PairingResult]:
    """Both matchings over a parsed dictionary (see :func:`pipeline.cda.formats.name_map.parse_nam_dict`)."""
    values = list(entries.values()) if isinstance(entries, dict) else list(entries)
    results = []
    for lc, rc in pairings:
        left_all = [e for e in values if e.cls == lc]
        right_all = [e for e in values if e.cls == rc]
        left, right = select_sides(left_all, right_all)
        m = match([e.vector for e in left], [e.vector for e in right], alpha, [e.name for e in left], [e.name for e in right])
        pairs = [(left[i], right[j], float(w)) for (i, j), w in zip(m.pairs, m.weights)]
        results.append(PairingResult(lc, rc, len(left_all), len(right_all), pairs, m.total,
                                     m.n_left_classes, m.n_right_classes, m.duality_gap,
                                     m.dual_violation))
    return results


def map_records(results: list[PairingResult]) -> list[dict]:
    """One record per direction (every pair twice), sorted by class then name."""
    rows = []
    for res in results:
        for a, b, w in res.pairs:
            for x, y in ((a, b), (b, a)):
                rows.append({"name": x.name, "partner": y.name, "class": x.cls,
                             "partner_class": y.cls, "weight": w,
                             "name_frequency": x.total, "partner_frequency": y.total})
    rows.sort(key=lambda r: (r["class"], r["name"]))
    return rows

