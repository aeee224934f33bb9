"""``embeddings``: SoWinoBias's embedding-space diagnostics for one or more word embeddings.

Parses the options into :class:`pipeline.embeddings.runs.EmbeddingsSettings` and calls
:func:`pipeline.embeddings.runs.embeddings` (docs/embeddings.md).

May import: the standard library, :mod:`pipeline.runs`. Never another command.
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
    parser.add_argument("--gipe-theta", type=opt.finite_float, default=0.05, help="indirect-bias threshold theta (default 0.05)")
    parser.add_argument("--definitional", help="TSV of (feminine, masculine) definitional pairs "
                        "(default resources/definitional_pairs.tsv)")


def run(args):
    from dataclasses import fields

    from pipeline.embeddings.runs import EmbeddingsSettings, embeddings

    return embeddings(EmbeddingsSettings(**{f.name: getattr(args, f.name) for f in fields(EmbeddingsSettings)}))
