"""The pure CDA core with PREDICTED tags: "her" decided by tag, parse and the two rules."""

from __future__ import annotations

from pipeline.cda.core.augment import NameIndex, augment_words, her_tag


def run(words, tags, deps):
    new, counts = augment_words(words.split(), tags.split(), "acda", NameIndex({"Anna"}), None, deps.split())
    return " ".join(new), counts


def test_dependency_label_decides_her():
    out, c = run("Anna saw her hat", "NNP VBD PRP NN", "nsubj ROOT poss dobj")
    assert out == "E1 saw his hat" and c.her_to_his == 1 and c.names == 1
    out, c = run("Anna saw her .", "NNP VBD PRP$ .", "nsubj ROOT dobj punct")
    assert out == "E1 saw him ." and c.her_to_him == 1


def test_possessive_needs_a_noun_phrase_after_it():
    assert her_tag("the story about her anyways .".split(), "DT NN IN PRP$ RB .".split(), 3) == "PRP"
    assert her_tag("about her old house".split(), "IN PRP$ JJ NN".split(), 1) == "PRP$"


def test_verbs_with_two_objects():
    assert her_tag("and gave her money .".split(), "CC VBD PRP$ NN .".split(), 2) == "PRP"
    assert her_tag("and charged her 1000 dollars".split(), "CC VBD PRP$ CD NNS".split(), 2) == "PRP"
    assert her_tag("and took her money .".split(), "CC VBD PRP$ NN .".split(), 2) == "PRP$"


def test_italics_markers_are_skipped():
    words = "character . _ her _ mind was".split()
    assert her_tag(words, "NN . NFP PRP NFP NN VBD".split(), 3) == "PRP$"
    assert her_tag("she left her _ material _ part".split(), "PRP VBD PRP$ NFP JJ NFP NN".split(), 2) == "PRP$"


def test_file_tags_are_used_as_they_are():
    new, c = augment_words(["gave", "her", "money"], ["VBD", "PRP$", "NN"], "acda", NameIndex(set()))
    assert new == ["gave", "his", "money"]      # no deps: the file's tags are trusted
