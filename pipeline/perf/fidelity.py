"""Fidelity of extract: how much of the published Counter-GAP our extraction finds,
how many published originals qualify for ``generate --gap-tsv``, the precision measured on
LitBank's gold coreference, and the cost of the person layer; each before/after the layer.

    python -m pipeline.perf.fidelity [--shared DIR] [--skip-extract] [--examples-books ID ...]

Figures (printed as Markdown with the date and the machine's size):

1. **Qualification** of the 75 published originals of the dev file
   (``reference/counter-gap-dev/C-GAP-withdot.dev.tsv``): each text through our pipeline
   and the conversion ``generate --gap-tsv`` itself runs
   (:func:`pipeline.core.gap_rows.qualified_gap_instance`): exactly two masculine and two feminine
   persons, and the published A and B (trimmed of a possessive) in mentions of the two persons
   of the pronoun's gender.
2. **Recall** of the same 75 originals: ``python -m pipeline extract --strategy prune`` over the
   four Austen novels of ``corpus/gutenberg`` (a subprocess per configuration); a published
   original is found when an instance has its pronoun at the same book position (the published
   text is located in the book by the key match of :mod:`pipeline.core.label`) and its two
   candidates' mentions cover the published A and B.
3. **LitBank precision**: extract over the first ~2,500 words of each LitBank book (truncated
   copies in a temporary directory; the annotated openings are ~2,000 words), then
   :mod:`pipeline.core.label` against ``reference/litbank-coref``: label distribution,
   precision and its 95 % Wilson interval; and the ceiling (:mod:`pipeline.core.extraction_ceiling`): how
   many instances the same rules give on LitBank's gold persons, i.e. the most labelled
   instances any person detection could reach there.
4. **Throughput** of the person layer: the same paragraphs of a few Gutenberg books through
   the whole pipeline with and without the component, in one process, interleaved, medians.
5. **Examples**: instances that extract finds only with the layer (books ``--examples-books``).

"Without the layer" runs set ``PIPELINE_PERSON_LAYER=0`` (see :mod:`pipeline.nlp.persons`).
Not a test: it reads ../shared and takes several minutes (run it with ``nice``).

May import: the standard library; inside functions: spaCy, :mod:`pipeline.vocab`,
:mod:`pipeline.formats.books`, :mod:`pipeline.formats.conll`, :mod:`pipeline.lang.patterns`,
:mod:`pipeline.lang.pronouns`, from :mod:`pipeline.nlp` its ``load`` and ``persons``,
:mod:`pipeline.core.gap_rows`, :mod:`pipeline.core.label`, :mod:`pipeline.core.extraction_ceiling`
and :mod:`pipeline.core.alignment`; the ``extract`` command is run in a subprocess.
"""

from __future__ import annotations

import csv
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEFAULT_SHARED = Path(__file__).resolve().parents[2].parent / "shared"
AUSTEN = ("105", "158", "161", "1342")
LAYER_ENV = "PIPELINE_PERSON_LAYER"


def machine_line() -> str:
    mem = ""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            kb = int(next(line for line in f if line.startswith("MemTotal")).split()[1])
        mem = f", {kb / 1024 / 1024:.1f} GB RAM"
    except (OSError, StopIteration, ValueError):
        pass
    return f"{os.cpu_count()} cores{mem}"


def published_originals(path: Path) -> list[dict]:
    from pipeline.vocab import split_id

    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    out = []
    for r in rows:
        if split_id(r["ID"])[1] != "original":
            continue
        for k in ("Pronoun-offset", "A-offset", "B-offset"):
            r[k] = int(r[k])
        out.append(r)
    return out


# ------------------------------------------------------------------ 1. qualification -------

