"""``embeddings``: SoWinoBias's embedding-space diagnostics for one or more word embeddings.

Loads each ``--vectors NAME=FILE`` (word2vec text/binary, GloVe text, or ``spacy:PIPELINE``),
measures single-attribute WEAT (adjectives vs occupations, adjectives vs definitional words),
clustering and recoverability of the reference embedding's most biased words, and GIPE, then
writes ``OUT/embeddings.json`` and ``OUT/embeddings.md`` together. See docs/embeddings.md.

May import: every layer below the commands.
"""

from __future__ import annotations

COMMAND = "embeddings"
HELP = "embedding diagnostics: single-attribute WEAT, clustering/recoverability, GIPE"
OUTPUT_DIR = "out"      # the CLI holds this directory's lock for the whole run


def add_arguments(parser) -> None:
    from pipeline import options as opt

    opt.name_file(parser, "--vectors", "an embedding: word2vec text or binary, GloVe text, or spacy:PIPELINE",
                  required=True)
    parser.add_argument("--reference", help="embedding whose most biased words are used (default: the first)")
    opt.out_dir(parser, "embeddings.json, embeddings.md")
    parser.add_argument("--direction", choices=("pca", "he-she"), default="pca",
                        help="gender direction: first principal component of the definitional pairs (default) or she - he")
    parser.add_argument("--n-cluster", type=int, default=1500, help="most biased words for k-means (default 1500)")
    parser.add_argument("--n-svm", type=int, default=5000, help="most biased words for the SVMs (default 5000)")
    parser.add_argument("--draws", type=int, default=10_000,
                        help="WEAT partitions drawn when there are more than this many (default 10000)")
    opt.seed(parser, "the WEAT partitions, k-means and SVMs")
    parser.add_argument("--vocab-limit", type=int, default=50_000,
                        help="only the first N words of each file are candidates and neighbours (default 50000)")
    parser.add_argument("--gipe-vocab", type=int, default=10_000, help="neutral words measured by GIPE (default 10000)")
    parser.add_argument("--gipe-neighbours", type=int, default=100, help="N nearest neighbours (default 100)")
    parser.add_argument("--gipe-theta", type=float, default=0.05, help="indirect-bias threshold theta (default 0.05)")
    parser.add_argument("--definitional", help="TSV of (feminine, masculine) definitional pairs "
                        "(default resources/definitional_pairs.tsv)")


def _parse_vectors(specs: list[str]) -> dict[str, str]:
    from pipeline.errors import InputError

    out = {}
    for spec in specs:
        name, sep, path = spec.partition("=")
        if not sep or not name or not path:
            raise InputError(f"--vectors wants NAME=FILE, got {spec!r}")
        if name in out:
            raise InputError(f"--vectors name {name!r} given twice")
        out[name] = path
    return out


def word_lists(definitional_path=None):
    from pipeline.core.embeddings import WordLists
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


def run(args) -> int:
    import logging
    import time
    from pathlib import Path

    from tqdm import tqdm

    from pipeline.core.embeddings import Options, diagnose
    from pipeline.errors import InputError
    from pipeline.formats.files import staged_outputs, write_json
    from pipeline.formats.vectors import load_vectors
    from pipeline.nlp.load import load as load_pipeline
    from pipeline.report.embeddings import markdown

    log = logging.getLogger(__name__)
    t0 = time.time()
    specs = _parse_vectors(args.vectors)
    reference = args.reference or next(iter(specs))
    if reference not in specs:
        raise InputError(f"--reference {reference!r} is not one of the --vectors names ({', '.join(specs)})")
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
        (stage / "embeddings.md").write_text(markdown(result), encoding="utf-8")
    print(markdown(result))
    print(f"embeddings: {len(embeddings)} embedding(s), reference {reference}, "
          f"{result['most_biased']['n']} most biased words; wrote {out / 'embeddings.json'} and "
          f"{out / 'embeddings.md'} in {time.time() - t0:.1f} s")
    return 0
