"""``embeddings``: SoWinoBias's embedding-space diagnostics for one or more word embeddings.

Declares the options (click), parses them into :class:`pipeline.embeddings.runs.EmbeddingsSettings` and calls
:func:`pipeline.embeddings.runs.embeddings` (docs/embeddings.md).

May import: the standard library, :mod:`pipeline.runs`. Never another command.
"""

from __future__ import annotations

from pipeline import options as opt

OUTPUT_DIR = "out"      # the CLI holds this directory's lock for the whole run

command = opt.command("embeddings", "embedding diagnostics: single-attribute WEAT, "
                                    "clustering/recoverability, GIPE", [
    opt.name_file("--vectors", "an embedding: word2vec text or binary, GloVe text, or spacy:PIPELINE",
                  required=True),
    opt.option("--reference", help="embedding whose most biased words are used (default: the first)"),
    opt.out_dir("embeddings.json, embeddings.md"),
    opt.option("--direction", choices=("pca", "he-she"), default="pca",
               help="gender direction: first principal component of the definitional pairs (default) or she - he"),
    opt.option("--n-cluster", type=int, default=1500, help="most biased words for k-means (default 1500)"),
    opt.option("--n-svm", type=int, default=5000, help="most biased words for the SVMs (default 5000)"),
    opt.option("--draws", type=int, default=10_000,
               help="WEAT partitions drawn when there are more than this many (default 10000)"),
    opt.seed("the WEAT partitions, k-means and SVMs"),
    opt.option("--vocab-limit", type=int, default=50_000,
               help="only the first N words of each file are candidates and neighbours (default 50000)"),
    opt.option("--gipe-vocab", type=int, default=10_000, help="neutral words measured by GIPE (default 10000)"),
    opt.option("--gipe-neighbours", type=int, default=100, help="N nearest neighbours (default 100)"),
    opt.option("--gipe-theta", type=opt.finite_float, default=0.05, help="indirect-bias threshold theta (default 0.05)"),
    opt.option("--definitional", type=opt.FILE, help="TSV of (feminine, masculine) definitional pairs "
               "(default resources/definitional_pairs.tsv)"),
])


def run(args):
    from dataclasses import fields

    from pipeline.embeddings.runs import EmbeddingsSettings, embeddings

    return embeddings(EmbeddingsSettings(**{f.name: getattr(args, f.name) for f in fields(EmbeddingsSettings)}))
