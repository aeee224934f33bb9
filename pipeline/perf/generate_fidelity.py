"""Fidelity of generate against the published Counter-GAP quadruples (a perf script, not a test).

    python -m pipeline.perf.generate_fidelity [--dev FILE] [--gendered-words FILE ...]
                                                    [--name-forms person|shape] [--model NAME] [--show N]

Reads the published quadruples of ``../shared/reference/counter-gap-dev/C-GAP-withdot.dev.tsv``
(75 quadruples from the four Austen novels, all four variants, exactly as released), runs our
GAP conversion (:func:`pipeline.core.gap_rows.gap_instance`) on each original and our
generation on those that qualify, and prints:

* how many of the originals qualify (and the rejection reasons of the others);
* how many of our control, swap-1 and swap-2 texts are identical to the published ones
  (and how many swap texts match when the published swap-1/swap-2 are taken in either order:
  the order of O1/O2 is a convention, see docs/generate.md);
* every remaining difference class with a count: each differing stretch of tokens between
  our text and the published one, classified (word list, tagger, name form, title, ...).

Skips (exit 0) when ../shared is absent.

May import: every layer except the commands.
"""

from __future__ import annotations

import difflib
import os
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("COUNTER_GAP_SHARED", ROOT.parent / "shared"))
DEV = SHARED / "reference" / "counter-gap-dev" / "C-GAP-withdot.dev.tsv"

_TOKEN = re.compile(r"\w+(?:['’]\w+)*|[^\w\s]")


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def read_published(path: Path) -> dict[str, dict[str, dict]]:
    """quadruple id -> variant -> row, read with the project's GAP TSV reader."""
    from pipeline.formats.gap_tsv import read_gap_tsv
    from pipeline.vocab import split_id

    rows, _ = read_gap_tsv(path)
    quads: dict[str, dict[str, dict]] = defaultdict(dict)
    for r in rows:
        base, variant = split_id(str(r["ID"]))
        quads[base][variant] = r
    return quads


def _kept(original: list[str], variant: list[str]) -> set[int]:
    """Indices of ``variant`` tokens left as they were in ``original``."""
    kept = set()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, original, variant, autojunk=False).get_opcodes():
        if tag == "equal":
            kept.update(range(j1, j2))
    return kept


def classify_difference(ours: list[str], theirs: list[str], words, name_tokens: set[str],
             ours_kept: bool, theirs_kept: bool) -> str:
    """A class for one differing stretch (our tokens vs the published tokens);
    ``*_kept``: that side left the stretch as in the original."""
    from pipeline.lang.names import title_gender

    lo, lt = [w.lower() for w in ours], [w.lower() for w in theirs]
    is_name = any(w in name_tokens for w in ours + theirs)
    what = "name mention" if is_name else "word"
    if theirs_kept and not ours_kept:
        return f"{what} changed by us, left as in the original by the published"
    if ours_kept and not theirs_kept:
        return f"{what} left as in the original by us, changed by the published"
    if not ours or not theirs:
        side = "ours" if ours else "published"
        if all(title_gender(w) or w == "." for w in (ours or theirs)):
            return f"title only in {side}"
        return f"tokens only in {side}" + (" (name form)" if is_name else "")
    if len(ours) == len(theirs) == 1 and ours[0][:1].islower() and theirs[0][:1].islower():
        a, b = lo[0], lt[0]
        if a in ("him", "his", "her", "hers") and b in ("him", "his", "her", "hers"):
            return f"pronoun case: ours {a} / published {b}"
        return f"word: ours {a} / published {b}"
    if is_name:
        ot = [w for w in ours if title_gender(w) or w == "."]
        tt = [w for w in theirs if title_gender(w) or w == "."]
        on = [w for w in ours if w in name_tokens]
        tn = [w for w in theirs if w in name_tokens]
        if on == tn and ot != tt:
            return "name: title differs"
        if set(on) < set(tn):
            return "name: published form longer (full name / with title)"
        if set(tn) < set(on):
            return "name: published form shorter"
        return "name: another person"
    return f"other: ours {' '.join(ours)!r} / published {' '.join(theirs)!r}"


def similarity(a: str, b: str | None) -> float:
    if b is None:
        return 0.0
    return difflib.SequenceMatcher(None, tokens(a), tokens(b), autojunk=False).ratio()


def diff_classes(original: str, ours: str, theirs: str, words, name_tokens: set[str]) -> list[tuple[str, str]]:
    o, a, b = tokens(original), tokens(ours), tokens(theirs)
    kept_a, kept_b = _kept(o, a), _kept(o, b)
    out = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        ak = i2 > i1 and all(i in kept_a for i in range(i1, i2))
        bk = j2 > j1 and all(j in kept_b for j in range(j1, j2))
        names_b = [j for j in range(j1, j2) if b[j] in name_tokens]
        if not ak and not bk and names_b and all(j in kept_b for j in names_b):
            # the published left the name as it was and flipped its title as a word
            # ("Miss Fairfax" -> "Sir Fairfax": their NER missed the mention)
            cls = "name mention left as in the original by the published, its title flipped as a word"
        else:
            cls = classify_difference(a[i1:i2], b[j1:j2], words, name_tokens, ak, bk)
        out.append((cls, f"{' '.join(a[max(0, i1 - 3):i2 + 3])}  ||  {' '.join(b[max(0, j1 - 3):j2 + 3])}"))
    return out


