"""Embedding diagnostics on real vectors: ``python -m pipeline.perf.embeddings``.

Trains word2vec (gensim; CBOW, 100 dimensions, window 5, min count 5, 5 epochs, seed 0, one
worker thread so the run is reproducible) on the 100 LitBank novels of
``../shared/corpus/litbank``, makes its hard-debiased version (every word but the gendered
and definitional words loses its component on the gender direction), and runs
``python -m pipeline embeddings`` on both, printing the tables. Skips when ../shared is
absent. Tokenisation: lower-cased runs of letters (with an inner apostrophe), one sentence
per line of text.

Outputs go to ``outputs/embeddings-litbank/`` (or ``--out``).

May import: the standard library, gensim (inside :func:`main`), :mod:`pipeline.embeddings.core`,
:mod:`pipeline.embeddings.formats`, :mod:`pipeline.embeddings.runs` (the word lists) and
:mod:`pipeline.cli` (the ``embeddings`` command is run as a user runs it).
"""

from __future__ import annotations

import datetime as dt
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("COUNTER_GAP_SHARED", ROOT.parent / "shared"))
WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")


class Sentences:
    """Restartable iterator over the corpus, one token list per non-empty line."""

    def __init__(self, files):
        self.files = files

    def __iter__(self):
        for path in self.files:
            with open(path, encoding="utf-8", errors="replace") as fh:
                for line in fh:
                    toks = WORD.findall(line.lower())
                    if toks:
                        yield toks


def main(argv=None) -> int:
    from pipeline import options as opt

    args = opt.parse_script(argv, "python -m pipeline.perf.embeddings", __doc__.split("\n\n")[0], [
        opt.option("--out", type=opt.PATH, default=ROOT / "outputs" / "embeddings-litbank"),
        opt.option("--epochs", type=int, default=5),
    ])
    corpus = SHARED / "corpus" / "litbank"
    if not corpus.is_dir():
        print(f"skipped: {corpus} is absent")
        return 0
    if os.environ.get("PYTHONHASHSEED") != "0":   # gensim seeds vectors with hash(): fix it
        env = dict(os.environ, PYTHONHASHSEED="0")
        return subprocess.call([sys.executable, "-m", "pipeline.perf.embeddings", *(argv or sys.argv[1:])], env=env)

    from gensim.models import Word2Vec

    from pipeline.embeddings.core import gender_direction, project_out
    from pipeline.embeddings.formats import save_word2vec_text
    from pipeline.embeddings.runs import word_lists

    files = sorted(corpus.glob("*.txt"))
    args.out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    model = Word2Vec(sentences=Sentences(files), vector_size=100, window=5, min_count=5, sg=0,
                     epochs=args.epochs, seed=0, workers=1)
    t_train = time.perf_counter() - t0
    kv = model.wv
    lists = word_lists()
    g = gender_direction(kv, lists.definitional)
    keep = lists.exclude | {w for pair in lists.definitional for w in pair}
    debiased = project_out(kv, g, keep)
    orig_path, deb_path = args.out / "litbank-w2v.txt", args.out / "litbank-w2v-hard-debiased.txt"
    save_word2vec_text(kv, orig_path)
    save_word2vec_text(debiased, deb_path)
    print(f"{dt.date.today()} on {os.cpu_count()} cores: word2vec on {len(files)} LitBank novels, "
          f"{model.corpus_total_words:,} words, vocabulary {len(kv):,}, trained in {t_train:.0f} s")
    t1 = time.perf_counter()
    from pipeline.cli import main as cli

    rc = cli(["embeddings", "--vectors", f"litbank-w2v={orig_path}",
              "--vectors", f"litbank-w2v-hard-debiased={deb_path}", "--out", str(args.out)])
    print(f"diagnostics in {time.perf_counter() - t1:.0f} s")
    return rc


if __name__ == "__main__":
    raise SystemExit(main())
