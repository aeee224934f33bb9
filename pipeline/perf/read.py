"""Reading quadruples by eye: ``python -m pipeline.perf.read``.

    python -m pipeline.perf.read --corpus DIR --seed N [--n 50] [--out DIR] [--workers N]
    python -m pipeline.perf.read --quadruples FILE.parquet --seed N [--n 50] [--out DIR]
    python -m pipeline.perf.read --summarise OUT/read-N.tsv

Runs ``extract`` and ``generate`` on the corpus as a user runs them (through
:func:`pipeline.cli.main`, into ``--out``; an ``--out`` that already holds ``quadruples.parquet``
is reused, and so is ``--quadruples FILE``), draws ``--n`` quadruples with ``--seed`` spread over
the books (round robin over the books in a seeded order, a seeded order within each book; one
quadruple per window unless ``--all-windows``; ``--exclude FILE.tsv ...`` leaves out the
quadruples listed in earlier verdict files, and the other quadruples of their windows, so that a
new read of the same books reads what nobody read before), and
prints each one for a reader to judge: book, pattern, the original text with the four persons'
mentions and the pronoun marked (``[[C1:Kitty]]``, ``[[A=C1:Kitty]]`` for the candidate A,
``{{she}}``), the text before the window when the corpus is known, swap-1 marked the same way
with the words that changed besides the names (``she>he x3``) and the gendered words left as they
were, and swap-2 and control as their names plus any change besides the names (there should be
none). The same text goes to ``OUT/read-N.txt``; ``OUT/read-N.tsv`` lists the drawn quadruples
with empty ``verdict`` / ``kind`` / ``note`` columns to fill in (a filled file is never
overwritten). ``--summarise`` prints the counts of a filled file (clean n/N, by kind, by book)
and refuses a malformed one with one line naming the file and the row (exit 2).

Verdicts: ``clean`` or ``not-clean``; a not-clean row names one kind or several separated by
commas, from :data:`KINDS`.

May import: the standard library; inside functions: pyarrow (through
:mod:`pipeline.formats.tables`), :mod:`pipeline.formats.files` (atomic writes),
:mod:`pipeline.formats.books` (the text before a window), :mod:`pipeline.lang.gendered_words`
(which kept words are gendered), :mod:`pipeline.errors`, :mod:`pipeline.vocab` and
:mod:`pipeline.cli` (extract and generate run as a user runs them).
"""

from __future__ import annotations

import csv
import difflib
import random
import re
import sys
import textwrap
from collections import Counter, defaultdict
from pathlib import Path

from pipeline.errors import InputError

ROOT = Path(__file__).resolve().parents[2]
VERDICTS = ("clean", "not-clean")
KINDS = ("one-person-as-two", "thing-as-person", "allusion", "pronoun-case", "window-start",
         "verb-in-name", "gender-wrong", "other")
COLUMNS = ("quadruple_id", "book", "pattern", "names", "verdict", "kind", "note")
ROLES = ("C1", "C2", "O1", "O2")
WORD = re.compile(r"\w+(?:['’]\w+)*|[^\w\s]")
WIDTH = 100


# ------------------------------------------------------------------------ reading ---------
def load_quadruples(path: Path) -> dict[str, dict[str, dict]]:
    """quadruple_id -> variant -> row of a QUADRUPLES Parquet file."""
    from pipeline.formats.tables import read_table

    table = read_table(path)
    need = {"quadruple_id", "variant", "book_id", "book", "pattern", "text", "pronoun",
            "pronoun_offset", "a_offset", "b_offset", "names"}
    missing = sorted(need - set(table.column_names))
    if missing:
        raise InputError(f"not a quadruples table: no column {', '.join(missing)}", path)
    quads: dict[str, dict[str, dict]] = defaultdict(dict)
    for row in table.select(sorted(need) + [c for c in ("instance_id",) if c in table.column_names]).to_pylist():
        quads[row["quadruple_id"]][row["variant"]] = row
    incomplete = [q for q, v in quads.items() if "original" not in v]
    if incomplete:
        raise InputError(f"quadruple {incomplete[0]} has no original row", path)
    return dict(quads)


