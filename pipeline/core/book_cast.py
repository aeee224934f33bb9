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

May import: :mod:`pipeline.lang`, :mod:`pipeline.vocab`, the standard library.
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
