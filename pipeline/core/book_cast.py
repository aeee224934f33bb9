"""One book's cast as extract decided it: what later stages ask about the book's people.

Extract decides who is a person in a book with the book's evidence
(:mod:`pipeline.lang.book_evidence`, stored as ``evidence.parquet``) and records every person
mention it found (``mentions.parquet``). :class:`BookCast` holds both for one book, so a stage
that sees only a window of the book (generate's re-check, the annotation export) asks the
book, not the window: is this form one of the book's people, and of which gender. It never
re-decides a gender from an isolated text.

A *form* is a word of a name as written, without its title ("Vronsky", "Laurie"). A form is a
member of the cast when extract found it as a person at least :data:`MIN_MENTIONS` times in
the book, when the book's evidence shows it to be a person (speech verbs, titles, appositions:
:meth:`BookEvidence.is_person`), or when the book titles it ("Mr. Bucket").

May import: :mod:`pipeline.lang`, :mod:`pipeline.vocab`, :mod:`pipeline.core.cast` (the person rules, for
:func:`explain_occurrences`), the standard library.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from pipeline.lang.names import any_title

# a form extract found as a person this often in the book is a member of its cast: a single
# stray mention (NER reading "Hark" as a name once) is not
MIN_MENTIONS = 2


@dataclass
class BookCast:
    """The persons extract found in one book (``forms``: form -> gender -> mentions) and the
    book's evidence (``evidence``: a :class:`pipeline.lang.book_evidence.BookEvidence`, or
    None when the run stored none)."""

    book_id: str
    evidence: object = None
    forms: dict[str, Counter] = field(default_factory=dict)

    @classmethod
    def from_mentions(cls, book_id: str, evidence, mentions: list[dict]) -> "BookCast":
        """A cast from extract's ``MENTIONS`` rows of the book (``kind`` name; ``text`` with
        its title, ``title``, ``gender``)."""
        forms: dict[str, Counter] = defaultdict(Counter)
        for m in mentions:
            if m.get("kind", "name") != "name":
                continue
            for w in name_words(m["text"], m.get("title") or ""):
                forms[w][m.get("gender") or ""] += 1
        return cls(book_id, evidence, dict(forms))

    def mentions_of(self, form: str) -> int:
        return sum(self.forms.get(form, Counter()).values())

    def is_member(self, form: str) -> bool:
        """Whether the book shows ``form`` (one word, no title) to be one of its people."""
        if self.mentions_of(form) >= MIN_MENTIONS:
            return True
        ev = self.evidence
        if ev is None:
            return False
        if ev.is_person(form):
            return True
        fe = ev.forms.get(form)
        return bool(fe is not None and sum(fe.titled.values()) and ev.proper(form))

    def member_in(self, name: str, title: str = "") -> str | None:
        """The first word of the mention ``name`` (its title given apart or as its first word)
        that is a member of the cast, or None; a titled mention is a person whatever its
        words ("Mr. Smith")."""
        words = name_words(name, title)
        if title or (name.split() and any_title(name.split()[0])):
            return words[-1] if words else name
        for w in words:
            if self.is_member(w):
                return w
        return None

    def gender(self, form: str) -> str | None:
        """The gender extract gave ``form`` in most of its mentions, or None."""
        c = Counter({g: n for g, n in self.forms.get(form, Counter()).items() if g in ("masculine", "feminine")})
        return c.most_common(1)[0][0] if c else None

    def aliases(self, form: str) -> list[str]:
        """Other forms of the person written ``form``, as the book's alias table gives them
        (:mod:`pipeline.lang.aliases`): a given name's surname and full name ("Lucilla" ->
        "Marjoribanks", "Lucilla Marjoribanks"), a surname's given names of the form's gender."""
        table = getattr(self.evidence, "aliases", None) if self.evidence is not None else None
        if table is None or not form:
            return []
        def title_case(word: str) -> str:        # the table keeps names in lower case
            return word.title()

        key, out = form.lower(), []
        surname = table.surname_of(key)
        if surname:
            out += [title_case(surname), f"{form} {title_case(surname)}"]
        g = self.gender(form)
        for given in sorted(table.given_names(key, g or "unknown")) if key in table.by_surname else []:
            out += [title_case(given), f"{title_case(given)} {form}"]
        return [x for x in dict.fromkeys(out) if x != form]

    def person(self, form: str) -> "CastMember | None":
        """The member of the cast written ``form`` (one word, no title), or None: its gender
        (extract's), mentions, aliases and why it is a member."""
        if not self.is_member(form):
            return None
        n = self.mentions_of(form)
        why = (f"found as a person {n} times by extract" if n >= MIN_MENTIONS else
               "the book shows it to be a person" if self.evidence is not None and self.evidence.is_person(form)
               else "the book titles it")
        return CastMember(form, self.gender(form), n, self.aliases(form), why)

    def explain(self, form: str) -> dict:
        """What the book says of ``form`` and the decisions it leads to (:func:`form_facts`)."""
        return form_facts(form, self.evidence) if self.evidence is not None else {}


@dataclass(frozen=True)
class CastMember:
    """One person of a book as :meth:`BookCast.person` gives it."""
    form: str
    gender: str | None
    mentions: int
    aliases: list[str]
    why: str


def name_words(text: str, title: str = "") -> list[str]:
    """The words of a name mention without its title and possessive: "Mr. Darcy's" -> ["Darcy"]."""
    words = text.split()
    if title and words and words[0].rstrip(".") == title.rstrip("."):
        words = words[1:]
    elif words and any_title(words[0]) and len(words) > 1:
        words = words[1:]
    out = []
    for w in words:
        w = w.strip(".,;:!?\"'“”‘’()_")
        for s in ("'s", "’s"):
            if w.endswith(s):
                w = w[:-2]
        if w[:1].isupper():
            out.append(w)
    return out


# ------------------------------------------------------------------ why (``persons --explain``) --

def form_facts(form: str, evidence) -> dict:
    """What the whole book says of ``form`` and what the book-level rules decide from it:
    the counts behind the decisions (``evidence``: a ``BookEvidence``) and each decision."""
    from pipeline.lang.names import guess

    fe = evidence.forms.get(form)
    facts: dict = {
        "written capitalised": evidence.capital[form], "written in lower case": evidence.lower[form.lower()],
        "capitalised after a lower-case word or a comma": evidence.mid[form],
        "gender-guesser": "{} ({})".format(*guess(form)),
    }
    if fe is not None:
        for name, value in vars(fe).items():
            if isinstance(value, Counter):
                value = dict(value.most_common())
            facts[f"book: {name}"] = value
    g = guess(form)[0]
    facts["decision: the researcher's override (--cast)"] = evidence.override(form) or "none"
    facts["decision: a person the NER may have missed (is_person)"] = evidence.is_person(form)
    facts["decision: ... or inside a sentence (inside_sentence)"] = evidence.is_person_inside_sentence(form)
    facts["decision: a given name only spoken (speech_only)"] = evidence.speech_only[form]
    facts["decision: a spoken respelling of (spoken_spellings)"] = evidence.spoken_spellings.get(form, "none")
    facts["decision: a place of this book (is_place)"] = evidence.is_place(form)
    facts["decision: an animal of this book (is_animal)"] = evidence.is_animal(form)
    facts["decision: a family head's surname (family_head)"] = evidence.family_head(form)
    facts["decision: the book's gender"] = "{} ({})".format(*evidence.gender(form)) if evidence.gender(form) else "none"
    against = evidence.contradicts(form, g) if g in ("masculine", "feminine") else None
    if against:
        facts["decision: the book's pronouns overrule gender-guesser"] = "{} ({})".format(*against)
    model = getattr(evidence, "model", None)
    if model is not None:
        try:
            facts["model: p(person)"] = round(float(model.person(form)), 3)
            mg, mp = model.gender(form)
            facts["model: gender"] = f"{mg} ({mp:.3f})"
        except Exception as exc:            # noqa: BLE001 -- an explanation never fails on the model
            facts["model"] = f"not scored ({type(exc).__name__})"
    aliases = getattr(evidence, "aliases", None)
    if aliases is not None:
        key = form.lower()
        for name, what in (("by_given", "surnames written after it"), ("by_surname", "given names written before it"),
                           ("titled", "titles written before it alone"), ("titled_given", "titles before it as a given name")):
            got = getattr(aliases, name, {}) or {}
            if got.get(key):
                value = got[key]
                facts[f"aliases: {what}"] = dict(value.most_common(8)) if isinstance(value, Counter) else list(value)[:8]
        wives = aliases.wife_surnames(key) if hasattr(aliases, "wife_surnames") else None
        if wives:
            facts["aliases: a married woman's surnames among them"] = sorted(wives)     # "Jane" -> waule
    return facts


def explain_occurrences(doc, form: str, evidence, offset: int = 0) -> list[dict]:
    """How each occurrence of ``form`` (a whole word) in ``doc`` (NER, the person layer and
    the parse run; ``offset``: where it starts in the book text) was decided: ``at`` (book
    offset), ``sentence``, ``entity`` (the NER's label there), ``decision`` (person / no
    person / no entity) and ``why`` (the gender and its source, or the rule that refused it)."""
    from pipeline.core.cast import base_mentions, doc_mentions, not_a_person

    final = doc_mentions(doc, evidence)
    base = base_mentions(doc)
    out = []
    for tok in doc:
        if tok.text != form:
            continue
        row = {"at": offset + tok.idx, "sentence": " ".join(tok.sent.text.split())[:200],
               "entity": tok.ent_type_ or "none"}
        m = next((m for m in final if m.token_start <= tok.i < m.token_end), None)
        if m is not None:
            row.update(decision="person", why=f"{m.text!r}: {m.gender} ({m.gender_source})")
        else:
            b = next((b for b in base if b.token_start <= tok.i < b.token_end), None)
            if b is not None:
                row.update(decision="no person", why=not_a_person(doc, b, evidence) or "grouped away in context")
            elif tok.ent_type_:
                row.update(decision="no person", why=f"the NER labels it {tok.ent_type_} (a person the NER missed "
                                                     "is only added outside other entities)")
            elif evidence.is_person(form):
                row.update(decision="no person", why="no entity: the book holds it a person, but a rule of the "
                                                     "sentence refused it here")
            else:
                row.update(decision="no person", why="no entity, and the book does not show it to be a person")
        out.append(row)
    return out