def window_key(row: dict) -> tuple[str, str]:
    """What makes two quadruples one window: the book and the text's first words (the
    quadruples of one window, one per pronoun, and its longer versions start alike)."""
    return row["book_id"], " ".join(row["text"].split()[:12])


def sample(quads: dict[str, dict[str, dict]], seed: int, n: int, per_window: bool = True,
           exclude: frozenset[str] = frozenset()) -> list[str]:
    """``n`` quadruple ids drawn with ``seed``, spread over the books: the books in a seeded
    order, each book's quadruples in a seeded order, then one from each book in turn. With
    ``per_window`` only the first quadruple drawn of a window (:func:`window_key`) counts: the
    others of that window, its other pronouns, are left out. The ids in ``exclude`` (read
    before) are never drawn, nor, with ``per_window``, the other quadruples of their windows."""
    rng = random.Random(seed)
    read_windows = {window_key(quads[q]["original"]) for q in exclude if q in quads} if per_window else set()
    by_book: dict[str, list[str]] = defaultdict(list)
    for qid in sorted(quads):
        if qid in exclude or window_key(quads[qid]["original"]) in read_windows:
            continue
        by_book[quads[qid]["original"]["book_id"]].append(qid)
    books = sorted(by_book)
    rng.shuffle(books)
    for b in books:
        rng.shuffle(by_book[b])
        if per_window:
            seen: set = set()
            by_book[b] = [q for q in by_book[b] if not (window_key(quads[q]["original"]) in seen
                                                          or seen.add(window_key(quads[q]["original"])))]
    out: list[str] = []
    depth = 0
    while len(out) < n and any(depth < len(by_book[b]) for b in books):
        for b in books:
            if depth < len(by_book[b]) and len(out) < n:
                out.append(by_book[b][depth])
        depth += 1
    return out


# ------------------------------------------------------------------------ marking ---------
def marked_spans(row: dict) -> list[tuple[int, int, str]]:
    """(start, end, label) of the row's marks: every mention of the four persons (label
    ``C1``, ``A=C1`` for the candidate A's mention) and the pronoun (label ``P``)."""
    out = []
    for name in row["names"] or []:
        for m in name["mentions"] or []:
            label = name["role"]
            if m["start"] == row.get("a_offset"):
                label = "A=" + label
            elif m["start"] == row.get("b_offset"):
                label = "B=" + label
            out.append((m["start"], m["end"], label))
    p = row["pronoun_offset"]
    out.append((p, p + len(row["pronoun"]), "P"))
    return sorted(out)


def mark(text: str, marks: list[tuple[int, int, str]]) -> str:
    """``text`` with ``[[LABEL:span]]`` around each mark, ``{{span}}`` around the pronoun
    (label ``P``) and `` ¶`` at an empty mark labelled ``¶`` (a paragraph break). A mark that overlaps an earlier one is left out and flagged ``(!overlap)``."""
    out, pos = [], 0
    for start, end, label in sorted(marks):
        if label == "¶" and start == end and start >= pos:     # a paragraph break of the book
            out += [text[pos:start].rstrip(), " ¶"]
            pos = start
            continue
        if start < pos or end > len(text) or start >= end:
            out.append(f"(!overlap {label} {start}-{end})")
            continue
        out.append(text[pos:start])
        span = text[start:end]
        out.append("{{" + span + "}}" if label == "P" else f"[[{label}:{span}]]")
        pos = end
    out.append(text[pos:])
    return "".join(out)


def slot_tokens(text: str, marks: list[tuple[int, int, str]]) -> list[str]:
    """The text's words and punctuation, each person mention replaced by its slot (``<C1>``)."""
    names = sorted((s, e, lab.split("=")[-1]) for s, e, lab in marks if lab != "P")
    out, pos = [], 0
    for s, e, role in names:
        if s < pos:
            continue
        out += WORD.findall(text[pos:s])
        out.append(f"<{role}>")
        pos = e
    out += WORD.findall(text[pos:])
    return out