def qualification(nlp, rows: list[dict], layer: bool) -> dict:
    """What ``generate --gap-tsv`` does with each published original: the command's own
    conversion (:func:`pipeline.core.gap_rows.qualified_gap_instance`), with or without the layer."""
    from pipeline.core.gap_rows import qualified_gap_instance
    from pipeline.nlp.persons import PERSON_LAYER

    disabled = [] if layer or PERSON_LAYER not in nlp.pipe_names else [PERSON_LAYER]
    reasons: dict[str, int] = {}
    with nlp.select_pipes(disable=disabled):
        docs = list(nlp.pipe(r["Text"] for r in rows))
    for r, doc in zip(rows, docs):
        inst, why, _ = qualified_gap_instance(r, doc)
        why = "qualifies" if inst is not None else why
        reasons[why] = reasons.get(why, 0) + 1
    return reasons


# ------------------------------------------------------------------ extraction runs --------

def run_extract_with_layer(corpus: Path, out: Path, layer: bool, strategy: str = "prune") -> float:
    env = dict(os.environ, TQDM_DISABLE="1", **{LAYER_ENV: "1" if layer else "0"})
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pipeline", "extract", "--corpus", str(corpus), "--out", str(out),
                    "--strategy", strategy], check=True, stdout=subprocess.DEVNULL, env=env)
    return time.perf_counter() - t0


def read_instances(out: Path) -> list[dict]:
    import pyarrow.parquet as pq

    return pq.read_table(out / "instances.parquet").to_pylist()


def read_book_files(corpus: Path, ids) -> dict[str, str]:
    from pipeline.formats.books import read_book

    return {b: "\n\n".join(read_book(corpus / f"{b}.txt", corpus).paragraphs) for b in ids}


def _dashless_key(text: str) -> tuple[str, list[int]]:
    """The key of :func:`pipeline.core.label.text_key` without dashes (the published texts
    sometimes dropped them) and the text position of each key character."""
    from pipeline.core.label import text_key

    key, pos = text_key(text)
    keep = [i for i, c in enumerate(key) if c != "-"]
    return "".join(key[i] for i in keep), [pos[i] for i in keep]


class BookLocator:
    """Maps a character offset of a passage (published text or our context) to the book
    position: the key characters around it must occur once in the book's key (windows of 40,
    25, 15 characters on each side are tried), which survives whitespace, quote, dash and
    small spelling differences elsewhere in the passage ("enquiry" / "inquiry")."""

    def __init__(self, book_text: str):
        self.key, self.pos = _dashless_key(book_text)

    def position(self, passage_key: tuple[str, list[int]], offset: int) -> int | None:
        key, pos = passage_key
        k = next((i for i, p in enumerate(pos) if p >= offset), None)
        if k is None:
            return None
        for w in (40, 25, 15):
            lo = max(0, k - w)
            seg = key[lo:k + w]
            at = self.key.find(seg)
            if at >= 0 and self.key.find(seg, at + 1) < 0:
                return self.pos[at + k - lo]
        return None


def recall(rows: list[dict], instances: list[dict], books: dict[str, str]) -> dict:
    """Published originals found again: an instance with the pronoun at the same book position,
    and (same candidates) whose C1 and C2 mentions hold the published A and B."""
    locators = {b: BookLocator(t) for b, t in books.items()}
    ours: dict[tuple[str, int], list[tuple[int, int, str]]] = {}
    for inst in instances:
        loc = locators.get(inst["book_id"])
        if loc is None:
            continue
        ckey = _dashless_key(inst["text"])
        p = loc.position(ckey, inst["pronoun_offset"])
        if p is None:
            continue
        spans = []
        for n in inst["names"]:
            if n["role"] not in ("C1", "C2"):
                continue
            for m in n["mentions"]:
                s = loc.position(ckey, m["start"])
                if s is not None:
                    spans.append((s, s + m["end"] - m["start"], n["role"]))
        ours[(inst["book_id"], p)] = spans
    found = same = located = 0
    for r in rows:
        book = re.sub(r"^pg", "", r["Book"].split("-")[0].split()[0].strip())
        loc = locators.get(book)
        if loc is None:
            continue
        rkey = _dashless_key(r["Text"])
        p = loc.position(rkey, r["Pronoun-offset"])
        if p is None:
            continue
        located += 1
        spans = ours.get((book, p))
        if spans is None:
            continue
        found += 1

        def role(off):
            pos = loc.position(rkey, off)
            return None if pos is None else next((k for s, e, k in spans if s <= pos < e), None)

        ra, rb = role(r["A-offset"]), role(r["B-offset"])
        same += ra is not None and rb is not None and ra != rb
    return {"published": len(rows), "located": located, "found": found, "same_candidates": same}


