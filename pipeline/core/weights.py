"""Test-set weights that balance the masculine and feminine subsets ("The Gap on GAP",
Kocijan et al. 2021), and the weighted bias scores: the pure core (records in, numbers out).

May import: the standard library, numpy, scipy, :mod:`pipeline.errors`, :mod:`pipeline.vocab`,
:mod:`pipeline.lang.pronouns`, :mod:`pipeline.core.metrics`, :mod:`pipeline.formats.gap_tsv`
(its ``parse_bool`` only).

The program
-----------
With groups A (masculine) and B (feminine), and property sets S_j (N_k: the examples with
exactly k personal names; D_k: the examples whose correct candidate is the k-th closest name,
see :mod:`pipeline.diagnostics.core.analysis`), find w >= 0 with

    sum_A w = sum_B w,   sum w = n (the examples kept),
    sum_{A & S_j} w = sum_{B & S_j} w   for every j,

minimising  F(w) = sum_{i<j, both in A} max(w_i, w_j) + sum_{i<j, both in B} max(w_i, w_j).

Variants: ``all`` = W (N_k and D_k), ``num`` = W_num (N_k), ``dist`` = W_dist (D_k),
``trimmed`` = W_t (drop examples with more than 15 names or a correct candidate at rank >= 5,
then N_k and D_k).

Which examples the program keeps (the published sets)
-----------------------------------------------------
* Every example with a correct candidate (gold A-coref or B-coref TRUE) is kept; examples
  without one get weight 0 and are not part of the program (GAP test: 227).
* A correct candidate that no name span overlaps (GAP test, manual spans: 9 examples such as
  "Footman", "The Queen", "Manager of the Year") is still ranked: its own span takes the place
  of its name (:func:`pipeline.diagnostics.core.analysis.example_features`); it does not count as a name. So
  every kept example is in some D_k, and W, W_dist and W_t keep these examples too.
* A set with members of only one gender forces their weights to 0 (its balance constraint
  reads sum = 0); such examples stay in the program (they count in n and in F) with weight
  0, and the constraint is applied again after that, so a set emptied on one side by those
  zeros forces its own members to 0 too. ``--strict`` refuses such sets instead.
* Trimming (W_t) happens before the program: examples with more than 15 names or a correct
  candidate at rank 5 or more are left out.
* Where the optimum is not unique, the weights are the optimal solution whose smallest weight
  among the examples not forced to 0 is the largest (a second LP over the optimal face: the
  objective is held at the optimum F* within a relative 1e-9). So no example gets weight 0
  unless the constraints (or exact optimality) force it. On GAP test with the manual spans
  the first optimal vertex HiGHS finds has 5 more feminine zeros in W (test-387, test-643,
  test-864, test-1447, test-1603). Exact optimality forces them: their max-min weight is
  about 1.5e3 times the slack (1.5e-6 at 1e-9), and 0 at no slack. The published 876
  non-zero feminine weights therefore match only up to the solver's tolerance.

With these rules, GAP test with the manual name spans gives the published example sets:
W keeps 1,773 examples (885 masculine and 876 feminine with non-zero weight) and W_t 1,670
(865 masculine, 805 feminine).

Why a small LP over classes is enough
-------------------------------------
Call two examples *equivalent* when they are in the same group and in exactly the same sets
S_j; the equivalence classes partition the examples. Let G be the group of permutations that
only exchange examples inside their class.

1. Every constraint is invariant under G: a permutation inside a class moves weight between
   examples that appear together in every sum of every constraint, so each sum is unchanged.
   Hence the feasible set P is invariant under G, and it is convex (an intersection of
   half-spaces and hyperplanes).
2. F is invariant under G (a permutation inside a group maps the set of pairs of that group
   onto itself) and convex (a sum of maxima of linear functions).
3. Let w* be optimal and w_bar = (1/|G|) sum_{g in G} g(w*). Then w_bar is in P (convexity plus
   1.), and by convexity and 2., F(w_bar) <= (1/|G|) sum_g F(g(w*)) = F(w*). So w_bar is
   optimal too, and w_bar is constant on every class (averaging over all permutations of a
   class gives every member the class mean).

So we may look for an optimum with weight u_c on every member of class c (size n_c). Then

    F = sum_c C(n_c, 2) u_c + sum_{c<d, same group} n_c n_d max(u_c, u_d),

because the C(n_c, 2) pairs inside a class each contribute u_c and each of the n_c n_d pairs
across two classes contributes max(u_c, u_d). The maxima are linearised in the usual way
(minimising with positive coefficients): one variable per pair of classes of the same group,
max(u_c, u_d) = u_c + s_cd with s_cd >= 0 and s_cd >= u_d - u_c (equivalent to t_cd >= u_c,
t_cd >= u_d with t_cd = u_c + s_cd, but one inequality row per pair instead of two, which
halves HiGHS's time); at the optimum s_cd = max(0, u_d - u_c). The constraints
become sums of n_c u_c. GAP test has a few hundred classes instead of 2000 examples, so the LP
has ~10^4 variables instead of ~10^6 and HiGHS solves it in well under a second.
:func:`solve_pairwise` is the literal program (one auxiliary variable per pair of examples),
with the textbook t_ij >= w_i, t_ij >= w_j rows, kept for the tests, which check on random
instances that both give the same optimal objective. The max-min second stage is symmetric
under G as well (its extra constraints are u_c >= t for every free class), so the same
averaging argument carries over to it.
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass, field
from typing import Mapping, Sequence

from pipeline.errors import InputError
from pipeline.lang.pronouns import target_pronoun_gender
from pipeline.vocab import FEMININE, MASCULINE

VARIANTS = {"all": "W", "num": "W_num", "dist": "W_dist", "trimmed": "W_t"}
TRIM_MAX_NAMES = 15      # trimmed: drop examples with more names than this
TRIM_MAX_RANK = 5        # trimmed: drop examples whose correct candidate is at rank >= this
OPTIMUM_TOLERANCE = 1e-9  # relative slack on F* in the max-min second stage


# ------------------------------------------------------------------------------ sets ----------


@dataclass
class Item:
    """One example as the program sees it."""

    id: str
    group: str                      # masculine | feminine
    sets: frozenset                 # labels of the property sets it belongs to ("N5", "D2")


@dataclass
class Selection:
    items: list[Item]                                       # examples in the program
    dropped: dict[str, str] = field(default_factory=dict)   # id -> reason (not in the program)
    one_gender_sets: list[tuple[str, str, int]] = field(default_factory=list)  # (set, gender, size)
    forced_zero: dict[str, str] = field(default_factory=dict)  # id -> "one-gender set N21"


UNNAMED_CHOICES = ("own-span", "leave-out")


def select_examples(feats, variant: str, unnamed: str = "own-span") -> Selection:
    """The examples of the program and their property sets for a variant.

    ``feats``: objects with ``id``, ``gender``, ``n_names``, ``correct`` (None = no correct
    candidate) and ``rank`` (None = unknown), e.g. :class:`pipeline.diagnostics.core.analysis.Features`.
    Examples without a correct candidate are dropped; so are examples without a rank in the
    variants using D_k (none with :func:`pipeline.diagnostics.core.analysis.example_features`, which ranks every
    correct candidate) and, for W_t, the trimmed ones. One-gender sets are found by
    :func:`forced_zeros`.

    ``unnamed`` = "leave-out" drops, from the variants using D_k, the examples whose correct
    candidate overlaps no name span (``rank_from_own_span``): the rule before the published
    example sets were reproduced; the published table of weighted baseline scores on GAP test
    comes out with it (docs/weights.md).
    """
    if unnamed not in UNNAMED_CHOICES:
        raise ValueError(f"unknown unnamed rule {unnamed!r}")
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}")
    sel = Selection([])
    uses_rank = variant != "num"
    for f in feats:
        if f.correct is None:
            sel.dropped[f.id] = "no correct candidate"
            continue
        if uses_rank and (f.rank is None or (unnamed == "leave-out" and getattr(f, "rank_from_own_span", False))):
            sel.dropped[f.id] = "correct candidate not a name"
            continue
        if variant == "trimmed" and (f.n_names > TRIM_MAX_NAMES or f.rank >= TRIM_MAX_RANK):
            sel.dropped[f.id] = "trimmed"
            continue
        labels = set()
        if variant in ("all", "num", "trimmed"):
            labels.add(f"N{f.n_names}")
        if uses_rank:
            labels.add(f"D{f.rank}")
        sel.items.append(Item(f.id, f.gender, frozenset(labels)))
    return sel


def one_gender_sets(items: Sequence[Item]) -> list[tuple[str, str, int]]:
    """Sets with members in only one group: (set label, that group, size), sorted."""
    members: dict[str, dict[str, int]] = {}
    for it in items:
        for s in it.sets:
            members.setdefault(s, {}).setdefault(it.group, 0)
            members[s][it.group] += 1
    out = []
    for s, by_group in members.items():
        if len(by_group) == 1:
            (g, n), = by_group.items()
            out.append((s, g, n))
    return sorted(out, key=_set_sort_key)


def _set_sort_key(entry):
    label = entry[0]
    return (label[0], int(label[1:]) if label[1:].isdigit() else label[1:], entry[1])


def forced_zeros(items: Sequence[Item]) -> tuple[dict[str, str], list[tuple[str, str, int]]]:
    """The examples whose weight the constraints force to 0: members of a one-gender set,
    found again among the others until none is left (a zero can leave a set one-gender).
    Returns ({id: "one-gender set N21"}, [(set, gender, size), ...] in the order found)."""
    free = list(items)
    zero: dict[str, str] = {}
    found: list[tuple[str, str, int]] = []
    while True:
        bad = one_gender_sets(free)
        if not bad:
            return zero, found
        found.extend(bad)
        labels = {b[0] for b in bad}
        keep = []
        for it in free:
            hit = sorted(it.sets & labels)
            if hit:
                zero[it.id] = f"one-gender set {hit[0]}"
            else:
                keep.append(it)
        free = keep


# ------------------------------------------------------------------------------ LP ------------


@dataclass
class Solution:
    weights: dict[str, float]       # id -> weight, every item of the program
    objective: float                # F(w) of the returned weights (= the optimum F*)
    n_classes: int
    n_variables: int
    seconds: float                  # building + solving the LP (both stages)
    status: str
    optimum: float = math.nan       # F* of the first stage
    min_free_weight: float = math.nan   # the smallest weight not forced to 0 (max-min stage)


def _equality_rows(groups: Sequence[str], sets: Sequence[frozenset]) -> list[dict[int, float]]:
    """Constraint rows over per-unit coefficients (index -> coefficient), for units (examples or
    classes) described by group and sets; the caller scales by class sizes. Row 0: sum_A =
    sum_B; row 1: sum = n; then one row per set label."""
    labels = sorted({s for ss in sets for s in ss})
    sign = [1.0 if g == MASCULINE else -1.0 for g in groups]
    rows = [{i: sign[i] for i in range(len(groups))}, {i: 1.0 for i in range(len(groups))}]
    for lab in labels:
        rows.append({i: sign[i] for i in range(len(groups)) if lab in sets[i]})
    return rows


def _build(sizes: Sequence[int], groups: Sequence[str], sets: Sequence[frozenset],
           own_cost: Sequence[float], n_total: float, form: str):
    """(cost, A_ub, b_ub, A_eq, b_eq) of the program over units with weights u (first columns)
    and one auxiliary variable per pair of units of the same group (see :func:`_solve`)."""
    import numpy as np
    from scipy import sparse

    n_units = len(sizes)
    pairs = [(c, d) for c, d in itertools.combinations(range(n_units), 2) if groups[c] == groups[d]]
    n_pairs = len(pairs)
    n_var = n_units + n_pairs
    cost = np.zeros(n_var)
    cost[:n_units] = own_cost
    if n_pairs:
        pc = np.array(pairs, dtype=np.int64)
        sz = np.asarray(sizes, dtype=float)
        pair_cost = sz[pc[:, 0]] * sz[pc[:, 1]]
        cost[n_units:] = pair_cost
        aux = n_units + np.arange(n_pairs)
        if form == "max":
            # u_c - t_cd <= 0 and u_d - t_cd <= 0
            r = np.arange(2 * n_pairs)
            values = np.concatenate([np.ones(2 * n_pairs), -np.ones(2 * n_pairs)])
            rows_ = np.concatenate([r, r])
            cols = np.concatenate([pc[:, 0], pc[:, 1], aux, aux])
            n_rows = 2 * n_pairs
        elif form == "excess":
            np.add.at(cost, pc[:, 0], pair_cost)            # the u_c part of u_c + s_cd
            # u_d - u_c - s_cd <= 0
            r = np.arange(n_pairs)
            values = np.concatenate([np.ones(n_pairs), -np.ones(n_pairs), -np.ones(n_pairs)])
            rows_ = np.concatenate([r, r, r])
            cols = np.concatenate([pc[:, 1], pc[:, 0], aux])
            n_rows = n_pairs
        else:
            raise ValueError(form)
        a_ub = sparse.csr_matrix((values, (rows_, cols)), shape=(n_rows, n_var))
        b_ub = np.zeros(n_rows)
    else:
        a_ub = sparse.csr_matrix((0, n_var))
        b_ub = np.zeros(0)
    rows = _equality_rows(groups, sets)
    rhs = np.zeros(len(rows))
    rhs[1] = float(n_total)
    data, ri, ci = [], [], []
    for k, row in enumerate(rows):
        for c, v in row.items():
            data.append(v * sizes[c])
            ri.append(k)
            ci.append(c)
    a_eq = sparse.csr_matrix((data, (ri, ci)), shape=(len(rows), n_var))
    return cost, a_ub, b_ub, a_eq, rhs


def _solve(sizes: Sequence[int], groups: Sequence[str], sets: Sequence[frozenset],
           own_cost: Sequence[float], n_total: float, form: str = "excess",
           free: Sequence[bool] | None = None):
    """Minimise sum_c own_cost[c] u_c + sum_{c<d same group} sizes[c] sizes[d] max(u_c, u_d)
    subject to the balance constraints on sizes[c] u_c. Returns (u, objective, optimum,
    min_free, n_variables, status).

    ``form`` = "max": the textbook linearisation, t_cd >= u_c and t_cd >= u_d (two rows per
    pair). ``form`` = "excess" (default, about twice as fast with HiGHS): max(u_c, u_d) =
    u_c + s_cd with s_cd >= 0 and s_cd >= u_d - u_c, one row per pair. Both have one
    auxiliary variable per pair and the same optimum.

    ``free`` (one flag per unit): when given, a second LP maximises the smallest u_c of the
    free units over the optimal face (objective <= F* (1 + OPTIMUM_TOLERANCE)).
    """
    import numpy as np
    from scipy import sparse
    from scipy.optimize import linprog

    cost, a_ub, b_ub, a_eq, b_eq = _build(sizes, groups, sets, own_cost, n_total, form)
    n_var = cost.size
    n_units = len(sizes)
    # HiGHS through linprog; its interior-point solver (with crossover to a vertex) is 2-4x
    # faster than its dual simplex on these programs (one row per pair, a few equalities).
    res = linprog(cost, A_ub=a_ub if a_ub.shape[0] else None, b_ub=b_ub if a_ub.shape[0] else None,
                  A_eq=a_eq, b_eq=b_eq, bounds=(0, None), method="highs-ipm")
    if res.status != 0:
        return None, math.nan, math.nan, math.nan, n_var, res.message
    optimum = float(res.fun)
    x = res.x
    min_free = math.nan
    if free is not None and any(free):
        # variables (x, t): maximise t with u_c >= t for the free units, cost.x <= F*(1 + tol)
        idx = np.flatnonzero(np.asarray(free, dtype=bool))
        k = idx.size
        t_col = sparse.csr_matrix((np.ones(k), (np.arange(k), np.zeros(k, dtype=np.int64))), shape=(k, 1))
        u_rows = sparse.csr_matrix((-np.ones(k), (np.arange(k), idx)), shape=(k, n_var))
        a2 = sparse.vstack([
            sparse.hstack([a_ub, sparse.csr_matrix((a_ub.shape[0], 1))]),
            sparse.hstack([sparse.csr_matrix(cost), sparse.csr_matrix((1, 1))]),
            sparse.hstack([u_rows, t_col]),
        ]).tocsr()
        b2 = np.concatenate([b_ub, [optimum + OPTIMUM_TOLERANCE * max(1.0, abs(optimum))], np.zeros(k)])
        a_eq2 = sparse.hstack([a_eq, sparse.csr_matrix((a_eq.shape[0], 1))]).tocsr()
        c2 = np.zeros(n_var + 1)
        c2[-1] = -1.0
        res2 = linprog(c2, A_ub=a2, b_ub=b2, A_eq=a_eq2, b_eq=b_eq, bounds=(0, None), method="highs-ipm")
        if res2.status == 0:
            x = res2.x[:n_var]
            min_free = float(res2.x[-1])
    u = np.maximum(x[:n_units], 0.0)
    return u, float(cost @ x), optimum, min_free, n_var, "optimal"


def _classes(items: Sequence[Item]) -> dict[tuple[str, frozenset], list[int]]:
    classes: dict[tuple[str, frozenset], list[int]] = {}
    for i, it in enumerate(items):
        classes.setdefault((it.group, it.sets), []).append(i)
    return classes


def solve_classes(items: Sequence[Item], n_total: float | None = None,
                  forced: Mapping[str, str] | None = None) -> Solution:
    """The LP over equivalence classes (see the module docstring). ``n_total`` defaults to the
    number of items. ``forced``: ids whose weight the constraints force to 0 (from
    :func:`forced_zeros`); when given, the max-min second stage runs over the others."""
    import scipy.optimize  # noqa: F401  (imported before the clock starts)

    t0 = time.perf_counter()
    classes = _classes(items)
    keys = list(classes)
    sizes = [len(classes[k]) for k in keys]
    n_total = len(items) if n_total is None else n_total
    if not items:
        return Solution({}, 0.0, 0, 0, time.perf_counter() - t0, "empty", 0.0)
    free = None
    if forced is not None:
        free = [not any(items[i].id in forced for i in classes[k]) for k in keys]
    u, obj, opt, min_free, n_var, status = _solve(sizes, [k[0] for k in keys], [k[1] for k in keys],
                                                  [n * (n - 1) / 2 for n in sizes], n_total, free=free)
    weights = {}
    if u is not None:
        for k, val in zip(keys, u):
            for i in classes[k]:
                weights[items[i].id] = float(val)
    return Solution(weights, obj, len(keys), n_var, time.perf_counter() - t0, status, opt, min_free)


def solve_pairwise(items: Sequence[Item], n_total: float | None = None) -> Solution:
    """The literal program: one weight per example, one auxiliary variable per pair of examples
    of the same group. Quadratic in size: for tests and the benchmark's check."""
    t0 = time.perf_counter()
    n_total = len(items) if n_total is None else n_total
    if not items:
        return Solution({}, 0.0, 0, 0, time.perf_counter() - t0, "empty", 0.0)
    u, obj, opt, _, n_var, status = _solve([1] * len(items), [it.group for it in items],
                                           [it.sets for it in items], [0.0] * len(items), n_total,
                                           form="max")
    weights = {} if u is None else {it.id: float(v) for it, v in zip(items, u)}
    return Solution(weights, obj, len(items), n_var, time.perf_counter() - t0, status, opt)


