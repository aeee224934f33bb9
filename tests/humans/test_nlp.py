"""Filler questions from the dependency parse, on hand-written sentences."""

import re


from pipeline.humans.nlp import filler_questions, tag_words, tokens_tags


def spans(text, main, other, pronoun):
    def find(s):
        m = re.search(rf"\b{re.escape(s)}\b", text)
        return (m.start(), m.end())
    return {"main": find(main), "other": find(other) if other else None, "pronoun": find(pronoun)}


def questions(nlp, text, main, other, pronoun):
    return {(f.question, f.answer, f.template)
            for f in filler_questions(nlp(text), spans(text, main, other, pronoun))}


def test_subject_template_on_the_pronoun(nlp):
    got = questions(nlp, "The developer argued with the designer because he did not like the design.",
                    "The developer", "the designer", "he")
    assert ("What is the gender of the person who did not like the design?", "male", "subject") in got
    # the main entity (the pronoun's referent) is never asked about
    assert not any("argued" in q for q, _, _ in got)


def test_other_entity_is_unknown_and_persons_become_someone(nlp):
    got = questions(nlp, "The nurse helped the doctor because she was asked to.",
                    "the doctor", "The nurse", "she")
    assert ("What is the gender of the person who helped someone?", "unknown", "subject") in got


def test_passive_template(nlp):
    got = questions(nlp, "The janitor was questioned after the teacher said that she had lost the keys.",
                    "the teacher", "The janitor", "she")
    assert ("What is the gender of the person who was questioned?", "unknown", "passive") in got
    assert ("What is the gender of the person who had lost the keys?", "female", "subject") in got


def test_no_question_about_the_main_entity_alone(nlp):
    got = questions(nlp, "The mechanic smiled because he won.", "The mechanic", None, "he")
    assert got == {("What is the gender of the person who won?", "male", "subject")}


def test_tags_of_whitespace_tokens_and_single_words(nlp):
    text = "The clerk called the guard because she needed help."
    tags = tokens_tags(nlp(text), text.split())
    assert len(tags) == 9
    assert tags[0] == "DT" and tags[2].startswith("VB") and tags[-1] == "NN"
    assert tag_words(nlp, ["table", "quickly"]) == ["NN", "RB"]
