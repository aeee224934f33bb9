"""Adapters' conversion code (pipeline.systems.*).

Which library runs for real here, and which is tested on recorded structures:

* spaCy: REAL -- a pipeline built by the test (blank English + a component writing
  ``doc.spans["coref_clusters_N"]`` as spacy-experimental's coref does) is saved to disk and
  loaded by the adapter through ``spacy.load``; coreferee's ``doc._.coref_chains`` are
  recorded structures (objects with ``token_indexes``);
* xrenner: REAL in tests/systems/test_xrenner.py (skips when xrenner is not installed); here
  its output parser on output recorded from xrenner 2.2.1.1;
* command: REAL -- an external Python program run by the adapter;
* fastcoref, Maverick, AllenNLP: recorded structures (the libraries' documented return values:
  ``CorefResult.get_clusters(as_strings=False)``, Maverick's ``predict`` dict, AllenNLP's
  ``predict`` dict); the adapters' constructors are tested for the missing-extra error.
"""

from __future__ import annotations

import sys
import textwrap

import pytest

from pipeline.errors import InputError
from pipeline.systems.base import MissingExtra, clusters_from_tokens, parse_spec

TEXT = "Anna told Bella that her mother called."
#       0    5    10    16   21  25     32


def test_parse_spec():
    s = parse_spec("fc=fastcoref:/models/f-coref")
    assert (s.name, s.adapter, s.model) == ("fc", "fastcoref", "/models/f-coref")
    assert parse_spec("x=xrenner").model is None
    c = parse_spec("c2f=command:python run.py {input} {output}")
    assert c.adapter == "command" and c.model == "python run.py {input} {output}"
    from pipeline.errors import InputError

    with pytest.raises(InputError, match="--system expects NAME=ADAPTER"):
        parse_spec("no-equals-sign")


class _FastcorefResult:          # recorded: fastcoref's CorefResult API
    def __init__(self, clusters):
        self._clusters = clusters

    def get_clusters(self, as_strings=True):
        assert as_strings is False
        return self._clusters


def test_fastcoref_character_offsets_end_exclusive():
    from pipeline.systems.fastcoref import convert

    got = convert(TEXT, _FastcorefResult([[(10, 15), (21, 24)]]))
    assert got == [[(10, 15), (21, 24)]] and TEXT[10:15] == "Bella" and TEXT[21:24] == "her"


def test_maverick_char_offsets_are_end_inclusive_and_token_offsets_align():
    from pipeline.systems.maverick import convert

    recorded = {"tokens": ["Anna", "told", "Bella", "that", "her", "mother", "called", "."],
                "clusters_token_offsets": [[(2, 2), (4, 4)]],
                "clusters_char_offsets": [[(10, 14), (21, 23)]],
                "clusters_text_mentions": [["Bella", "her"]]}
    assert convert(TEXT, recorded) == [[(10, 15), (21, 24)]]
    recorded["clusters_char_offsets"] = None          # word-tokenized input: token offsets only
    assert convert(TEXT, recorded) == [[(10, 15), (21, 24)]]


def test_allennlp_token_clusters_aligned_with_the_text():
    from pipeline.systems.allennlp import convert

    recorded = {"document": ["Anna", "told", "Bella", "that", "her", "mother", "called", "."],
                "clusters": [[[0, 0], [4, 4]], [[4, 5], [0, 0]]]}
    assert convert(TEXT, recorded) == [[(0, 4), (21, 24)], [(0, 4), (21, 31)]]


def test_clusters_from_tokens_survives_retokenization():
    got = clusters_from_tokens("Mr. Bennet smiled; he left.", ["Mr", ".", "Bennet", "smiled", ";", "he", "left", "."],
                               [[[0, 2], [5, 5]]])
    assert got == [[(0, 10), (19, 21)]]


def _coref_pipeline(tmp_path):
    """A real spaCy pipeline on disk whose component writes coreference span groups."""
    import spacy
    from spacy.language import Language

    name = "test_fake_coref"
    if name not in Language.factories:
        @Language.component(name)
        def fake_coref(doc):
            words = {t.text: t for t in doc}
            if "her" in words and "Bella" in words:
                doc.spans["coref_clusters_1"] = [doc[words["Bella"].i:words["Bella"].i + 1],
                                                 doc[words["her"].i:words["her"].i + 1]]
            return doc
    nlp = spacy.blank("en")
    nlp.add_pipe(name)
    nlp.to_disk(tmp_path / "coref_model")
    return tmp_path / "coref_model"


def test_spacy_adapter_loads_a_local_pipeline_and_reads_span_groups(tmp_path):
    from pipeline.systems.spacy_coref import SpacyCorefAdapter

    path = _coref_pipeline(tmp_path)
    adapter = SpacyCorefAdapter(str(path), batch_size=2)
    assert adapter.predict([TEXT, "Nobody came."]) == [[[(10, 15), (21, 24)]], []]


def test_spacy_adapter_refuses_a_pipeline_without_coreference(tmp_path):
    import spacy

    from pipeline.systems.spacy_coref import SpacyCorefAdapter

    spacy.blank("en").to_disk(tmp_path / "plain")
    with pytest.raises(InputError, match="no coreference component"):
        SpacyCorefAdapter(str(tmp_path / "plain"))
    with pytest.raises(InputError, match="cannot load"):
        SpacyCorefAdapter(str(tmp_path / "absent"))


