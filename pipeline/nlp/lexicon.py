"""The installed spaCy pipeline's word index (WordNet's lemmas by part of speech, which the
English pipelines ship in their lemmatizer's lookups) and the list of verbs the pronoun rules
read from it: base forms WordNet knows only as verbs ("perform", "weep", "suffer"), never as a
noun or an adjective. After "her", such a word is a bare infinitive and "her" its subject ("had
never known her perform" -> "known him perform", not "his perform"; read, seed 20261175), which
the tagger misses when it takes the word for a noun.

``make verbs`` writes ``resources/verb_only_words.txt`` with :func:`write_verb_only` and
``resources/verbs.txt`` (every verb lemma: a listed gendered noun the tagger calls a verb is one
when the word is no verb at all, "to spend as bridesmaid" tagged VBN) with :func:`write_verbs`;
the rules read the shipped lists (:mod:`pipeline.lang.gendered_words`), so no extract process loads the
lookups, and a test checks the lists are still what the installed pipeline gives.

May import: spacy (its lookups), :mod:`pipeline.nlp.load` (which package the pipeline is), the
standard library.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

POS = ("noun", "verb", "adj", "adv")


def lookups_dir(model: str | None = None) -> Path | None:
    """The lemmatizer lookups directory inside the installed pipeline package ``model`` (the
    default pipeline when None); None when the package ships none."""
    from pipeline.nlp.load import resolve_model_name

    spec = importlib.util.find_spec(resolve_model_name(model))
    if spec is None or spec.origin is None:
        return None
    found = sorted(Path(spec.origin).parent.glob("*/lemmatizer/lookups"))
    return found[0] if found else None


def wordnet_index(model: str | None = None) -> dict[str, frozenset[str]] | None:
    """part of speech ("noun", "verb", "adj", "adv") -> the lemmas the pipeline's
    ``lemma_index`` table lists under it; None when the pipeline has no such table."""
    from spacy.lookups import Lookups
    from spacy.strings import get_string_id

    where = lookups_dir(model)
    if where is None:
        return None
    lookups = Lookups().from_disk(where)
    if not lookups.has_table("lemma_index"):
        return None
    table = lookups.get_table("lemma_index")
    return {pos: frozenset(table.get(get_string_id(pos), ())) for pos in POS}


def verb_only(index: dict[str, frozenset[str]]) -> list[str]:
    """The lower-case one-word lemmas the index lists as verbs and as no noun or adjective,
    sorted."""
    words = index["verb"] - index["noun"] - index["adj"]
    return sorted(w for w in words if w.isalpha() and w.islower())


def wordnet_licence(model: str | None = None) -> list[str]:
    """The WordNet licence as the pipeline package states it (its LICENSES_SOURCES file, the
    fenced block under the WordNet heading): the notice that must go with every copy."""
    where = lookups_dir(model)
    sources = where.parents[1] / "LICENSES_SOURCES" if where is not None else None
    if sources is None or not sources.is_file():
        return []
    text = sources.read_text(encoding="utf-8")
    at = text.find("# WordNet")
    if at < 0:
        return []
    start = text.find("```", at)
    end = text.find("```", start + 3)
    if start < 0 or end < 0:
        return []
    return [line.rstrip() for line in text[start + 3:end].strip("\n").split("\n")]


def verbs(index: dict[str, frozenset[str]]) -> list[str]:
    """Every lower-case one-word lemma the index lists as a verb, sorted."""
    return sorted(w for w in index["verb"] if w.isalpha() and w.islower())


def write_verb_only(path: str | Path, model: str | None = None) -> int:
    """Write :func:`verb_only` of the installed pipeline to ``path`` under a header naming its
    source and licence (staged and renamed); returns how many words."""
    return _write(path, model, verb_only, "Verbs that are no noun or adjective: the lemmas WordNet 3.0 lists as verbs only")


def write_verbs(path: str | Path, model: str | None = None) -> int:
    """Write :func:`verbs` of the installed pipeline to ``path`` (as :func:`write_verb_only`)."""
    return _write(path, model, verbs, "Verbs: every one-word lemma WordNet 3.0 lists as a verb")


def _write(path: str | Path, model: str | None, select, title: str) -> int:
    import importlib.metadata

    from pipeline.nlp.load import resolve_model_name

    name = resolve_model_name(model)
    index = wordnet_index(name)
    if index is None:
        raise SystemExit(f"error: the spaCy pipeline {name} ships no lemma_index lookups table")
    words = select(index)
    version = importlib.metadata.version(name)
    header = (f"# {title}, as the spaCy\n"
              f"# pipeline {name} {version} ships WordNet's index in its lemmatizer lookups (lemma_index).\n"
              "# pipeline/nlp/lexicon.py; written by `make verbs`; do not edit by hand. The pipeline is MIT-\n"
              "# licensed; WordNet's licence, which goes with every copy, as the pipeline states it:\n#\n"
              + "".join(f"#   {line}".rstrip() + "\n" for line in wordnet_licence(name)) + "#\n")
    if not wordnet_licence(name):
        raise SystemExit(f"error: the spaCy pipeline {name} states no WordNet licence (LICENSES_SOURCES)")
    tmp = Path(path).with_suffix(".tmp")
    tmp.write_text(header + "".join(w + "\n" for w in words), encoding="utf-8")
    tmp.replace(path)
    return len(words)


if __name__ == "__main__":
    import sys

    where = Path(sys.argv[1] if len(sys.argv) > 1 else "resources")
    print(f"{write_verb_only(where / 'verb_only_words.txt'):,} verbs that are no noun -> {where / 'verb_only_words.txt'}")
    print(f"{write_verbs(where / 'verbs.txt'):,} verbs -> {where / 'verbs.txt'}")
