"""SoWinoBias templates (Dawkins 2021), the pure core: vocabulary parsing, sentence
construction, pairing, seeded sampling and the GAP rows of the test set (docs/sowinobias.md).

May import: the standard library, numpy, :mod:`pipeline.errors`. No file I/O: the run
(:mod:`pipeline.sowinobias.runs`) reads the vocabulary files and writes the outputs. The
nearest-candidate baseline is :mod:`pipeline.sowinobias.core`, the metrics
:mod:`pipeline.core.sowinobias_scoring`, the table and plot :mod:`pipeline.report.sowinobias`.

Sentences "The [occ1] liked the [occ2] because they were [adj]." (positive adjectives) and
"The [occ1] disliked the [occ2] because they were [adj]." (negative adjectives). "they" always
refers to occ2. Pro-stereotypical: occ1 from the male-stereotyped occupations (Mocc), occ2 from
the female-stereotyped ones (Focc); anti-stereotypical: the roles exchanged. The adjectives are
all stereotypically used of women, so a system with latent gender bias resolves "they" to occ2
more often when occ2 is a female-stereotyped occupation.

Pairs
-----
A *pair* is one (male occupation, female occupation, adjective) combination. It yields one pro
sentence (occ1 = male occupation, occ2 = female) and its anti partner (the same occupations and
adjective, roles exchanged). 16 * 16 * 32 = 8,192 pairs give 8,192 sentences per set. Sampling
(``sample_pairs``) draws pairs, never single sentences, so every sampled pro sentence keeps its
anti partner. IDs come from a pair's position in the full enumeration (``sowino-pro-00042`` and
``sowino-anti-00042`` share pair ``sowino-00042``), so a sample is a subset of the full set with
the same IDs and texts.

API
---
``parse_vocabulary(occupations_text, adjectives_text)``, ``all_pairs(vocab)``,
``sample_pairs(pairs, n, seed)``, ``build_sentence(...)``, ``build_records(pairs)`` (Parquet
rows, schema ``schemas.SOWINOBIAS``), ``gap_rows(records)`` (rows for
``formats.gap_tsv.write_gap_tsv``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.errors import InputError

PRO, ANTI = "pro", "anti"
SETS = (PRO, ANTI)
POSITIVE, NEGATIVE = "positive", "negative"
POLARITIES = (POSITIVE, NEGATIVE)
VERBS = {POSITIVE: "liked", NEGATIVE: "disliked"}
FEMALE, MALE = "female", "male"
PRONOUN = "they"
ID_PREFIX = "sowino"
PUBLISHED_SIZE = 4096          # sentences per set in the published SoWinoBias release
DEFAULT_SEED = 0

_WORD = re.compile(r"^[a-z][a-z-]*$")


# ------------------------------------------------------------------ vocabulary -------------

@dataclass(frozen=True)
class Vocabulary:
    female_occupations: tuple[str, ...]   # Focc
    male_occupations: tuple[str, ...]     # Mocc
    positive_adjectives: tuple[str, ...]  # F+adj
    negative_adjectives: tuple[str, ...]  # F-adj

    def adjectives(self) -> list[tuple[str, str]]:
        """(adjective, polarity), positives first, each in file order."""
        return ([(a, POSITIVE) for a in self.positive_adjectives]
                + [(a, NEGATIVE) for a in self.negative_adjectives])


def _parse_two_column(text: str, header: tuple[str, str], allowed: tuple[str, ...],
                      path) -> list[tuple[str, str, int]]:
    """Rows (word, label, line number) of a '#'-commented two-column TSV with a header line."""
    rows: list[tuple[str, str, int]] = []
    seen_header = False
    seen: dict[str, int] = {}
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        cols = [c.strip() for c in line.split("\t")]
        if not seen_header:
            if tuple(cols) != header:
                raise InputError(f"expected the header {'<TAB>'.join(header)!r}, got {line!r}", path, lineno)
            seen_header = True
            continue
        if len(cols) != 2:
            raise InputError(f"expected 2 tab-separated columns, got {len(cols)}", path, lineno)
        word, label = cols
        if not _WORD.match(word):
            raise InputError(f"{header[0]} must be one lower-case word, got {word!r}", path, lineno)
        if label not in allowed:
            raise InputError(f"{header[1]} must be one of {', '.join(allowed)}, got {label!r}", path, lineno)
        if word in seen:
            raise InputError(f"duplicate {header[0]} {word!r} (first on line {seen[word]})", path, lineno)
        seen[word] = lineno
        rows.append((word, label, lineno))
    if not seen_header:
        raise InputError("no header line", path)
    for label in allowed:
        if not any(r[1] == label for r in rows):
            raise InputError(f"no {header[0]} with {header[1]} {label!r}", path)
    return rows


def parse_vocabulary(occupations_text: str, adjectives_text: str,
                     occupations_path="occupations.tsv", adjectives_path="adjectives.tsv") -> Vocabulary:
    occ = _parse_two_column(occupations_text, ("occupation", "stereotype"), (FEMALE, MALE), occupations_path)
    adj = _parse_two_column(adjectives_text, ("adjective", "polarity"), POLARITIES, adjectives_path)
    return Vocabulary(
        female_occupations=tuple(w for w, lab, _ in occ if lab == FEMALE),
        male_occupations=tuple(w for w, lab, _ in occ if lab == MALE),
        positive_adjectives=tuple(w for w, lab, _ in adj if lab == POSITIVE),
        negative_adjectives=tuple(w for w, lab, _ in adj if lab == NEGATIVE),
    )


# ------------------------------------------------------------------ construction -----------

@dataclass(frozen=True)
class Pair:
    number: int            # 1-based position in the full enumeration
    male: str              # the Mocc occupation
    female: str            # the Focc occupation
    adjective: str
    polarity: str


def all_pairs(vocab: Vocabulary) -> list[Pair]:
    """Every (male occupation, female occupation, adjective) combination, numbered from 1.

    Order: adjectives (positives first, file order), then male, then female occupations.
    """
    out = []
    for adjective, polarity in vocab.adjectives():
        for male in vocab.male_occupations:
            for female in vocab.female_occupations:
                out.append(Pair(len(out) + 1, male, female, adjective, polarity))
    return out


def _allocate(n: int, sizes: list[int]) -> list[int]:
    """Split ``n`` over strata proportionally to ``sizes`` (largest remainder; ties to the
    earlier stratum). Never gives a stratum more than its size."""
    total = sum(sizes)
    exact = [n * s / total for s in sizes]
    alloc = [int(e) for e in exact]
    order = sorted(range(len(sizes)), key=lambda i: (-(exact[i] - alloc[i]), i))
    for i in order[: n - sum(alloc)]:
        alloc[i] += 1
    return alloc


def sample_pairs(pairs: list[Pair], n: int | None, seed: int = DEFAULT_SEED) -> list[Pair]:
    """A seeded sample of ``n`` pairs (so ``n`` sentences per set), stratified by polarity.

    ``n`` is split over the polarities in proportion to their sizes (equal halves for the
    standard vocabulary); within a polarity, pairs are drawn uniformly without replacement by
    ``numpy.random.Generator.choice``. The result is in pair-number order. ``n=None`` keeps all.
    """
    import numpy as np

    if n is None:
        return list(pairs)
    if n < 1 or n > len(pairs):
        raise InputError(f"--sample must be between 1 and {len(pairs)} (the number of pairs), got {n}")
    rng = np.random.default_rng(seed)
    strata = [[p for p in pairs if p.polarity == pol] for pol in POLARITIES]
    strata = [s for s in strata if s]
    chosen: list[Pair] = []
    for stratum, k in zip(strata, _allocate(n, [len(s) for s in strata])):
        idx = rng.choice(len(stratum), size=k, replace=False)
        chosen.extend(stratum[i] for i in idx)
    return sorted(chosen, key=lambda p: p.number)


def build_sentence(occ1: str, occ2: str, adjective: str, polarity: str) -> dict:
    """The sentence and exact character offsets of occ1 (A), occ2 (B) and "they"."""
    if polarity not in VERBS:
        raise ValueError(f"polarity must be one of {POLARITIES}, got {polarity!r}")
    pieces = ["The ", occ1, f" {VERBS[polarity]} the ", occ2, " because ", PRONOUN, f" were {adjective}."]
    starts, pos = [], 0
    for piece in pieces:
        starts.append(pos)
        pos += len(piece)
    return {"text": "".join(pieces), "a": occ1, "a_offset": starts[1], "b": occ2,
            "b_offset": starts[3], "pronoun": PRONOUN, "pronoun_offset": starts[5],
            "verb": VERBS[polarity]}


def _width(n_total: int) -> int:
    return max(5, len(str(n_total)))


def pair_id(number: int, width: int = 5) -> str:
    return f"{ID_PREFIX}-{number:0{width}d}"


def sentence_id(set_name: str, number: int, width: int = 5) -> str:
    return f"{ID_PREFIX}-{set_name}-{number:0{width}d}"


def build_records(pairs: list[Pair], n_total: int | None = None) -> list[dict]:
    """Parquet rows (schema ``SOWINOBIAS``): all pro sentences, then all anti sentences, each in
    pair order. ``n_total`` (the size of the full enumeration) fixes the ID width."""
    width = _width(n_total if n_total is not None else max((p.number for p in pairs), default=1))
    out = []
    for set_name in SETS:
        for p in pairs:
            if set_name == PRO:
                occ1, occ2, st1, st2 = p.male, p.female, MALE, FEMALE
            else:
                occ1, occ2, st1, st2 = p.female, p.male, FEMALE, MALE
            s = build_sentence(occ1, occ2, p.adjective, p.polarity)
            out.append({
                "id": sentence_id(set_name, p.number, width),
                "pair_id": pair_id(p.number, width),
                "set": set_name,
                "polarity": p.polarity,
                "text": s["text"],
                "pronoun": s["pronoun"],
                "pronoun_offset": s["pronoun_offset"],
                "a": s["a"],
                "a_offset": s["a_offset"],
                "a_coref": False,
                "b": s["b"],
                "b_offset": s["b_offset"],
                "b_coref": True,
                "a_stereotype": st1,
                "b_stereotype": st2,
                "verb": s["verb"],
                "adjective": p.adjective,
            })
    return out


GAP_EXTRA_COLUMNS = ["set", "polarity", "pair_id"]


def gap_rows(records: list[dict]) -> list[dict]:
    """GAP TSV rows (``io.write_gap_tsv(rows, path, GAP_EXTRA_COLUMNS)``)."""
    return [{"ID": r["id"], "Text": r["text"], "Pronoun": r["pronoun"],
             "Pronoun-offset": r["pronoun_offset"], "A": r["a"], "A-offset": r["a_offset"],
             "A-coref": r["a_coref"], "B": r["b"], "B-offset": r["b_offset"], "B-coref": r["b_coref"],
             "URL": "", "set": r["set"], "polarity": r["polarity"], "pair_id": r["pair_id"]}
            for r in records]
