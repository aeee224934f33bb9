"""The pure core of annotation: questions, answer checks, labels, check items, task order.

Records in, records out: the stages read the quadruples Parquet file and the check-item
resource (``pipeline.formats``) and hand the rows to :func:`quadruple_rows` /
:func:`parse_checks`; nothing here opens a file.

May import: the standard library, :mod:`pipeline.errors`, :mod:`pipeline.vocab`, :mod:`pipeline.core.spans`.

A *question* is one instance (one row of ``quadruples.parquet``) or one known-answer check
item. It carries the text, the pronoun's span and the *persons* of the text: the four names
of the row's ``names`` column with their mention spans in that row's text. The candidate
mentions A and B (at ``a_offset`` / ``b_offset``) belong to the person with a mention
containing that offset; when no listed mention contains it, A (or B) becomes a person of its
own with the single span ``[offset, offset + len(a))``.

An *answer* is a list of highlighted character spans ``[start, end)`` in the question's text
plus the tick box "no names are coreferent with the given pronoun" and an optional
commonsense-contradiction comment. Checks (the same in the browser, the server and the import):

1. the tick box and a highlight are exclusive, and one of them is required;
2. every highlight, trimmed of surrounding whitespace, punctuation and a possessive 's, lies
   inside one name mention ("is a personal name of the text");
3. all highlights belong to the same person ("not several entities") -- highlighting two
   mentions of the same person is fine.

The label of a valid answer is ``A`` when the highlighted person is the person at A (any of
that person's mentions counts, not only the one at ``a_offset``), ``B`` likewise, and
``neither`` when the box is ticked or another person (an O-name, or a third name) was
highlighted: both give A-coref = B-coref = FALSE in GAP terms.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field

from pipeline.core.spans import trim_span
from pipeline.errors import InputError

LABELS = ("A", "B", "neither")
CHECK_PREFIX = "check-"
CHECKS_RESOURCE = "annotation_checks.txt"       # resources/annotation_checks.txt



@dataclass
class Question:
    id: str
    text: str
    pronoun: tuple[int, int]
    persons: list[list[tuple[int, int]]]          # person -> mention spans
    person_names: list[str]
    a_person: int | None = None
    b_person: int | None = None
    gold: str | None = None                       # check items only: a person name or "none"
    meta: dict = field(default_factory=dict)

    def payload(self) -> dict:
        """What the browser needs (ids, text, pronoun span, persons' mention spans)."""
        return {"id": self.id, "text": self.text, "pronoun": list(self.pronoun),
                "persons": [[list(s) for s in spans] for spans in self.persons]}


def _person_containing(persons: list[list[tuple[int, int]]], offset: int) -> int | None:
    for i, spans in enumerate(persons):
        for s, e in spans:
            if s <= offset < e:
                return i
    return None


def question_from_row(row: dict) -> Question:
    """Build the question of one QUADRUPLES row."""
    text = row["text"]
    persons, names = [], []
    for name in row.get("names") or []:
        spans = sorted({(int(m["start"]), int(m["end"])) for m in (name.get("mentions") or [])})
        persons.append(spans)
        names.append(name.get("name") or "")
    candidates = []
    for key in ("a", "b"):
        off = row.get(f"{key}_offset")
        if off is None or row.get(key) is None:
            candidates.append(None)
            continue
        idx = _person_containing(persons, int(off))
        if idx is None:
            persons.append([(int(off), int(off) + len(row[key]))])
            names.append(row[key])
            idx = len(persons) - 1
        candidates.append(idx)
    p_off = int(row["pronoun_offset"])
    return Question(id=row["id"], text=text, pronoun=(p_off, p_off + len(row["pronoun"])),
                    persons=persons, person_names=names,
                    a_person=candidates[0], b_person=candidates[1])


def person_of_span(q: Question, start: int, end: int) -> int | None:
    """The person whose mention contains the (trimmed) span, else None."""
    s, e = trim_span(q.text, start, end)
    if e <= s:
        return None
    for i, spans in enumerate(q.persons):
        for ms, me in spans:
            if ms <= s and e <= me:
                return i
    return None


class AnswerError(ValueError):
    """An answer that breaks one of the checks; ``kind`` names which one."""

    def __init__(self, message: str, kind: str):
        super().__init__(message)
        self.kind = kind


def check_answer(q: Question, spans: list[tuple[int, int]], none: bool) -> int | None:
    """Validate an answer; return the highlighted person (None when the box is ticked)."""
    if none and spans:
        raise AnswerError("the box 'no names are coreferent' cannot be combined with a highlight",
                          "tick-and-highlight")
    if not none and not spans:
        raise AnswerError("highlight the name coreferent with the pronoun, or tick the box", "no-answer")
    if none:
        return None
    people = set()
    for s, e in spans:
        p = person_of_span(q, s, e)
        if p is None:
            raise AnswerError(f"the highlight {q.text[max(0, s):e]!r} is not a personal name of the text",
                              "not-a-name")
        people.add(p)
    if len(people) > 1:
        raise AnswerError("the highlights name several people; highlight one person only",
                          "several-people")
    return people.pop()


def label_of(q: Question, person: int | None) -> str:
    if person is not None and person == q.a_person:
        return "A"
    if person is not None and person == q.b_person:
        return "B"
    return "neither"


def coref_of(label: str) -> tuple[bool, bool]:
    return label == "A", label == "B"


def parse_spans(value) -> list[tuple[int, int]]:
    """Spans from the stored form: JSON list of [start, end] or [start, end, text] (or a list)."""
    if value is None:
        return []
    if isinstance(value, str):
        value = value.strip()
        if not value:
            return []
        try:
            value = json.loads(value)
        except RecursionError:
            raise ValueError("spans nested too deeply") from None
    if not isinstance(value, list):
        raise ValueError("spans must be a JSON list")
    out = []
    for item in value:
        if isinstance(item, dict):
            s, e = item["start"], item["end"]
        else:
            if not isinstance(item, (list, tuple)) or len(item) < 2:
                raise ValueError(f"bad span {item!r}")
            s, e = item[0], item[1]
        if isinstance(s, (bool, float)) or isinstance(e, (bool, float)):
            raise ValueError(f"bad span {item!r} (offsets are whole numbers)")   # 0.9 is no 0
        try:
            s, e = int(s), int(e)
        except (TypeError, ValueError):
            raise ValueError(f"bad span {item!r} (offsets are whole numbers)") from None
        if e <= s or s < 0:
            raise ValueError(f"bad span {item!r}")
        out.append((s, e))
    return out


# ----------------------------------------------------------------- check items -------------

_MARK = re.compile(r"\[\[([^\]|]+)(?:\|([^\]]+))?\]\]|\{\{([^}]+)\}\}")


def parse_check_line(line: str | list[str], where: str = "") -> Question:
    """``id<TAB>marked-up text<TAB>gold`` (a line or its fields): names as ``[[mention]]`` or
    ``[[mention|Person]]``, the pronoun as ``{{pronoun}}``, gold a person's name or ``NONE``."""
    parts = line.rstrip("\n").split("\t") if isinstance(line, str) else list(line)
    if len(parts) != 3:
        raise ValueError(f"{where}: expected id<TAB>text<TAB>gold")
    cid, marked, gold = (p.strip() for p in parts)
    text, pos, persons, order, pronoun = [], 0, {}, [], None
    length = 0
    for m in _MARK.finditer(marked):
        chunk = marked[pos:m.start()]
        text.append(chunk)
        length += len(chunk)
        if m.group(3) is not None:
            if pronoun is not None:
                raise ValueError(f"{where}: more than one {{{{pronoun}}}}")
            pronoun = (length, length + len(m.group(3)))
            text.append(m.group(3))
            length += len(m.group(3))
        else:
            mention = m.group(1)
            person = (m.group(2) or mention).strip()
            if person not in persons:
                persons[person] = []
                order.append(person)
            persons[person].append((length, length + len(mention)))
            text.append(mention)
            length += len(mention)
        pos = m.end()
    text.append(marked[pos:])
    if pronoun is None or len(order) < 2:
        raise ValueError(f"{where}: a check item needs a {{{{pronoun}}}} and two [[names]]")
    if gold.upper() != "NONE" and gold not in persons:
        raise ValueError(f"{where}: gold {gold!r} is not one of the marked persons")
    return Question(id=CHECK_PREFIX + cid, text="".join(text), pronoun=pronoun,
                    persons=[persons[p] for p in order], person_names=order,
                    gold="none" if gold.upper() == "NONE" else gold)


def parse_checks(lines: list[tuple[int, list[str]]], source=None) -> list[Question]:
    """Check items from the (line number, fields) rows of a check file
    (:func:`pipeline.formats.resources.read_commented`); bad lines are :class:`InputError`."""
    items, seen = [], set()
    for no, fields in lines:
        try:
            q = parse_check_line(fields, f"line {no}")
        except ValueError as exc:
            raise InputError(str(exc).split(": ", 1)[-1], source, no) from None
        if q.id in seen:
            raise InputError(f"duplicate check id {q.id!r}", source, no)
        seen.add(q.id)
        items.append(q)
    return items


def check_correct(q: Question, person: int | None) -> bool:
    """Did an answer to a check item give the known answer?"""
    if q.gold == "none":
        return person is None
    return person is not None and q.person_names[person] == q.gold


# ----------------------------------------------------------------- reading input -----------

REQUIRED_COLUMNS = ("id", "quadruple_id", "variant", "text", "pronoun", "pronoun_offset",
                    "a", "a_offset", "b", "b_offset", "names")


def quadruple_rows(table, source=None) -> list[dict]:
    """The rows of a quadruples table (a ``pyarrow.Table`` of schema QUADRUPLES, as
    :func:`pipeline.formats.tables.read_table` returns it), checked for what annotation needs:
    the columns, unique non-empty ids that do not clash with check ids, and pronoun offsets
    that point at the pronoun. Row numbers in errors count from 0 (Parquet row index)."""
    missing = [c for c in REQUIRED_COLUMNS if c not in table.column_names]
    if missing:
        raise InputError(f"missing column(s) {', '.join(missing)}", source)
    return check_rows(table.to_pylist(), source)


def check_rows(rows: list[dict], source=None, rownos: list[int] | None = None) -> list[dict]:
    """The checks of :func:`quadruple_rows` on row dicts (e.g. the records
    :func:`pipeline.annotation.core.gap_persons.gap_records` made of a GAP TSV file); ``rownos``: the
    number to name in an error for each row (default: the row index)."""
    seen = set()
    for k, row in enumerate(rows):
        i = rownos[k] if rownos is not None else k
        if not row["id"]:
            raise InputError("empty id", source, i)
        if row["id"] in seen:
            raise InputError(f"duplicate id {row['id']!r}", source, i)
        if str(row["id"]).startswith(CHECK_PREFIX):
            raise InputError(f"id {row['id']!r} clashes with the check-item prefix", source, i)
        seen.add(row["id"])
        p = row["pronoun_offset"]
        if p is None or row["text"][p:p + len(row["pronoun"] or "")] != row["pronoun"]:
            raise InputError("pronoun_offset does not point at the pronoun", source, i)
    return rows


# ----------------------------------------------------------------- task order --------------

def interleave(rows: list[dict], rng: random.Random) -> tuple[list[tuple[str, Question]], list[int]]:
    """Seeded round-robin order of all instances: one variant of every quadruple, then a
    second one, ...; returns ((quadruple_id, question) sequence, size of each round).

    Used by the MTurk export (tasks are cut from this sequence) and by the web app (the order
    in which questions are offered), so both keep the variants of a quadruple far apart."""
    groups: dict[str, list[Question]] = {}
    for row in rows:
        groups.setdefault(str(row["quadruple_id"]), []).append(question_from_row(row))
    quads = sorted(groups)
    rng.shuffle(quads)
    for k in quads:
        rng.shuffle(groups[k])
    quads.sort(key=lambda k: -len(groups[k]))          # stable: shuffled order within a size
    sequence, slot_sizes = [], []
    for j in range(max((len(g) for g in groups.values()), default=0)):
        members = [k for k in quads if len(groups[k]) > j]
        slot_sizes.append(len(members))
        sequence.extend((k, groups[k][j]) for k in members)
    return sequence, slot_sizes


def plan_tasks(rows: list[dict], per_task: int, n_checks: int, checks: list[Question],
               seed: int) -> tuple[list[list[Question]], dict]:
    """Questions per task (HIT). Returns (tasks, info) where info says how the plan was cut.

    The :func:`interleave` sequence puts two variants of one quadruple at least as far apart
    as there are quadruples in a round; cutting it into chunks no longer than the smallest
    round therefore never puts two variants of a quadruple into one task (checked again).
    Each task is topped up to ``per_task`` with shuffled check items; positions are shuffled.
    """
    if per_task < 1:
        raise ValueError("--per-task must be at least 1")
    if n_checks < 0 or n_checks >= per_task:
        raise ValueError("--checks must be between 0 and --per-task - 1")
    if n_checks and not checks:
        raise ValueError("check questions requested but no check items are available")
    rng = random.Random(seed)
    sequence, slot_sizes = interleave(rows, rng)
    per_instance = per_task - n_checks
    gap = min(slot_sizes[:-1]) if len(slot_sizes) > 1 else per_instance
    size = max(1, min(per_instance, gap))
    tasks = []
    for start in range(0, len(sequence), size):
        chunk = sequence[start:start + size]
        keys = [k for k, _ in chunk]
        if len(set(keys)) != len(keys):                 # cannot happen (see the docstring)
            raise RuntimeError("two variants of one quadruple in one task")
        wanted = per_task - len(chunk)
        pool = list(checks)
        rng.shuffle(pool)
        task = [q for _, q in chunk] + pool[:wanted]
        rng.shuffle(task)
        tasks.append(task)
    info = {"instances_per_task": size, "quadruples": len({k for k, _ in sequence}),
            "instances": len(sequence),
            "reduced": size < per_instance}
    return tasks, info


def pick_next(order: list[str], answers: dict[str, int], mine: set[str], held: set[str],
              leased_by_others: dict[str, int], assignments: int) -> tuple[str | None, int]:
    """The question the annotation app hands an annotator next -> (its id or None, how many are
    still open to them).

    ``order``: the ids in the seeded order (:func:`interleave`); ``answers``: id -> answers
    stored; ``mine``: the ids this annotator answered; ``held``: the ids they hold a live lease
    on; ``leased_by_others``: id -> live leases of other annotators. A question is open to
    them when they have not answered it, it has fewer than ``assignments`` answers, and (unless
    they hold its lease) its answers and the others' leases leave a slot. Among the open ones:
    their own lease first (a reload gives the same question back), then the one nearest to
    completion (answers and leases of others), then the seeded order."""
    taken = {i: answers.get(i, 0) + leased_by_others.get(i, 0) for i in set(answers) | set(leased_by_others)}
    rank = {i: k for k, i in enumerate(order)}
    open_ids = [i for i in order if i not in mine and answers.get(i, 0) < assignments
                and (i in held or taken.get(i, 0) < assignments)]
    if not open_ids:
        return None, 0
    return min(open_ids, key=lambda i: (i not in held, -taken.get(i, 0), rank[i])), len(open_ids)