def changes(before: dict, after: dict) -> tuple[Counter, list[str]]:
    """Word changes from ``before`` to ``after`` besides the names (``her>his`` counted), and
    the gendered words ``after`` kept from ``before``."""
    from pipeline.lang.gendered_words import is_listed

    a, b = slot_tokens(before["text"], marked_spans(before)), slot_tokens(after["text"], marked_spans(after))
    changed: Counter = Counter()
    kept = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            kept += [w for w in a[i1:i2] if not w.startswith("<") and is_listed(w)]
        else:
            changed[f"{' '.join(a[i1:i2]) or '∅'}>{' '.join(b[j1:j2]) or '∅'}"] += 1
    return changed, kept


CAPITALISED = re.compile(r"\b[A-Z][\w’'-]*(?:\s+[A-Z][\w’'-]*)*")
SENTENCE_END = re.compile(r"(?:^|[.!?:;]['’\"”)]*|[“\"‘(—-])\s*$")


def unmarked_capitalised(text: str, marks: list[tuple[int, int, str]]) -> list[str]:
    """Capitalised words outside the marks and not at a sentence start (nor "I"): where a
    fifth person, a second name of a marked one or a thing named like a person would be."""
    out = []
    for m in CAPITALISED.finditer(text):
        s, e = m.span()
        if any(s < me and ms < e for ms, me, lab in marks if lab != "¶"):
            continue
        if SENTENCE_END.search(text[max(0, s - 4):s]) or s == 0:
            words = m.group(0).split()
            if len(words) == 1:
                continue
            m_text = " ".join(words[1:])
        else:
            m_text = m.group(0)
        m_text = " ".join(w for w in m_text.split() if w not in ("I", "I’m", "I'm", "I’ll", "I'll", "O"))
        if m_text and m_text not in out:
            out.append(m_text)
    return out


def wrap(text: str, indent: str = "    ") -> str:
    """Wrapped at :data:`WIDTH`, never inside a mark."""
    protected = re.sub(r"\[\[[^\]]*\]\]|\{\{[^}]*\}\}", lambda m: m.group(0).replace(" ", "\x00"), text)
    lines = textwrap.wrap(" ".join(protected.split()), WIDTH, initial_indent=indent, subsequent_indent=indent,
                          break_on_hyphens=False, break_long_words=False)
    return "\n".join(lines).replace("\x00", " ")


def cast_line(row: dict) -> str:
    """``C1 Kitty (f) · C2 ...``: who sits in each slot of this row."""
    parts = []
    for name in sorted(row["names"] or [], key=lambda n: ROLES.index(n["role"]) if n["role"] in ROLES else 9):
        forms = sorted({m["text"] for m in name["mentions"] or []}) or [name["name"]]
        parts.append(f"{name['role']} {' / '.join(forms)} ({(name['gender'] or '?')[:1]})")
    return " · ".join(parts)


def names_field(row: dict) -> str:
    return "; ".join(f"{n['role']}={n['name']}" for n in sorted(row["names"] or [], key=lambda n: n["role"]))


def counted(c: Counter) -> str:
    return ", ".join(f"{k}" + (f" x{v}" if v > 1 else "") for k, v in c.most_common()) or "none"


def window_start(book_text: str | None, row: dict) -> int | None:
    """Where the row's window starts in the book (None when not found): its first words,
    whitespace-insensitive, near the offset its instance id holds, else anywhere."""
    if not book_text:
        return None
    words = row["text"].split()[:12]
    if not words:
        return None
    head = re.compile(r"\s+".join(map(re.escape, words)))
    iid = row.get("instance_id") or ""
    if iid.rpartition("-")[2].isdigit():      # the id holds the pronoun's book offset
        guess = int(iid.rpartition("-")[2]) - row["pronoun_offset"]
        found = head.search(book_text, max(0, guess - 2000), guess + 2000 + len(row["text"]))
        if found:
            return found.start()
    found = head.search(book_text)
    return found.start() if found else None


def before_window(book_text: str | None, row: dict, width: int = 80) -> str | None:
    """The ``width`` characters of the book before the window, or None when unknown."""
    start = window_start(book_text, row)
    if start is None:
        return None
    return " ".join(book_text[max(0, start - width):start].split())