def objective(items: Sequence[Item], weights: Mapping[str, float]) -> float:
    """F(w) evaluated directly (sorted cumulative form: O(n log n))."""
    total = 0.0
    for g in (MASCULINE, FEMININE):
        ws = sorted(weights.get(it.id, 0.0) for it in items if it.group == g)
        # the j-th smallest (0-based) is the max of j pairs with smaller-or-equal partners
        total += sum(j * w for j, w in enumerate(ws))
    return total


def compute_weights(feats, variant: str, strict: bool = False,
                    unnamed: str = "own-span") -> tuple[dict[str, float], Solution, Selection]:
    """Weights for every example in ``feats`` (0 for those left out), the solution, the selection.

    One-gender sets: their examples stay in the program with weight 0 (listed in
    ``selection.forced_zero`` and ``selection.one_gender_sets``), or InputError when ``strict``.
    """
    sel = select_examples(feats, variant, unnamed)
    forced, found = forced_zeros(sel.items)
    sel.forced_zero, sel.one_gender_sets = forced, found
    if found and strict:
        listing = ", ".join(f"{s} (only {g}, {n})" for s, g, n in found)
        raise InputError(f"{VARIANTS[variant]}: sets present in only one gender force their "
                         f"examples' weights to 0: {listing}")
    if len(forced) == len(sel.items):
        raise InputError(f"{VARIANTS[variant]}: no example left to weight (no gold labels, or "
                         "every set present in one gender only)")
    sol = solve_classes(sel.items, forced=forced)
    if sol.status != "optimal":
        raise InputError(f"{VARIANTS[variant]}: the LP failed: {sol.status}")
    weights = {f.id: 0.0 if f.id in forced else max(sol.weights.get(f.id, 0.0), 0.0) for f in feats}
    return weights, sol, sel


