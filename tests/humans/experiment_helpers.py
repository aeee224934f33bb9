"""A small hand-made benchmark (the BENCHMARK schema) for the experiment tests."""

from __future__ import annotations

import itertools
import re

from pipeline.formats.schemas import BENCHMARK
from pipeline.formats.tables import write_records

MALE = ["developer", "mechanic", "farmer", "guard", "lawyer", "chief"]
FEMALE = ["nurse", "clerk", "secretary", "cashier", "baker", "librarian"]
NEUTRAL = ["teacher", "writer"]
STEREO = {**{o: "masculine" for o in MALE}, **{o: "feminine" for o in FEMALE},
          **{o: "neutral" for o in NEUTRAL}}
# (template, which occupation is the pronoun's referent)
TEMPLATES = [
    ("The {a} argued with the {b} because {p} did not like the plan.", "a"),
    ("The {a} called the {b} because {p} needed help.", "a"),
    ("The {a} thanked the {b} because {p} had fixed the car.", "b"),
]
PRO = {"pro-anti", "neutral-anti", "pro-neutral"}
ANTI = {"anti-pro", "neutral-pro", "anti-neutral"}


def _relation(occupation: str, gender: str) -> str:
    s = STEREO[occupation]
    if s == "neutral":
        return "neutral"
    return "pro" if s == gender else "anti"


def _span(text: str, word: str, after: int = 0) -> tuple[int, int]:
    m = re.compile(rf"\b{re.escape(word)}\b").search(text, after)
    return m.start(), m.end()


def make_item(i: int, template: str, ref: str, a: str, b: str, pronoun: str,
              maze: bool = True) -> dict:
    text = template.format(a=a, b=b, p=pronoun)
    gender = {"he": "masculine", "she": "feminine"}[pronoun]
    main, other = (a, b) if ref == "a" else (b, a)
    ms, me = _span(text, f"{'The' if text.startswith('The ' + main) else 'the'} {main}")
    os_, oe = _span(text, f"{'The' if text.startswith('The ' + other) else 'the'} {other}")
    ps, pe = _span(text, pronoun, max(ms, os_))
    category = f"{_relation(main, gender)}-{_relation(other, gender)}"
    coarse = "pro" if category in PRO else "anti" if category in ANTI else "neutral"
    return {"id": f"toy-{i:04d}", "source": "winobias", "split": "test", "text": text,
            "tokens": text.split(), "pronoun": pronoun, "pronoun_start": ps, "pronoun_end": pe,
            "pronoun_gender": gender, "main_entity": text[ms:me], "main_start": ms, "main_end": me,
            "main_occupation": main, "other_entity": text[os_:oe], "other_start": os_,
            "other_end": oe, "other_occupation": other, "main_stereotype": STEREO[main],
            "other_stereotype": STEREO[other], "category": category, "stereotype": coarse,
            "maze_eligible": maze}


def make_items(n: int = 60, maze: bool = True) -> list[dict]:
    """``n`` items cycling through templates, occupation pairs and both pronouns."""
    out = []
    pairs = [(a, b) for a, b in itertools.product(MALE + NEUTRAL, FEMALE + NEUTRAL) if a != b]
    combos = itertools.cycle(itertools.product(TEMPLATES, ("he", "she")))
    for i in range(n):
        (template, ref), pronoun = next(combos)
        a, b = pairs[(i * 7) % len(pairs)]
        if i % 2:
            a, b = b, a
        out.append(make_item(i, template, ref, a, b, pronoun, maze))
    return out


def write_benchmark(items: list[dict], path) -> None:
    write_records(items, path, BENCHMARK, fill_missing=True)


def hand_fillers(items: list[dict]) -> dict[str, list[dict]]:
    """One filler per item with a known answer (the parse-based ones are tested elsewhere)."""
    return {it["id"]: [{"question": "What is the gender of the person who needed help?",
                        "answer": "unknown", "template": "subject", "argument": it["other_entity"]}]
            for it in items}


def hand_distractors(items: list[dict]) -> dict[str, list]:
    return {it["id"]: [None] + [f"zz{k}" for k in range(1, len(it["tokens"]))] for it in items}


def write_plan(rows: list[dict], path) -> None:
    from pipeline.formats.schemas import EXPERIMENT_PLAN

    write_records(rows, path, EXPERIMENT_PLAN, fill_missing=True)


def qa_plan_file(path, participants: int = 2, targets: int = 2, calibration: int = 2,
                 n_items: int = 20, seed: int = 0) -> list[dict]:
    from pipeline.humans.core.plan import qa_plan

    items = make_items(n_items)
    rows = qa_plan(items, hand_fillers(items), participants, seed, targets=targets,
                   calibration=calibration)
    write_plan(rows, path)
    return rows


def maze_plan_file(path, participants: int = 2, per_participant: int = 1, n_items: int = 6,
                   seed: int = 0) -> list[dict]:
    from pipeline.humans.core.plan import maze_plan

    items = make_items(n_items)
    rows = maze_plan(items, hand_distractors(items), participants, seed,
                     per_participant=per_participant)
    write_plan(rows, path)
    return rows
