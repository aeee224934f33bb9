"""Experiment plans: seeded, balanced lists of trials per participant (timed QA and Maze).

QA (:func:`qa_plan`), per participant:

* ``calibration`` calibration sentences first (the same for everyone, set aside from the
  trials), each with one of its filler questions, shown without a time limit;
* ``targets`` target questions ("What is the gender of the OCCUPATION?", the occupation of the
  main entity; correct answer: the pronoun's gender) split evenly over the stereotype
  categories present (pro / anti / neutral), and as many filler questions (50 % of all
  questions) on other items;
* every item at most once per participant; successive participants take successive windows
  of each category's seeded order, so the items are covered evenly;
* alpha in {0.75, 0.5, 0.25} per trial: at random among the alphas this item has been given
  least often so far (then the least used by this participant), so each item is seen under
  each alpha by the same number of participants within one;
* trials (targets and fillers together) in a seeded random order.

Maze (:func:`maze_plan`): Maze-eligible items only (none: :class:`PlanError`); each
participant gets ``items`` sentences (rotating windows as above, random order); per word a
random side (left/right) of the true word; the distractors come in, one list per item.

Rows are plain dicts with the keys of ``EXPERIMENT_PLAN`` in :mod:`pipeline.formats.schemas`.

May import: the standard library, :mod:`pipeline.humans.core.pace`, :mod:`pipeline.vocab`.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict

from pipeline.humans.core.pace import ALPHAS, word_count

ANSWERS = ["male", "female", "neutral", "unknown"]
GENDER_ANSWER = {"masculine": "male", "feminine": "female", "neutral": "neutral"}
STEREOTYPES = ("pro", "anti", "neutral")
RELATIONS = ("pro", "anti", "neutral", "pronoun-neutral")
PLAN_KEYS = ("participant", "position", "experiment", "item_id", "source", "kind", "alpha",
             "text", "tokens", "n_words", "question", "answers", "correct_answer",
             "question_category", "main_entity_gender", "template", "argument", "pronoun",
             "pronoun_gender", "pronoun_index", "main_entity", "other_entity",
             "main_occupation", "relation_to_main", "relation_to_other", "dist_to_main",
             "dist_to_other", "distractors", "sides")


class PlanError(ValueError):
    """The benchmark cannot give the plan asked for (the message says why)."""


def participant_id(p: int) -> str:
    return f"P{p + 1:03d}"


def token_starts(text: str, tokens: list[str]) -> list[int]:
    """Character offset of each whitespace token in ``text``."""
    out, pos = [], 0
    for tok in tokens:
        i = text.find(tok, pos)
        if i < 0:
            raise PlanError(f"token {tok!r} not found in {text!r}")
        out.append(i)
        pos = i + len(tok)
    return out


def token_index(starts: list[int], tokens: list[str], offset: int | None) -> int | None:
    """Index of the token holding character ``offset``."""
    if offset is None:
        return None
    for i, (s, t) in enumerate(zip(starts, tokens)):
        if s <= offset < s + len(t):
            return i
    return None


def relations(item: dict) -> tuple[str, str | None]:
    """(relation_to_main, relation_to_other) of an item, from its fine-grained category."""
    cat = (item.get("category") or "").strip()
    if cat == "pronoun-neutral":
        return "pronoun-neutral", ("pronoun-neutral" if item.get("other_entity") else None)
    parts = cat.split("-")
    if len(parts) == 2 and all(p in STEREOTYPES for p in parts):
        return parts[0], (parts[1] if item.get("other_entity") else None)
    main = item.get("stereotype") or "neutral"
    return main, None


def question_category(item: dict) -> str:
    """The QA results' ``question_category`` of a target question (the analysis reads it):
    BUG ``pro-stereotype_Male``; otherwise ``MAIN_STEREOTYPE.CATEGORY`` (the fine-grained
    category last)."""
    gender = GENDER_ANSWER.get(item.get("pronoun_gender") or "", "neutral")
    if item.get("source") in ("bug", "cog-bug"):
        return f"{item.get('stereotype')}-stereotype_{gender.capitalize()}"
    return f"{item.get('main_stereotype') or 'neutral'}.{item.get('category')}"


def target_question(item: dict) -> str:
    occupation = item.get("main_occupation")
    if not occupation:
        occupation = " ".join(w for w in (item.get("main_entity") or "").split()
                              if w.lower() not in ("the", "a", "an"))
    return f"What is the gender of the {occupation}?"


def _base(item: dict, participant: str, experiment: str) -> dict:
    row = {k: None for k in PLAN_KEYS}
    tokens = list(item.get("tokens") or item["text"].split())
    starts = token_starts(item["text"], tokens)
    p_i = token_index(starts, tokens, item.get("pronoun_start"))
    m_i = token_index(starts, tokens, item.get("main_start"))
    o_i = token_index(starts, tokens, item.get("other_start")) if item.get("other_entity") else None
    rel_main, rel_other = relations(item)
    row.update(participant=participant, experiment=experiment, item_id=item["id"],
               source=item.get("source"), text=item["text"], tokens=tokens,
               n_words=word_count(item["text"]), pronoun=item.get("pronoun"),
               pronoun_gender=item.get("pronoun_gender"), pronoun_index=p_i,
               main_entity=item.get("main_entity"), other_entity=item.get("other_entity"),
               main_occupation=item.get("main_occupation"),
               main_entity_gender=GENDER_ANSWER.get(item.get("pronoun_gender") or ""),
               relation_to_main=rel_main, relation_to_other=rel_other,
               dist_to_main=(abs(p_i - m_i) if p_i is not None and m_i is not None else None),
               dist_to_other=(abs(p_i - o_i) if p_i is not None and o_i is not None else None))
    return row


def _windows(order: list[str], size: int, p: int) -> list[str]:
    """Participant ``p``'s window of ``size`` items in a cyclic ``order``."""
    if not order or size <= 0:
        return []
    start = (p * size) % len(order)
    return [order[(start + k) % len(order)] for k in range(min(size, len(order)))]