def paragraph_breaks(book_text: str | None, row: dict) -> list[int]:
    """Offsets in the row's text where the book starts a new paragraph (the window's text has
    its paragraphs joined by a space): the two texts walked side by side, whitespace runs
    matched as one; [] when the book is unknown or the texts part."""
    start = window_start(book_text, row)
    if start is None:
        return []
    text, i, j, out = row["text"], 0, start, []
    while i < len(text) and j < len(book_text):
        if text[i].isspace() or book_text[j].isspace():
            i0, j0 = i, j
            while i < len(text) and text[i].isspace():
                i += 1
            while j < len(book_text) and book_text[j].isspace():
                j += 1
            if book_text.count("\n", j0, j) >= 2 or (book_text.count("\n", j0, j) == 1 and j0 < j and i0 < i
                                                       and "\n\n" not in book_text[start:start + 4000]):
                out.append(i0)
        elif text[i] == book_text[j]:
            i, j = i + 1, j + 1
        else:
            return []
    return out


def render_quadruple(k: int, n: int, quad: dict[str, dict], book_text: str | None = None) -> str:
    """One quadruple as the reader sees it."""
    o = quad["original"]
    book = o["book"] if o["book"] == o["book_id"] else f"{o['book']} ({o['book_id']})"
    lines = [f"=== {k}/{n}  {o['quadruple_id']}  {book}  {o['pattern']}  "
             f"pronoun {o['pronoun']}",
             f"  cast: {cast_line(o)}"]
    before = before_window(book_text, o)
    if before is not None:
        lines.append(f"  before: …{before}")
    breaks = [(b, b, "¶") for b in paragraph_breaks(book_text, o)]
    lines += ["  original:" + (" (¶ a paragraph break of the book)" if breaks else ""),
              wrap(mark(o["text"], marked_spans(o) + breaks))]
    others = unmarked_capitalised(o["text"], marked_spans(o))
    if others:
        lines.append(f"    capitalised, not marked: {', '.join(others)}")
    s1 = quad.get("swap-1")
    if s1 is not None:
        changed, kept = changes(o, s1)
        lines += [f"  swap-1: {cast_line(s1)}", wrap(mark(s1["text"], marked_spans(s1))),
                  f"    changed: {counted(changed)}",
                  f"    gendered words kept: {', '.join(kept) or 'none'}"]
    for variant, against in (("swap-2", "swap-1"), ("control", "original")):
        row = quad.get(variant)
        if row is None:
            lines.append(f"  {variant}: missing")
            continue
        base = quad.get(against)
        other = counted(changes(base, row)[0]) if base is not None else "?"
        lines.append(f"  {variant}: {cast_line(row)}; besides names vs {against}: {other}")
    return "\n".join(lines)


# ---------------------------------------------------------------------- verdict TSV -------
def verdict_rows(quads: dict[str, dict[str, dict]], ids: list[str]) -> list[dict]:
    return [{"quadruple_id": q, "book": quads[q]["original"]["book"], "pattern": quads[q]["original"]["pattern"],
             "names": names_field(quads[q]["original"]), "verdict": "", "kind": "", "note": ""} for q in ids]


def write_verdicts_tsv(rows: list[dict], path: Path) -> None:
    from pipeline.formats.files import atomic_path

    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, COLUMNS, delimiter="\t", lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


