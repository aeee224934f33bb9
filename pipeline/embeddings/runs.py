"""The ``embeddings`` run: SoWinoBias's embedding-space diagnostics for one or more word
embeddings (the command parses the options and calls :func:`embeddings`).

Loads each ``--vectors NAME=FILE`` (word2vec text/binary, GloVe text, or ``spacy:PIPELINE``),
measures single-attribute WEAT (adjectives vs occupations, adjectives vs definitional words),
clustering and recoverability of the reference embedding's most biased words, and GIPE, then
writes ``OUT/embeddings.json`` and ``OUT/embeddings.md`` together. The settings are an
:class:`EmbeddingsSettings`. See docs/embeddings.md.

May import: every layer below the runs.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from pipeline.runs.settings import RunResult, as_paths, check_at_least, check_choice

DIRECTIONS = ("pca", "he-she")


def _parse_vectors(specs) -> dict[str, str]:
    """``NAME=FILE`` strings (or (NAME, FILE) pairs) -> {NAME: FILE}, in order."""
    from pipeline.errors import InputError

    out = {}
    for spec in specs:
        if isinstance(spec, str):
            name, sep, path = spec.partition("=")
        else:
            name, path = spec
            sep, path = "=", os.fspath(path)
        if not sep or not name or not path:
            raise InputError(f"--vectors wants NAME=FILE, got {spec!r}")
        if name in out:
            raise InputError(f"--vectors name {name!r} given twice")
        out[name] = path
    return out


@dataclass(frozen=True)
class EmbeddingsSettings:
    """What one ``embeddings`` run is given (the command's options). ``vectors``: (NAME, FILE)
    pairs, FILE a word2vec text/binary or GloVe text file or ``spacy:PIPELINE`` (``NAME=FILE``
    strings are split)."""
    vectors: tuple[tuple[str, str], ...]
    out: Path
    reference: str | None = None        # default: the first of vectors
    direction: str = "pca"
    n_cluster: int = 1500
    n_svm: int = 5000
    draws: int = 10_000
    seed: int = 0
    vocab_limit: int = 50_000
    gipe_vocab: int = 10_000
    gipe_neighbours: int = 100
    gipe_theta: float = 0.05
    definitional: Path | None = None    # default resources/definitional_pairs.tsv

    def __post_init__(self):
        from pipeline.errors import InputError

        specs = _parse_vectors(self.vectors)
        if not specs:
            raise InputError("give at least one --vectors NAME=FILE")
        object.__setattr__(self, "vectors", tuple(specs.items()))
        as_paths(self, "out", "definitional")
        if self.reference is not None and self.reference not in specs:
            raise InputError(f"--reference {self.reference!r} is not one of the --vectors names ({', '.join(specs)})")
        check_choice("--direction", self.direction, DIRECTIONS)
        for name in ("n_cluster", "n_svm", "draws", "vocab_limit", "gipe_vocab", "gipe_neighbours"):
            check_at_least(f"--{name.replace('_', '-')}", getattr(self, name), 0)


def word_lists(definitional_path=None):
    from pipeline.embeddings.core import WordLists
    from pipeline.formats.resources import read_commented, resource
    from pipeline.lang.gendered_words import pairs

    defs = read_commented(definitional_path or resource("definitional_pairs.tsv"), header="feminine", min_columns=2)
    occ = read_commented(resource("sowinobias", "occupations.tsv"), header="occupation", min_columns=2)
    adj = read_commented(resource("sowinobias", "adjectives.tsv"), header="adjective", min_columns=2)
    gendered = {w for m, f, _ in pairs() for w in (m, f)}
    return WordLists(adjectives=[f[0].lower() for _, f in adj],
                     female_occupations=[f[0].lower() for _, f in occ if f[1] == "female"],
                     male_occupations=[f[0].lower() for _, f in occ if f[1] == "male"],
                     definitional=[(f[0].lower(), f[1].lower()) for _, f in defs],
                     exclude=gendered | {"he", "she", "him", "her", "his", "hers", "himself", "herself"})


def embeddings(args: EmbeddingsSettings) -> RunResult:
    import logging
    import time
    from tqdm import tqdm

    from pipeline.embeddings.core import Options, diagnose
    from pipeline.formats.files import staged_outputs, write_json, write_text
    from pipeline.embeddings.formats import load_vectors
    from pipeline.nlp.load import load as load_pipeline
    from pipeline.embeddings.report import markdown

    log = logging.getLogger(__name__)
    t0 = time.time()
    specs = dict(args.vectors)
    reference = args.reference or next(iter(specs))
    lists = word_lists(args.definitional)
    embeddings = {}
    for name, path in tqdm(specs.items(), desc="loading vectors", unit="file", disable=len(specs) < 2):
        embeddings[name] = load_vectors(path, load_pipeline=load_pipeline)
    opts = Options(direction=args.direction, n_cluster=args.n_cluster, n_svm=args.n_svm, draws=args.draws,
                   seed=args.seed, vocab_limit=args.vocab_limit, gipe_vocab=args.gipe_vocab,
                   gipe_neighbours=args.gipe_neighbours, gipe_theta=args.gipe_theta)
    result = diagnose(embeddings, reference, lists, opts)
    result["vectors"] = {n: str(p) for n, p in specs.items()}
    for name, row in result["embeddings"].items():
        for key in ("weat_adj_occ", "weat_adj_def"):
            for part, words in row[key]["missing"].items():
                log.warning("%s: %s %s words missing from the vocabulary: %s", name, key, part, " ".join(words))
        if row["gipe"]["sowinobias_missing"]:
            log.warning("%s: SoWinoBias words missing (left out of GIPE): %s", name,
                        " ".join(row["gipe"]["sowinobias_missing"]))
    out = Path(args.out)
    with staged_outputs(out) as stage:
        write_json(stage / "embeddings.json", result)
        write_text(stage / "embeddings.md", markdown(result))
    print(markdown(result))
    print(f"embeddings: {len(embeddings)} embedding(s), reference {reference}, "
          f"{result['most_biased']['n']} most biased words; wrote {out / 'embeddings.json'} and "
          f"{out / 'embeddings.md'} in {time.time() - t0:.1f} s")
    return RunResult(0, (out / "embeddings.json", out / "embeddings.md"))
