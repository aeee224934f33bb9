"""Embedding-space diagnostics of gender bias (SoWinoBias, Dawkins 2021): pure functions.

Inputs are gensim ``KeyedVectors`` (or matrices) already in memory and word lists; nothing
here reads or writes files. All similarities are cosines: vectors are unit-normalised first.

* Single-attribute WEAT: ``s(t, A1, A2) = mean_a1 cos(t, a1) - mean_a2 cos(t, a2)`` and
  ``S(T, A1, A2) = mean_t s(t, A1, A2)``; significance by a partition test over the pooled
  attribute words (:func:`weat`).
* The gender direction (:func:`gender_direction`): the first principal component of the
  centred definitional pairs (Bolukbasi et al.), or ``she - he``; oriented so that feminine
  words project positively.
* The most biased words of a reference embedding by their projection on that direction
  (:func:`most_biased`), then k-means with k = 2 (accuracy under the best label matching,
  v-measure) and linear / RBF SVMs recovering the reference labels (cross-validated accuracy).
* GIPE (Kumar et al., 2020): indirect bias ``beta(w, v)``, ``eta(w)`` = share of the N nearest
  neighbours v of w with ``beta(w, v) > theta``, GIPE = weighted mean of eta over a vocabulary.
* :func:`project_out`: hard debiasing (neutralise): remove the gender component of every word
  but the kept (definitional / gendered) ones.

May import: numpy, scipy, scikit-learn, :mod:`pipeline.errors`.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import numpy as np

from pipeline.errors import InputError


def unit_rows(m: np.ndarray) -> np.ndarray:
    m = np.asarray(m, dtype=np.float64)
    norms = np.linalg.norm(m, axis=-1, keepdims=True)
    norms[norms == 0] = 1.0
    return m / norms


def split_known(kv, words) -> tuple[list[str], list[str]]:
    """(words in the vocabulary, words missing from it), each in the given order."""
    known = [w for w in words if w in kv.key_to_index]
    missing = [w for w in words if w not in kv.key_to_index]
    return known, missing


def vectors_of(kv, words, what: str = "word list") -> np.ndarray:
    """Unit vectors of ``words``; all of them must be known (see :func:`split_known`)."""
    if not words:
        raise InputError(f"{what}: none of its words is in the vocabulary")
    return unit_rows(np.stack([kv[w] for w in words]))


# ------------------------------------------------------------------ WEAT ----------------

@dataclass
class WeatResult:
    S: float
    p: float
    partitions: int          # alternative partitions compared
    exact: bool              # True: every partition enumerated
    missing: dict = field(default_factory=dict)


def weat(T: np.ndarray, a1: np.ndarray, a2: np.ndarray, draws: int = 10_000, seed: int = 0) -> WeatResult:
    """S(T, A1, A2) and its partition-test p-value.

    The attribute words are pooled; an alternative partition takes |A1| of them as X and the
    rest as Y. p = the share of alternative partitions with S(T, X, Y) >= the observed S.
    When the number of partitions C(|A1|+|A2|, |A1|) is at most ``draws`` every partition is
    enumerated (the observed one included); otherwise ``draws`` random partitions are drawn
    with ``numpy.random.default_rng(seed)``.
    """
    pooled = np.vstack([a1, a2])
    n1, n = len(a1), len(a1) + len(a2)
    # mean cosine of each attribute word with the targets: S(X, Y) = mean(c[X]) - mean(c[Y])
    c = (T @ pooled.T).mean(axis=0)
    total = c.sum()

    def s_of(idx: np.ndarray) -> np.ndarray:
        x = c[idx].sum(axis=-1)
        return x / n1 - (total - x) / (n - n1)

    observed = float(s_of(np.arange(n1)))
    count = math.comb(n, n1)
    if count <= draws:
        idx = np.array(list(itertools.combinations(range(n), n1)))
        exact, partitions = True, count
    else:
        rng = np.random.default_rng(seed)
        idx = np.argsort(rng.random((draws, n)), axis=1)[:, :n1]
        exact, partitions = False, draws
    alt = s_of(idx)
    p = float(np.mean(alt >= observed - 1e-12))
    return WeatResult(S=observed, p=p, partitions=partitions, exact=exact)


# --------------------------------------------------------- gender direction -------------

def gender_direction(kv, pairs: list[tuple[str, str]], method: str = "pca") -> np.ndarray:
    """A unit gender direction, feminine positive.

    ``pca``: the first principal component of the definitional pairs after centring each pair
    (both words minus the pair's mean), as Bolukbasi et al.; ``he-she``: she - he.
    Pairs with a missing word are skipped; none left is bad input.
    """
    usable = [(f, m) for f, m in pairs if f in kv.key_to_index and m in kv.key_to_index]
    if not usable:
        raise InputError("no definitional pair has both words in the vocabulary")
    if method == "he-she":
        if "she" not in kv.key_to_index or "he" not in kv.key_to_index:
            raise InputError("'he' and 'she' must both be in the vocabulary for --direction he-she")
        g = unit_rows(kv["she"]) - unit_rows(kv["he"])
    elif method == "pca":
        rows = []
        for f, m in usable:
            vf, vm = unit_rows(kv[f]), unit_rows(kv[m])
            mid = (vf + vm) / 2
            rows += [vf - mid, vm - mid]
        _, _, vt = np.linalg.svd(np.stack(rows), full_matrices=False)
        g = vt[0]
    else:
        raise InputError(f"unknown gender direction method {method!r} (pca or he-she)")
    g = g / np.linalg.norm(g)
    fem = np.mean([unit_rows(kv[f]) @ g - unit_rows(kv[m]) @ g for f, m in usable])
    return g if fem >= 0 else -g


def candidate_words(kv, exclude: set[str], limit: int) -> list[str]:
    """The first ``limit`` words of the vocabulary that are lower-case alphabetic and not
    excluded (the usual vectors files are in frequency order)."""
    out = []
    for w in kv.index_to_key[:limit]:
        if w.isalpha() and w.islower() and w not in exclude:
            out.append(w)
    return out


def most_biased(kv, g: np.ndarray, n: int, exclude: set[str], limit: int = 50_000) -> tuple[list[str], np.ndarray]:
    """The n most biased words: n // 2 with the largest (feminine) and n // 2 with the
    smallest (masculine) projection on ``g``. Labels: 1 feminine, 0 masculine."""
    words = candidate_words(kv, exclude, limit)
    if len(words) < 2:
        raise InputError("too few candidate words to pick the most biased ones")
    proj = unit_rows(np.stack([kv[w] for w in words])) @ g
    order = np.argsort(proj)
    half = min(n // 2, len(words) // 2)
    fem = [words[i] for i in order[::-1][:half]]
    masc = [words[i] for i in order[:half]]
    return fem + masc, np.array([1] * len(fem) + [0] * len(masc))


def cluster_scores(X: np.ndarray, labels: np.ndarray, seed: int = 0) -> dict:
    """k-means (k = 2) on the vectors: accuracy under the best of the two label matchings,
    and the v-measure against the labels."""
    from sklearn.cluster import KMeans
    from sklearn.metrics import v_measure_score

    pred = KMeans(n_clusters=2, n_init=10, random_state=seed).fit_predict(unit_rows(X))
    acc = float(max(np.mean(pred == labels), np.mean(pred != labels)))
    return {"cluster_accuracy": acc, "v_measure": float(v_measure_score(labels, pred)), "n": int(len(labels))}


def recoverability(X: np.ndarray, labels: np.ndarray, seed: int = 0, folds: int = 5) -> dict:
    """Cross-validated accuracy of a linear SVM and an RBF SVM recovering the labels."""
    from sklearn.model_selection import StratifiedKFold, cross_val_score
    from sklearn.svm import SVC, LinearSVC

    X = unit_rows(X)
    cv = StratifiedKFold(n_splits=folds, shuffle=True, random_state=seed)
    lin = cross_val_score(LinearSVC(C=1.0, random_state=seed), X, labels, cv=cv)
    rbf = cross_val_score(SVC(kernel="rbf", C=1.0, gamma="scale"), X, labels, cv=cv)
    return {"linear_svm_accuracy": float(lin.mean()), "rbf_svm_accuracy": float(rbf.mean()),
            "n": int(len(labels)), "folds": folds}


# ------------------------------------------------------------------ GIPE ----------------

def indirect_bias(w: np.ndarray, v: np.ndarray, g: np.ndarray) -> np.ndarray:
    """beta(w, v) = (w.v - w_perp.v_perp / (|w_perp| |v_perp|)) / (w.v) for unit vectors,
    with x_perp = x - (x.g) g: the share of the similarity of w and v that is due to the
    gender direction (Bolukbasi et al.). ``v`` may be a matrix (one row per word)."""
    w_perp = w - (w @ g) * g
    v_perp = v - np.outer(v @ g, g) if v.ndim == 2 else v - (v @ g) * g
    sim = v @ w
    perp = (v_perp @ w_perp) / (np.linalg.norm(v_perp, axis=-1) * np.linalg.norm(w_perp) + 1e-12)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(sim != 0, (sim - perp) / sim, 0.0)


def gipe(kv, words: list[str], g: np.ndarray, neighbour_words: list[str], n_neighbours: int = 100,
         theta: float = 0.05, weights: dict[str, float] | None = None) -> dict:
    """GIPE over ``words``: the weighted mean of eta(w), the share of w's ``n_neighbours``
    nearest neighbours (by cosine, among ``neighbour_words``, w itself excluded) whose
    indirect bias beta(w, v) exceeds ``theta``. ``weights`` default to 1 for every word."""
    if not words:
        raise InputError("GIPE: none of the vocabulary's words is in the embedding")
    N = unit_rows(np.stack([kv[w] for w in neighbour_words]))
    index = {w: i for i, w in enumerate(neighbour_words)}
    k = min(n_neighbours, len(neighbour_words) - 1)
    etas, ws = [], []
    for start in range(0, len(words), 512):
        chunk = words[start:start + 512]
        W = unit_rows(np.stack([kv[w] for w in chunk]))
        sims = W @ N.T
        for row, w in enumerate(chunk):
            if w in index:
                sims[row, index[w]] = -np.inf
        nn = np.argpartition(-sims, k - 1, axis=1)[:, :k]
        for row, w in enumerate(chunk):
            beta = indirect_bias(W[row], N[nn[row]], g)
            etas.append(float(np.mean(beta > theta)))
            ws.append(1.0 if weights is None else float(weights.get(w, 0.0)))
    etas_a, ws_a = np.array(etas), np.array(ws)
    value = float((etas_a * ws_a).sum() / ws_a.sum()) if ws_a.sum() > 0 else float("nan")
    return {"gipe": value, "n_words": len(words), "n_neighbours": k, "theta": theta}


def project_out(kv, g: np.ndarray, keep: set[str]):
    """Hard debiasing (neutralise): a copy of ``kv`` in which every word not in ``keep`` loses
    its component along ``g`` (and is unit-normalised); kept words are unit-normalised only."""
    from gensim.models import KeyedVectors

    M = unit_rows(kv.vectors)
    mask = np.array([w not in keep for w in kv.index_to_key])
    M[mask] = unit_rows(M[mask] - np.outer(M[mask] @ g, g))
    out = KeyedVectors(vector_size=kv.vector_size)
    out.add_vectors(list(kv.index_to_key), M.astype(np.float32))
    return out


# ------------------------------------------------------------- the whole set ------------

@dataclass
class WordLists:
    adjectives: list[str]                 # T: adjectives stereotypically used of women
    female_occupations: list[str]
    male_occupations: list[str]
    definitional: list[tuple[str, str]]   # (feminine, masculine) pairs
    exclude: set[str]                     # gendered words: never among the most biased / neutral


@dataclass
class Options:
    direction: str = "pca"
    n_cluster: int = 1500
    n_svm: int = 5000
    draws: int = 10_000
    seed: int = 0
    vocab_limit: int = 50_000        # candidates for the most biased words and GIPE neighbours
    gipe_vocab: int = 10_000         # the neutral vocabulary of GIPE: the first N candidates
    gipe_neighbours: int = 100
    gipe_theta: float = 0.05


def _weat_lists(kv, T, A1, A2, opts: Options) -> dict:
    missing = {}
    out = []
    for name, words in (("targets", T), ("attribute_1", A1), ("attribute_2", A2)):
        known, miss = split_known(kv, words)
        if miss:
            missing[name] = miss
        out.append(vectors_of(kv, known, name))
    r = weat(out[0], out[1], out[2], draws=opts.draws, seed=opts.seed)
    return {"S": r.S, "p": r.p, "partitions": r.partitions, "exact": r.exact, "missing": missing}


def diagnose(embeddings: dict, reference: str, lists: WordLists, opts: Options) -> dict:
    """Every measure for every embedding. The most biased words and their labels come from the
    ``reference`` embedding (its own gender direction); each embedding under test is measured
    on those words (missing ones reported)."""
    dims = {name: kv.vector_size for name, kv in embeddings.items()}
    if len(set(dims.values())) > 1:
        raise InputError("the embeddings have different dimensions: "
                         + ", ".join(f"{n} {d}" for n, d in dims.items()))
    ref = embeddings[reference]
    g_ref = gender_direction(ref, lists.definitional, opts.direction)
    definitional_words = {w for pair in lists.definitional for w in pair}
    exclude = lists.exclude | definitional_words
    n_max = max(opts.n_cluster, opts.n_svm)
    biased, labels = most_biased(ref, g_ref, n_max, exclude, opts.vocab_limit)
    sowino_vocab = lists.adjectives + lists.female_occupations + lists.male_occupations

    def subset(n):
        half = min(n // 2, len(biased) // 2)
        idx = list(range(half)) + list(range(len(biased) // 2, len(biased) // 2 + half))
        return [biased[i] for i in idx], labels[idx]

    results = {}
    for name, kv in embeddings.items():
        g = gender_direction(kv, lists.definitional, opts.direction)
        row = {
            "weat_adj_occ": _weat_lists(kv, lists.adjectives, lists.female_occupations,
                                        lists.male_occupations, opts),
            "weat_adj_def": _weat_lists(kv, lists.adjectives, [f for f, _ in lists.definitional],
                                        [m for _, m in lists.definitional], opts),
        }
        for key, n, fn in (("cluster", opts.n_cluster, cluster_scores),
                           ("svm", opts.n_svm, recoverability)):
            words, labs = subset(n)
            known = [i for i, w in enumerate(words) if w in kv.key_to_index]
            X = np.stack([kv[words[i]] for i in known])
            row[key] = fn(X, labs[known], seed=opts.seed)
            row[key]["missing"] = len(words) - len(known)
        row["cluster_accuracy"] = row["cluster"]["cluster_accuracy"]
        row["v_measure"] = row["cluster"]["v_measure"]
        row["linear_svm_accuracy"] = row["svm"]["linear_svm_accuracy"]
        row["rbf_svm_accuracy"] = row["svm"]["rbf_svm_accuracy"]
        neighbours = candidate_words(kv, set(), opts.vocab_limit)
        neutral = candidate_words(kv, exclude, opts.vocab_limit)[:opts.gipe_vocab]
        sowino_known, sowino_missing = split_known(kv, sowino_vocab)
        row["gipe"] = {
            "neutral": gipe(kv, neutral, g, neighbours, opts.gipe_neighbours, opts.gipe_theta),
            "sowinobias": gipe(kv, sowino_known, g, neighbours, opts.gipe_neighbours, opts.gipe_theta),
            "sowinobias_missing": sowino_missing,
        }
        row["gipe_neutral"] = row["gipe"]["neutral"]["gipe"]
        row["gipe_sowinobias"] = row["gipe"]["sowinobias"]["gipe"]
        results[name] = row
    return {"reference": reference, "direction": opts.direction,
            "most_biased": {"n": len(biased), "feminine_top": biased[:10],
                            "masculine_top": biased[len(biased) // 2:len(biased) // 2 + 10]},
            "options": opts.__dict__, "embeddings": results}