def main(argv: list[str] | None = None) -> int:
    from pipeline import options as opt

    args = opt.parse_script(argv, "python -m pipeline.perf.generate_fidelity", __doc__.split("\n\n")[0], [
        opt.option("--dev", default=str(DEV), help="published quadruples (default: the Austen dev file)"),
        opt.repeated("--gendered-words", metavar="FILE",
                     help="word list(s) as for generate (default: the built-in list)"),
        opt.option("--model", default=None, help="spaCy pipeline (default: the project's)"),
        opt.option("--name-forms", choices=("person", "shape"), default="person",
                   help="name convention as for generate (default: person)"),
        opt.option("--show", type=int, default=1, help="examples printed per difference class"),
    ])
    path = Path(args.dev)
    if not path.exists():
        print(f"skipped: {path} is absent")
        return 0

    from pipeline.core.gap_rows import qualified_gap_instance
    from pipeline.core.quadruples import quadruple
    from pipeline.lang import gendered_words as gw
    from pipeline.nlp import load as nlp_mod
    from pipeline.vocab import CONTROL, ORIGINAL, SWAP_1, SWAP_2

    words = gw.load(args.gendered_words)
    quads = read_published(path)
    originals = [(qid, q) for qid, q in quads.items() if ORIGINAL in q]
    nlp = nlp_mod.load(args.model)
    docs = nlp.pipe((q[ORIGINAL]["Text"] for _, q in originals), batch_size=32)
    reasons: Counter = Counter()
    same: Counter = Counter()
    classes: Counter = Counter()
    examples: dict[str, list[str]] = defaultdict(list)
    per_quad_classes: Counter = Counter()
    qualified = 0
    for (qid, q), doc in zip(originals, docs):
        inst, reason, _ = qualified_gap_instance(q[ORIGINAL], doc)
        if inst is None:
            reasons[reason] += 1
            continue
        qualified += 1
        recs, _ = quadruple(inst, qid, words=words, name_forms=args.name_forms)
        ours = {r["variant"]: r["text"] for r in recs}
        theirs = {v: q[v]["Text"] for v in (CONTROL, SWAP_1, SWAP_2) if v in q}
        name_tokens = {w for n in inst["names"] for m in n["mentions"] for w in tokens(m["text"])}
        name_tokens -= {"."}
        for v in (CONTROL, SWAP_1, SWAP_2):
            same[v] += ours[v] == theirs.get(v)
        # the published O1/O2 order is not recoverable from the text: pair our swaps with
        # the published ones in the order that makes them most alike
        straight = similarity(ours[SWAP_1], theirs.get(SWAP_1)) + similarity(ours[SWAP_2], theirs.get(SWAP_2))
        crossed = similarity(ours[SWAP_1], theirs.get(SWAP_2)) + similarity(ours[SWAP_2], theirs.get(SWAP_1))
        pairing = {SWAP_1: SWAP_2, SWAP_2: SWAP_1} if crossed > straight else {SWAP_1: SWAP_1, SWAP_2: SWAP_2}
        if crossed > straight:
            classes["swap-1/swap-2 in the other order (O1/O2 convention)"] += 1
            per_quad_classes["swap-1/swap-2 in the other order (O1/O2 convention)"] += 1
        paired_same = sum(ours[v] == theirs.get(pairing[v]) for v in (SWAP_1, SWAP_2))
        same["swaps either order"] += paired_same
        all_same = ours[CONTROL] == theirs.get(CONTROL) and paired_same == 2
        same["quadruples identical (swaps either order)"] += all_same
        seen_here = set()
        for v in (CONTROL, SWAP_1, SWAP_2):
            pub = theirs.get(pairing.get(v, v))
            if pub is None or ours[v] == pub:
                continue
            for cls, ex in diff_classes(q[ORIGINAL]["Text"], ours[v], pub, words, name_tokens):
                classes[cls] += 1
                seen_here.add(cls)
                if len(examples[cls]) < args.show:
                    examples[cls].append(f"{qid}-{v}: {ex}")
        for cls in seen_here:
            per_quad_classes[cls] += 1

    n = len(originals)
    print(f"generate fidelity on {path.name}: {n} published quadruples")
    print(f"word lists: {' + '.join(words.sources)}; name forms: {args.name_forms}")
    print(f"qualified          {qualified} of {n}")
    for r, k in reasons.most_common():
        print(f"  rejected {k:3d}  {r}")
    if qualified:
        print(f"identical texts (of {qualified} qualified):")
        for v in (CONTROL, SWAP_1, SWAP_2, "swaps either order", "quadruples identical (swaps either order)"):
            total = 2 * qualified if v == "swaps either order" else qualified
            print(f"  {v:44s} {same[v]:4d} of {total}")
    print("difference classes (differing token stretches; quadruples affected):")
    for cls, k in sorted(classes.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"  {k:4d} ({per_quad_classes.get(cls, k):3d})  {cls}")
        for ex in examples.get(cls, []):
            print(f"             e.g. {ex}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