def _alpha_chooser(rng: random.Random):
    per_item: dict[str, Counter] = defaultdict(Counter)

    def choose(item_ids: list[str]) -> dict[str, float]:
        mine: Counter = Counter()
        out = {}
        ids = list(item_ids)
        rng.shuffle(ids)
        for iid in ids:
            best = min((per_item[iid][a], mine[a], rng.random(), a) for a in ALPHAS)[3]
            per_item[iid][best] += 1
            mine[best] += 1
            out[iid] = best
        return out

    return choose


def qa_plan(items: list[dict], fillers: dict[str, list[dict]], participants: int, seed: int,
            targets: int = 20, calibration: int = 4) -> list[dict]:
    """Plan rows of the timed QA experiment (see the module docstring).

    ``fillers``: item id -> filler questions (dicts with ``question``, ``answer``,
    ``template``, ``argument``), from :func:`pipeline.humans.nlp.filler_questions`."""
    if participants < 1 or targets < 1 or calibration < 1:
        raise PlanError("--participants, --targets and --calibration must be at least 1")
    by_id = {it["id"]: it for it in items}
    if len(by_id) != len(items):
        raise PlanError("the benchmark has duplicate item ids")
    rng = random.Random(seed)
    with_fillers = sorted(i for i in by_id if fillers.get(i))
    if len(with_fillers) < calibration:
        raise PlanError(f"{len(with_fillers)} item(s) have a filler question; the calibration "
                        f"needs {calibration}")
    calib = rng.sample(with_fillers, calibration)
    rest = [i for i in sorted(by_id) if i not in set(calib)]
    cats: dict[str, list[str]] = {}
    for iid in rest:
        cat = by_id[iid].get("stereotype")
        if cat in STEREOTYPES:
            cats.setdefault(cat, []).append(iid)
    if not cats:
        raise PlanError("no items with a stereotype category (pro, anti or neutral) for the "
                        "target questions")
    for c in cats:
        rng.shuffle(cats[c])
    filler_order = [i for i in rest if fillers.get(i)]
    rng.shuffle(filler_order)
    need = 2 * targets
    if len(rest) < need:
        raise PlanError(f"{targets} target and {targets} filler questions per participant need "
                        f"{need} items besides the {calibration} calibration item(s); the "
                        f"benchmark has {len(rest)}")
    names = sorted(cats, key=STEREOTYPES.index)
    share = {c: targets // len(names) for c in names}
    for c in rng.sample(names, targets % len(names)):
        share[c] += 1
    choose_alpha = _alpha_chooser(random.Random(seed + 1))
    rows: list[dict] = []
    for p in range(participants):
        pid = participant_id(p)
        chosen: list[str] = []
        deficit = 0
        for c in names:
            take = _windows(cats[c], share[c], p)
            deficit += share[c] - len(take)
            chosen += take
        if deficit:
            spare = [i for c in names for i in _windows(cats[c], len(cats[c]), p) if i not in chosen]
            chosen += spare[:deficit]
        if len(chosen) < targets:
            raise PlanError(f"only {len(chosen)} items for {targets} target questions")
        taken = set(chosen)
        avail = [i for i in filler_order if i not in taken]
        if len(avail) < targets:
            raise PlanError(f"{len(avail)} items with a filler question are left for participant "
                            f"{pid}; {targets} are needed (lower --targets)")
        filler_ids = _windows(avail, targets, p)
        alphas = choose_alpha(chosen + filler_ids)
        trials = [("target", i) for i in chosen] + [("filler", i) for i in filler_ids]
        prng = random.Random(f"{seed}:{pid}")
        prng.shuffle(trials)
        position = 0
        for iid in calib:
            f = fillers[iid][0]
            row = _base(by_id[iid], pid, "qa")
            row.update(position=position, kind="calibration", question=f["question"],
                       answers=list(ANSWERS), correct_answer=f["answer"],
                       question_category="filler", template=f["template"],
                       argument=f["argument"])
            rows.append(row)
            position += 1
        for kind, iid in trials:
            item = by_id[iid]
            row = _base(item, pid, "qa")
            if kind == "target":
                row.update(question=target_question(item),
                           correct_answer=GENDER_ANSWER.get(item.get("pronoun_gender") or "", "unknown"),
                           question_category=question_category(item), template="gender",
                           argument=item.get("main_entity"))
            else:
                f = prng.choice(fillers[iid])
                row.update(question=f["question"], correct_answer=f["answer"],
                           question_category="filler", template=f["template"],
                           argument=f["argument"])
            row.update(position=position, kind=kind, alpha=alphas[iid], answers=list(ANSWERS))
            rows.append(row)
            position += 1
    return rows


def maze_plan(items: list[dict], distractors: dict[str, list], participants: int, seed: int,
              per_participant: int = 10) -> list[dict]:
    """Plan rows of the Maze experiment (see the module docstring)."""
    if participants < 1 or per_participant < 1:
        raise PlanError("--participants and --items must be at least 1")
    eligible = sorted(it["id"] for it in items if it.get("maze_eligible"))
    if not eligible:
        raise PlanError("the benchmark has no Maze-eligible items (maze_eligible is false "
                        "everywhere): the Maze needs the pronoun after its antecedent")
    by_id = {it["id"]: it for it in items}
    rng = random.Random(seed)
    order = list(eligible)
    rng.shuffle(order)
    rows = []
    for p in range(participants):
        pid = participant_id(p)
        chosen = _windows(order, per_participant, p)
        prng = random.Random(f"{seed}:{pid}")
        prng.shuffle(chosen)
        for position, iid in enumerate(chosen):
            item = by_id[iid]
            row = _base(item, pid, "maze")
            ds = list(distractors[iid])
            if len(ds) != len(row["tokens"]):
                raise PlanError(f"{iid}: {len(ds)} distractors for {len(row['tokens'])} words")
            if row["pronoun_index"] is None or row["pronoun_index"] == 0:
                raise PlanError(f"{iid}: the pronoun must be a word after the first")
            sides = [None] + [prng.choice(("left", "right")) for _ in ds[1:]]
            row.update(position=position, kind="maze", distractors=ds, sides=sides)
            rows.append(row)
    return rows