# ------------------------------------------------------------------------------ scores --------


def weighted_bias_scores(gold, system, weights: Mapping[str, float] | None = None,
                         resamples: int = 0, seed: int = 0) -> dict:
    """Accuracy on the positive candidate, per pronoun gender, unweighted and weighted.

    ``gold``: DataFrame with ID, Pronoun, A-coref, B-coref (booleans, or TRUE/FALSE strings).
    ``system``: DataFrame with ID, A-coref, B-coref and optionally A-prob / B-prob (then the
    expected score is used: P(the system says TRUE for the correct candidate)).
    ``weights``: {ID: weight}; IDs of ``gold`` absent from it weigh 0; IDs unknown to ``gold``
    are an error.

    An example counts only if it has a correct candidate (gold A-coref or B-coref TRUE); its
    score is 1 when the system labels that candidate TRUE (whatever it says about the other).
    Gender = the pronoun's gender. Returned (fractions): ``acc_m``, ``acc_f``, ``acc``,
    ``acc_bias`` = acc_f / acc_m, ``n_m``, ``n_f``; with weights also ``w_acc_m``,
    ``w_acc_f``, ``w_acc``, ``w_bias`` = w_acc_f / w_acc_m, ``weight_m``, ``weight_f``.

    ``resamples`` > 0 adds the paired bootstrap of :mod:`pipeline.core.metrics` over the
    examples with a correct candidate (the project's one bootstrap and p-value convention,
    :func:`pipeline.core.metrics.p_value`): ``p_acc_diff`` / ``ci99_acc_diff`` for
    acc_m - acc_f and, with weights, ``p_w_acc_diff`` / ``ci99_w_acc_diff`` for the weighted
    difference w_acc_m - w_acc_f (each resample draws examples, their weights go with them).
    """
    from pipeline.formats.gap_tsv import parse_bool

    def bools(series, name):
        return [parse_bool(v, column=name) for v in series]

    for col in ("ID", "Pronoun", "A-coref", "B-coref"):
        if col not in gold.columns:
            raise InputError(f"gold labels lack column {col!r}")
    for col in ("ID", "A-coref", "B-coref"):
        if col not in system.columns:
            raise InputError(f"system output lacks column {col!r}")
    gold_ids = [str(i) for i in gold["ID"]]
    sys_ids = [str(i) for i in system["ID"]]
    if len(set(sys_ids)) != len(sys_ids):
        raise InputError("system output has duplicate IDs")
    has_prob = "A-prob" in system.columns and "B-prob" in system.columns
    sa = bools(system["A-coref"], "A-coref")
    sb = bools(system["B-coref"], "B-coref")
    if has_prob:
        pa = [float(v) for v in system["A-prob"]]
        pb = [float(v) for v in system["B-prob"]]
    else:
        pa = [1.0 if v else 0.0 for v in sa]
        pb = [1.0 if v else 0.0 for v in sb]
    by_id = {i: (a, b) for i, a, b in zip(sys_ids, pa, pb)}
    missing = [i for i in gold_ids if i not in by_id]
    if missing:
        raise InputError(f"system output lacks {len(missing)} gold ID(s), first: {', '.join(missing[:5])}")
    if weights is not None:
        unknown = sorted(set(map(str, weights)) - set(gold_ids))
        if unknown:
            raise InputError(f"weights for {len(unknown)} ID(s) not in the gold labels, first: {', '.join(unknown[:5])}")
    ga = bools(gold["A-coref"], "A-coref")
    gb = bools(gold["B-coref"], "B-coref")
    acc: dict[str, list[float]] = {MASCULINE: [], FEMININE: []}
    rows: list[tuple[str, float, float]] = []
    wsum = {MASCULINE: 0.0, FEMININE: 0.0}
    wacc = {MASCULINE: 0.0, FEMININE: 0.0}
    for ex_id, pron, a, b in zip(gold_ids, gold["Pronoun"], ga, gb):
        g = target_pronoun_gender(str(pron))
        if g is None:
            raise InputError(f"pronoun {pron!r} is not a gendered target pronoun", row=ex_id)
        if not (a or b):
            continue
        s = by_id[ex_id][0] if a else by_id[ex_id][1]
        acc[g].append(s)
        w = float(weights.get(ex_id, 0.0)) if weights is not None else 1.0
        rows.append((g, s, w))
        if weights is not None:
            wsum[g] += w
            wacc[g] += w * s

    def ratio(x, y):
        return x / y if y else math.nan

    out = {"n_m": len(acc[MASCULINE]), "n_f": len(acc[FEMININE]),
           "acc_m": ratio(sum(acc[MASCULINE]), len(acc[MASCULINE])),
           "acc_f": ratio(sum(acc[FEMININE]), len(acc[FEMININE])),
           "acc": ratio(sum(acc[MASCULINE]) + sum(acc[FEMININE]), len(acc[MASCULINE]) + len(acc[FEMININE]))}
    out["acc_bias"] = ratio(out["acc_f"], out["acc_m"])
    if weights is not None:
        out.update({"weight_m": wsum[MASCULINE], "weight_f": wsum[FEMININE],
                    "w_acc_m": ratio(wacc[MASCULINE], wsum[MASCULINE]),
                    "w_acc_f": ratio(wacc[FEMININE], wsum[FEMININE]),
                    "w_acc": ratio(wacc[MASCULINE] + wacc[FEMININE], wsum[MASCULINE] + wsum[FEMININE])})
        out["w_bias"] = ratio(out["w_acc_f"], out["w_acc_m"])
    if resamples:
        out.update(_bootstrap_scores(rows, weights is not None, resamples, seed))
    return out


def _bootstrap_scores(rows: list[tuple[str, float, float]], weighted: bool, resamples: int,
                      seed: int) -> dict:
    """p-values and 99 % intervals of acc_m - acc_f (and its weighted version) from the one
    bootstrap of :mod:`pipeline.core.metrics`; ``rows``: (gender, score, weight) per example."""
    import numpy as np

    from pipeline.core import metrics as M

    g = np.array([r[0] == MASCULINE for r in rows])
    s = np.array([r[1] for r in rows], dtype=float)
    w = np.array([r[2] for r in rows], dtype=float)
    columns = {"acc_diff": (s * g, g.astype(float), s * ~g, (~g).astype(float))}
    if weighted:
        columns["w_acc_diff"] = (w * s * g, w * g, w * s * ~g, w * ~g)
    return M.bootstrap_ratio_differences(columns, resamples, seed)