def test_spacy_convert_reads_coreferee_chains():
    """Recorded: coreferee's doc._.coref_chains (chains of mentions with token_indexes)."""
    import spacy
    from spacy.tokens import Doc

    from pipeline.systems.spacy_coref import convert

    class Mention:
        def __init__(self, *idx):
            self.token_indexes = list(idx)

    nlp = spacy.blank("en")
    doc = nlp("Anna and Bella said they would come.")
    if not Doc.has_extension("coref_chains"):
        Doc.set_extension("coref_chains", default=None)
    doc._.coref_chains = [[Mention(0, 2), Mention(4)]]
    assert convert(doc) == [[(0, 14), (20, 24)]]


def test_missing_libraries_name_their_extra():
    from pipeline.systems.registry import make_adapter

    for adapter, extra in (("fastcoref", "fastcoref"), ("maverick", "maverick"), ("allennlp", "allennlp")):
        if _installed(adapter):
            continue
        with pytest.raises(MissingExtra, match=rf"pip install 'counter-gap\[{extra}\]'"):
            make_adapter(parse_spec(f"s={adapter}:/nowhere"))
    with pytest.raises(InputError, match="unknown system adapter 'nope'.*xrenner"):
        make_adapter(parse_spec("s=nope"))


def _installed(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


def test_registry_takes_a_users_adapter():
    from pipeline.systems.registry import adapter_names, is_adapter, make_adapter, systems

    @systems.register("test-upper")
    class Upper:
        def __init__(self, model, device="cpu", batch_size=8):
            self.model = model

        def predict(self, texts):
            return [[] for _ in texts]

    assert "test-upper" in adapter_names() and is_adapter("xrenner")
    a = make_adapter(parse_spec("u=test-upper:m1"))
    assert isinstance(a, Upper) and a.model == "m1"


PROGRAM = textwrap.dedent('''
    import json, sys
    src, dst = sys.argv[1], sys.argv[2]
    with open(src) as fh, open(dst, "w") as out:
        for line in fh:
            d = json.loads(line)
            if "CRASH" in d["text"]:
                continue                       # the program skips a document
            toks = d["tokens"]
            idx = [i for i, t in enumerate(toks) if t in ("Bella", "her")]
            out.write(json.dumps({"doc_key": "nw/" + d["doc_key"], "sentences": [toks],
                                  "predicted_clusters": [[[i, i] for i in idx]] if len(idx) == 2 else []}) + "\\n")
''')


def test_command_adapter_runs_an_external_program(tmp_path):
    from pipeline.systems.command import CommandAdapter

    prog = tmp_path / "prog.py"
    prog.write_text(PROGRAM)
    adapter = CommandAdapter(f"{sys.executable} {prog} {{input}} {{output}}")
    got = adapter.predict([TEXT, "CRASH here.", "Nobody came."])
    assert got[0] == [[(10, 15), (21, 24)]] and got[2] == []
    assert isinstance(got[1], RuntimeError) and "no document doc1" in str(got[1])
    failing = CommandAdapter(f"{sys.executable} -c 'import sys; sys.exit(3)'")
    with pytest.raises(RuntimeError, match="status 3"):
        failing.predict([TEXT])


def test_xrenner_output_parser_on_recorded_output():
    """Recorded from xrenner 2.2.1.1 (``analyze(conllu, "conll")``): index, word, brackets."""
    from pipeline.systems.xrenner import clusters_from_output

    text = "Lydia admired Captain Carter, and her hope of seeing him."
    words = ["Lydia", "admired", "Captain", "Carter", ",", "and", "her", "hope", "of", "seeing", "him", "."]
    spans, pos = [], 0
    for w in words:
        pos = text.index(w, pos)
        spans.append((pos, pos + len(w)))
        pos += len(w)
    marks = ["(14)", "_", "(17", "17)", "_", "_", "(14)", "", "_", "_", "(17)", "_"]
    output = "# begin document doc\n" + "".join(f"{i}\t{w}\t{m}\n" for i, (w, m) in enumerate(zip(words, marks)))
    output += "# end document\n"
    got = clusters_from_output(output, spans, text)
    her, him = text.index("her"), text.index("him")
    assert got == [[(0, 5), (her, her + 3)], [(14, 28), (him, him + 3)]]
    with pytest.raises(ValueError, match="tokens"):
        clusters_from_output(output, spans[:-1], text)


def test_an_installed_packages_entry_point_adds_an_adapter(tmp_path):
    """The documented way: an entry point in the group counter_gap_systems of the user's
    package (here a package 'installed' by a .dist-info directory on sys.path)."""
    from pipeline.systems.registry import ENTRY_POINT_GROUP, is_adapter

    (tmp_path / "my_coref_pkg.py").write_text(textwrap.dedent('''
        class Mine:
            def __init__(self, model, device="cpu", batch_size=8):
                self.model = model
            def predict(self, texts):
                return [[] for _ in texts]
    '''))
    info = tmp_path / "my_coref_pkg-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: my-coref-pkg\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\nmine = my_coref_pkg:Mine\n")
    # catalogue reads the installed entry points when it is imported: a fresh process, as a user's
    import os
    import subprocess

    code = ("from pipeline.systems.registry import is_adapter, make_adapter; "
            "from pipeline.systems.base import parse_spec; "
            "a = make_adapter(parse_spec('m=mine:/my/model')); "
            "print(is_adapter('mine'), type(a).__name__, a.model, a.predict(['x']))")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert out.stdout.split() == ["True", "Mine", "/my/model", "[[]]"]
    assert not is_adapter("mine")          # this process started before the package existed