def read_verdicts(path: Path) -> list[dict]:
    """The rows of a filled verdict TSV; a malformed file or row is an InputError naming the
    file and the row (the line number in the file, the header being line 1)."""
    if not path.is_file():
        raise InputError("not a file", path)
    with open(path, encoding="utf-8", newline="") as f:
        reader = csv.reader(f, delimiter="\t")
        header = next(reader, None)
        if header is None or [h.strip() for h in header[:len(COLUMNS)]] != list(COLUMNS):
            raise InputError(f"the header must be {' '.join(COLUMNS)}", path, 1)
        rows = []
        for line, rec in enumerate(reader, 2):
            if not any(c.strip() for c in rec):
                continue
            if len(rec) < 6 or len(rec) > len(COLUMNS):
                raise InputError(f"{len(rec)} fields, expected {len(COLUMNS)}", path, line)
            row = dict(zip(COLUMNS, [c.strip() for c in rec] + [""] * (len(COLUMNS) - len(rec))))
            verdict, kinds = row["verdict"], [k.strip() for k in row["kind"].split(",") if k.strip()]
            if verdict not in VERDICTS:
                raise InputError(f"verdict {verdict!r} is not one of {', '.join(VERDICTS)}", path, line)
            bad = [k for k in kinds if k not in KINDS]
            if bad:
                raise InputError(f"kind {bad[0]!r} is not one of {', '.join(KINDS)}", path, line)
            if verdict == "not-clean" and not kinds:
                raise InputError("a not-clean row needs a kind", path, line)
            if verdict == "clean" and kinds:
                raise InputError("a clean row has no kind", path, line)
            row["kinds"] = kinds
            rows.append(row)
    if not rows:
        raise InputError("no verdict rows", path)
    return rows


def read_ids(path: Path) -> set[str]:
    """The quadruple ids of a verdict TSV, filled or not (``--exclude``); a file without the
    verdict header is an InputError naming it."""
    if not path.is_file():
        raise InputError("not a file", path)
    with open(path, encoding="utf-8", newline="") as f:
        reader = csv.reader(f, delimiter="\t")
        header = next(reader, None)
        if header is None or [h.strip() for h in header[:1]] != [COLUMNS[0]]:
            raise InputError(f"not a verdict file: the header must start with {COLUMNS[0]}", path, 1)
        return {rec[0].strip() for rec in reader if rec and rec[0].strip()}


def summarise_verdicts(path: Path) -> str:
    from pipeline.vocab import pct

    rows = read_verdicts(path)
    n, clean = len(rows), sum(r["verdict"] == "clean" for r in rows)
    kinds = Counter(k for r in rows for k in r["kinds"])
    books: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for r in rows:
        books[r["book"]][0] += 1
        books[r["book"]][1] += r["verdict"] == "clean"
    out = [f"{path}: clean {clean}/{n} ({pct(clean / n, digits=0)} %)", "", "| kind | quadruples |", "|---|---:|"]
    out += [f"| {k} | {kinds[k]} |" for k in KINDS if kinds[k]] or ["| (none) | 0 |"]
    out += ["", "| book | read | clean |", "|---|---:|---:|"]
    out += [f"| {b} | {t} | {c} |" for b, (t, c) in sorted(books.items())]
    return "\n".join(out)


# ------------------------------------------------------------------------- running --------
def ensure_quadruples(args) -> Path:
    """The quadruples file to read: ``--quadruples``, else ``OUT/quadruples.parquet`` (made by
    extract + generate when absent)."""
    if args.quadruples is not None:
        return args.quadruples
    target = args.out / "quadruples.parquet"
    if target.exists():
        print(f"reusing {target}", file=sys.stderr)
        return target
    from pipeline.cli import main as cli

    model = ["--model", args.model] if args.model else []
    rc = cli(["extract", "--corpus", str(args.corpus), "--out", str(args.out), "--workers", str(args.workers), *model])
    if rc:
        raise SystemExit(rc)
    rc = cli(["generate", "--instances", str(args.out), "--out", str(args.out), *model])
    if rc:
        raise SystemExit(rc)
    return target


def book_texts(corpus: Path | None, book_ids: set[str]) -> dict[str, str]:
    if corpus is None:
        return {}
    from pipeline.formats.books import Book, CorpusSpec, iter_corpus

    return {b.book_id: b.text for b in iter_corpus(CorpusSpec(path=str(corpus)), skips=False)
            if isinstance(b, Book) and b.book_id in book_ids}