# ------------------------------------------------------------------ 3. LitBank -------------

def truncated_litbank(src: Path, dst: Path, words: int = 2500) -> int:
    dst.mkdir(parents=True, exist_ok=True)
    n = 0
    for f in sorted(src.glob("*.txt")):
        out, count = [], 0
        for para in f.read_text(encoding="utf-8").split("\n\n"):
            out.append(para)
            count += len(para.split())
            if count >= words:
                break
        (dst / f.name).write_text("\n\n".join(out) + "\n", encoding="utf-8")
        n += 1
    return n


def litbank_labels(instances: list[dict], coref_dir: Path) -> tuple[dict, list[dict]]:
    from pipeline.core.label import CorefDocument, label_records, label_summary
    from pipeline.formats.conll import document_clusters, read_documents

    docs = [CorefDocument(d.doc_id, list(d.words), document_clusters(d))
            for f in sorted(coref_dir.glob("*.conll")) for d in read_documents(f)]
    labelled = label_records(instances, docs)
    return label_summary(r["label"] for r in labelled), labelled


def gold_documents(coref_dir: Path) -> list:
    from pipeline.core.extraction_ceiling import GoldDocument
    from pipeline.formats.conll import document_clusters, read_documents

    return [GoldDocument(d.doc_id, list(d.words), list(d.sentence_starts), document_clusters(d))
            for f in sorted(coref_dir.glob("*.conll")) for d in read_documents(f)]


def initial_pronouns(nlp, docs) -> dict[str, set[int]]:
    """Document id -> token indices of the gendered pronouns that spaCy's parse of their gold
    sentence puts in an initial subordinate clause or PP (what INITIALPRO/MEDIALPRO need)."""
    from spacy.tokens import Doc

    from pipeline.core.alignment import unescape
    from pipeline.lang.patterns import initial_clause_kind
    from pipeline.lang.pronouns import target_pronoun_gender

    jobs = []                                    # (doc id, first token, Doc)
    for d in docs:
        starts = sorted(set(d.sentence_starts) | {0})
        for k, s in enumerate(starts):
            e = starts[k + 1] if k + 1 < len(starts) else len(d.words)
            words = [unescape(w) or w for w in d.words[s:e]]
            if words and any(target_pronoun_gender(w) for w in words):
                jobs.append((d.doc_id, s, Doc(nlp.vocab, words=words)))
    out: dict[str, set[int]] = {d.doc_id: set() for d in docs}
    for (doc_id, s, _), parsed in zip(jobs, nlp.pipe((j[2] for j in jobs), batch_size=64)):
        for tok in parsed:
            if target_pronoun_gender(tok.text) and initial_clause_kind(tok, tok.sent) is not None:
                out[doc_id].add(s + tok.i)
    return out


# ------------------------------------------------------------------ 4. throughput ----------

def throughput(nlp, corpus: Path, books=("2788", "5342", "1399"), paragraphs: int = 120, repeats: int = 5) -> dict:
    from pipeline.formats.books import read_book
    from pipeline.nlp.persons import PERSON_LAYER

    texts = []
    for b in books:
        paras = [p for p in read_book(corpus / f"{b}.txt", corpus).paragraphs if len(p) > 100]
        mid = len(paras) // 2
        texts += paras[mid:mid + paragraphs]
    words = sum(len(t.split()) for t in texts)
    times = {True: [], False: []}
    list(nlp.pipe(texts[:20]))                     # warm-up
    for r in range(repeats):
        for layer in ((True, False) if r % 2 == 0 else (False, True)):
            disabled = [] if layer else [PERSON_LAYER]
            with nlp.select_pipes(disable=disabled):
                t0 = time.perf_counter()
                for _ in nlp.pipe(texts, batch_size=16):
                    pass
                times[layer].append(time.perf_counter() - t0)
    # the component alone on the same Docs parsed without it (less noisy on a shared machine)
    from pipeline.nlp.persons import add_persons

    with nlp.select_pipes(disable=[PERSON_LAYER]):
        docs = list(nlp.pipe(texts, batch_size=16))
    alone = []
    for _ in range(repeats):
        fresh = [d.copy() for d in docs]
        t0 = time.perf_counter()
        for d in fresh:
            add_persons(d)
        alone.append(time.perf_counter() - t0)
    med = {k: statistics.median(v) for k, v in times.items()}
    return {"words": words, "with": med[True], "without": med[False],
            "change": med[False] / med[True] - 1, "alone": statistics.median(alone),
            "alone_share": statistics.median(alone) / med[False]}