def read(args) -> int:
    path = ensure_quadruples(args)
    quads = load_quadruples(path)
    exclude = frozenset().union(*(read_ids(p) for p in args.exclude or ()))
    ids = sample(quads, args.seed, args.n, per_window=not args.all_windows, exclude=exclude)
    if not ids:
        raise InputError("every quadruple was read before (--exclude)", path)
    texts = book_texts(args.corpus, {quads[q]["original"]["book_id"] for q in ids})
    books = Counter(quads[q]["original"]["book"] for q in ids)
    left_out = f" ({sum(q in quads for q in exclude)} read before left out, with their windows)" if exclude else ""
    head = (f"{len(ids)} of {len(quads)} quadruples{left_out} of {path}, seed {args.seed}, "
            f"{len(books)} books: " + ", ".join(f"{b} {c}" for b, c in sorted(books.items())))
    body = "\n\n".join([head] + [render_quadruple(k, len(ids), quads[q], texts.get(quads[q]["original"]["book_id"]))
                                 for k, q in enumerate(ids, 1)])
    print(body)
    out_dir = args.out if args.out is not None else path.parent
    from pipeline.formats.files import atomic_path

    with atomic_path(out_dir / f"read-{args.seed}.txt") as tmp:
        tmp.write_text(body + "\n", encoding="utf-8")
    tsv = out_dir / f"read-{args.seed}.tsv"
    if tsv.exists() and any(r["verdict"].strip() for r in csv.DictReader(open(tsv, encoding="utf-8"), delimiter="\t")):
        print(f"kept the filled {tsv}", file=sys.stderr)
    else:
        write_verdicts_tsv(verdict_rows(quads, ids), tsv)
        print(f"verdicts to fill in: {tsv} (verdict: {' | '.join(VERDICTS)}; kind: {', '.join(KINDS)})",
              file=sys.stderr)
    return 0


PROG = "python -m pipeline.perf.read"


def options() -> list:
    from pipeline import options as opt

    return [
        opt.option("--corpus", type=opt.PATH, help="books to extract and generate from (also shows the text before "
                                                   "each window)"),
        opt.option("--quadruples", type=opt.PATH,
                   help="read this quadruples.parquet instead of running extract + generate"),
        opt.option("--out", type=opt.PATH, help="extract/generate output directory, reused when it holds "
                                               "quadruples.parquet; read-SEED.{txt,tsv} go there (default: beside "
                                               "--quadruples, else outputs/read-CORPUS)"),
        opt.option("--seed", type=int, default=0, help="the sample's seed (default 0)"),
        opt.option("--n", type=int, default=50, help="quadruples to draw (default 50)"),
        opt.flag("--all-windows",
                 "let several quadruples of one window (one per pronoun) be drawn (default: one per window)"),
        opt.many("--exclude", type=opt.PATH, metavar="FILE.tsv",
                 help="verdict files of earlier reads: their quadruples and windows are not drawn again"),
        opt.option("--workers", type=int, default=1, help="extract's processes (default 1)"),
        opt.option("--model", help="spaCy pipeline for extract and generate"),
        opt.option("--summarise", type=opt.PATH, metavar="FILE.tsv",
                   help=f"print the counts of a filled verdict TSV (verdict {'/'.join(VERDICTS)}; "
                        f"kind {', '.join(KINDS)})"),
    ]


def main(argv: list[str] | None = None) -> int:
    from pipeline import options as opt

    args = opt.parse_script(argv, PROG, "Draw quadruples and print them marked for reading by eye ([[C1:name]], "
                                        "[[A=C1:name]], {{pronoun}}); write OUT/read-SEED.tsv to fill in; or "
                                        "summarise a filled one.", options())
    try:
        if args.summarise is not None:
            print(summarise_verdicts(args.summarise))
            return 0
        if args.quadruples is None and args.corpus is None and (args.out is None or not (args.out / "quadruples.parquet").exists()):
            opt.script_usage_error(PROG, "give --corpus, --quadruples, or an --out that holds quadruples.parquet")
        if args.n < 1:
            opt.script_usage_error(PROG, "--n must be at least 1")
        if args.out is None and args.quadruples is None:
            args.out = ROOT / "outputs" / f"read-{args.corpus.resolve().name}"
        return read(args)
    except InputError as exc:
        print(f"error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