# ------------------------------------------------------------------ main -------------------

def _fmt_reasons(reasons: dict) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(reasons.items(), key=lambda kv: -kv[1]))


def main(argv: list[str] | None = None) -> int:
    from pipeline import options as opt

    args = opt.parse_script(argv, "python -m pipeline.perf.fidelity", __doc__.split("\n\n")[0], [
        opt.option("--shared", type=opt.PATH, default=Path(os.environ.get("COUNTER_GAP_SHARED", DEFAULT_SHARED))),
        opt.option("--skip-extract", is_flag=True, help="only the in-process figures (1 and 4)"),
        opt.many("--examples-books", default=["2788", "5342"],
                 help="Gutenberg ids whose instances found only with the layer are listed"),
        opt.option("--keep", type=opt.PATH, default=None, help="keep the extract outputs in this directory"),
    ])
    shared = args.shared
    dev = shared / "reference" / "counter-gap-dev" / "C-GAP-withdot.dev.tsv"
    gutenberg = shared / "corpus" / "gutenberg"
    if not dev.is_file() or not gutenberg.is_dir():
        print(f"skipped: {shared} lacks the dev file or the Gutenberg corpus")
        return 0
    from pipeline.nlp import load as nlp_mod
    from pipeline.vocab import pct

    print(f"# Fidelity benchmark, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {machine_line()}\n", flush=True)
    nlp = nlp_mod.load()
    rows = published_originals(dev)
    q = {layer: qualification(nlp, rows, layer) for layer in (False, True)}
    print(f"## Qualification of the {len(rows)} published dev originals (2+2 persons, A and B the candidates)\n")
    print("| person layer | qualify | reasons |\n|---|---|---|")
    for layer in (False, True):
        n = q[layer].get("qualifies", 0)
        print(f"| {'with' if layer else 'without'} | {n}/{len(rows)} ({pct(n / len(rows), digits=1)} %) | "
              f"{_fmt_reasons(q[layer])} |")
    print(flush=True)
    tp = throughput(nlp, gutenberg)
    print(f"## Throughput of the whole pipeline ({tp['words']:,} words, medians of 5, one process)\n")
    print(f"with the layer {tp['with']:.1f} s ({tp['words'] / tp['with']:,.0f} words/s), without "
          f"{tp['without']:.1f} s ({tp['words'] / tp['without']:,.0f} words/s): the layer costs "
          f"{pct(-tp['change'], digits=1)} % of the throughput (limit 10 %); the component alone on the same "
          f"Docs: {tp['alone']:.2f} s = {pct(tp['alone_share'], digits=1)} % of the pipeline without it\n", flush=True)
    if args.skip_extract:
        return 0

    tmp_ctx = tempfile.TemporaryDirectory(prefix="bench-fidelity-")
    tmp = Path(tmp_ctx.name) if args.keep is None else args.keep
    tmp.mkdir(parents=True, exist_ok=True)
    try:
        austen = tmp / "austen"
        austen.mkdir(exist_ok=True)
        for b in AUSTEN:
            shutil.copy(gutenberg / f"{b}.txt", austen / f"{b}.txt")
        books = read_book_files(austen, AUSTEN)
        print("## Recall of the published Austen originals (extract --strategy prune)\n")
        print("| person layer | seconds | instances | found again | same two candidates |\n|---|---|---|---|---|")
        for layer in (False, True):
            out = tmp / f"austen-{'with' if layer else 'without'}"
            seconds = run_extract_with_layer(austen, out, layer) if not (out / "instances.parquet").exists() else None
            inst = read_instances(out)
            rc = recall(rows, inst, books)
            print(f"| {'with' if layer else 'without'} | {'kept' if seconds is None else f'{seconds:.0f}'} | {len(inst)} | {rc['found']}/{rc['published']} | "
                  f"{rc['same_candidates']}/{rc['published']} ({pct(rc['same_candidates'] / rc['published'], digits=1)} %) |",
                  flush=True)
        print(f"\n({rc['located']} of {rc['published']} published texts located in the books)\n")

        litbank, coref = shared / "corpus" / "litbank", shared / "reference" / "litbank-coref"
        if litbank.is_dir() and coref.is_dir():
            small = tmp / "litbank2500"
            n = truncated_litbank(litbank, small)
            print(f"## LitBank precision ({n} books, first ~2,500 words each, extract --strategy prune)\n")
            print("| person layer | instances | A | B | both | neither | unlabelled | precision | 95 % interval |")
            print("|---|---|---|---|---|---|---|---|---|")
            for layer in (False, True):
                out = tmp / f"litbank-{'with' if layer else 'without'}"
                if not (out / "instances.parquet").exists():
                    run_extract_with_layer(small, out, layer)
                inst = read_instances(out)
                s, _ = litbank_labels(inst, coref)
                c = s["counts"]
                iv = s["interval_95"]
                print(f"| {'with' if layer else 'without'} | {len(inst)} | {c['A']} | {c['B']} | {c['both']} | "
                      f"{c['neither']} | {c['unlabelled']} | {s['valid']}/{s['labelled']} "
                      f"({pct(s['precision'], digits=1)} %) | "
                      f"{'–' if not iv else f'{pct(iv[0], digits=1)}–{pct(iv[1], digits=1)} %'} |", flush=True)
            print()
            from pipeline.core.extraction_ceiling import ceiling

            gold = gold_documents(coref)
            tight = ceiling(gold, initial_pronouns(nlp, gold))
            loose = ceiling(gold)
            print(f"Ceiling with LitBank's own persons (the extraction's window and pattern rules on the gold "
                  f"clusters, names and sentences: perfect person detection): of {tight.pronouns:,} gendered "
                  f"pronouns, {tight.two_and_two} have a window of two masculine and two feminine named persons; "
                  f"**{tight.instances}** match a pattern ({_fmt_reasons(tight.patterns)}) when spaCy's parse of "
                  f"the gold sentence decides the initial clauses, {loose.instances} if every pronoun counted as "
                  f"initial ({_fmt_reasons(loose.patterns)}).\n", flush=True)

        if args.examples_books:
            ex = tmp / "examples"
            ex.mkdir(exist_ok=True)
            for b in args.examples_books:
                shutil.copy(gutenberg / f"{b}.txt", ex / f"{b}.txt")
            got = {}
            for layer in (False, True):
                out = tmp / f"examples-{'with' if layer else 'without'}"
                if not (out / "instances.parquet").exists():
                    run_extract_with_layer(ex, out, layer)
                got[layer] = {i["instance_id"]: i for i in read_instances(out)}
            only = [got[True][k] for k in sorted(set(got[True]) - set(got[False]))]
            print(f"## Instances found only with the person layer (books {', '.join(args.examples_books)}): "
                  f"{len(only)} of {len(got[True])} (without the layer: {len(got[False])})\n")
            seen, shown = set(), []
            for inst in only:               # one per context
                if inst["text"] not in seen:
                    seen.add(inst["text"])
                    shown.append(inst)
            print(f"lost with the layer (windows that now hold other persons): "
                  f"{len(set(got[False]) - set(got[True]))}\n")
            for inst in shown[:8]:
                names = "; ".join(f"{n['role']} {n['name']} ({n['gender']})" for n in inst["names"])
                print(f"- {inst['instance_id']}: pronoun {inst['pronoun']!r}, A {inst['a']!r}, B {inst['b']!r}; {names}")
                print(f"  > {inst['text']}")
    finally:
        if args.keep is None:
            tmp_ctx.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
