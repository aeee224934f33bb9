"""predict (pipeline.systems.run + the predict command) and evaluate with systems run on the fly,
native layouts, answers.parquet, --report, --write-jsonlines; on hand-written quadruples and a
test adapter registered through the registry (as a user's package would)."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from pipeline.cli import main
from pipeline.formats.gap_tsv import write_gap_tsv
from pipeline.systems.registry import systems
from tests.stages.test_evaluate_systems import dataset_rows, mention, oracle_clusters, tokens_of, write_jsonl

CALLS = []


@systems.register("test-oracle")
class OracleAdapter:
    """Clusters = gold (read from the texts by their names); crashes on texts holding 'Harriet'
    (the swap-2 variants), fails a whole batch that holds one, as libraries do."""

    def __init__(self, model, device="cpu", batch_size=8):
        self.model = model

    def predict(self, texts):
        CALLS.append(len(texts))
        if any("Harriet" in t for t in texts):
            raise RuntimeError("out of memory on Harriet")
        out = []
        for t in texts:
            rows = [r for r in dataset_rows() if r["Text"] == t]
            r = rows[0]
            p = (r["Pronoun-offset"], r["Pronoun-offset"] + len(r["Pronoun"]))
            cand = (r["A-offset"], r["A-offset"] + len(r["A"])) if r["A-coref"] else (r["B-offset"], r["B-offset"] + len(r["B"]))
            out.append([[cand, p]])
        return out


@pytest.fixture
def data(tmp_path):
    path = tmp_path / "quadruples.tsv"
    write_gap_tsv(dataset_rows(), path)
    return path


def test_predict_writes_clusters_answers_and_resumes(tmp_path, data, capsys):
    CALLS.clear()
    out = tmp_path / "pred"
    assert main(["predict", "--dataset", str(data), "--system", "o=test-oracle:m", "--out", str(out),
                 "--batch-size", "3", "--no-progress"]) == 0
    said = capsys.readouterr().out
    assert "6/8 documents answered" in said and "2 failed, recorded as unanswered" in said
    docs = [json.loads(ln) for ln in (out / "o.jsonl").read_text().splitlines()]
    assert len(docs) == 8 and sum(d["error"] is not None for d in docs) == 2
    d0 = docs[0]
    assert [d0["text"][s:e] for s, e in d0["clusters"][0]] == ["Darcy", "he"]
    # the GAP answers: no header line, unanswered rows left out
    tsv = (out / "o.tsv").read_text().splitlines()
    assert len(tsv) == 6 and tsv[0] == "0\tTRUE\tFALSE"
    ans = pd.read_parquet(out / "answers.parquet")
    assert list(ans.columns[:6]) == ["id", "system", "quadruple_id", "variant", "gender", "answer"]
    failed = ans[~ans["answered"]]
    assert set(failed["variant"]) == {"swap-2"} and failed["error"].str.contains("Harriet").all()
    assert not failed["correct"].any() and ans[ans["answered"]]["correct"].all()
    assert set(ans["gender"]) == {"masculine", "feminine"}
    # resumed: nothing is run again (the failures are cached too) unless --retry-failed
    CALLS.clear()
    assert main(["predict", "--dataset", str(data), "--system", "o=test-oracle:m", "--out", str(out),
                 "--no-progress"]) == 0
    assert CALLS == [] and "(8 from the cache)" in capsys.readouterr().out
    assert main(["predict", "--dataset", str(data), "--system", "o=test-oracle:m", "--out", str(out),
                 "--no-progress", "--retry-failed"]) == 0
    assert CALLS == [2, 1, 1]          # the batch fails, then one document at a time
    # another model under the same name: the cache is not reused
    CALLS.clear()
    assert main(["predict", "--dataset", str(data), "--system", "o=test-oracle:other", "--out", str(out),
                 "--no-progress"]) == 0
    assert sum(CALLS) >= 8


def test_evaluate_runs_a_system_on_the_fly_with_report(tmp_path, data, capsys):
    out = tmp_path / "ev"
    assert main(["evaluate", "--dataset", str(data), "--system", "o=test-oracle", "--out", str(out),
                 "--resamples", "100", "--report"]) == 0
    said = capsys.readouterr().out
    m = json.loads((out / "metrics.json").read_text())["o"]
    assert m["n_failed"] == 2 and m["acc_overall"] == 6 / 8
    assert "2 document(s) the system failed on, counted as wrong" in said
    # two quadruples cannot reach p < 0.01 with any test: no star, and the output says why
    row = next(ln for ln in said.splitlines() if ln.startswith("| o |"))
    assert "*" not in row and "cannot reach p < 0.01" in said and m["testable"] is False
    ans = pd.read_parquet(out / "answers.parquet")
    assert len(ans) == 8 and ans["correct"].sum() == 6
    assert (out / "predictions" / "o.jsonl").exists()
    page = (out / "report.md").read_text()
    assert "## Inconsistent quadruples" in page and "2 quadruple(s) answered inconsistently" in page
    assert "≠" in page and "Acc_Diff" in page
    html = (out / "report.html").read_text()
    assert html.startswith("<!doctype html>") and "data:image/png;base64," in html


@pytest.mark.slow
def test_native_layouts_are_accepted(tmp_path, data):
    rows = dataset_rows()

    def gold_chars(r):
        p = [r["Pronoun-offset"], r["Pronoun-offset"] + len(r["Pronoun"])]
        c = (r["A-offset"], r["A"]) if r["A-coref"] else (r["B-offset"], r["B"])
        return [[c[0], c[0] + len(c[1])], p]

    layouts = {
        # fastcoref: text + character clusters, end exclusive
        "fastcoref": [{"doc_key": r["ID"], "text": r["Text"], "clusters": [gold_chars(r)]} for r in rows],
        # Maverick, plain-text input: character offsets END INCLUSIVE, no doc key (order)
        "maverick-chars": [{"text": r["Text"], "clusters_char_offsets": [[[s, e - 1] for s, e in gold_chars(r)]],
                            "clusters_token_offsets": None} for r in rows],
        # Maverick, token input: tokens + clusters_token_offsets; doc keys with "nw:"
        "maverick-tokens": [{"doc_key": f"nw:{r['ID']}", "tokens": tokens_of(r["Text"]),
                             "clusters_token_offsets": oracle_clusters(r)} for r in rows],
    }
    for name, objs in layouts.items():
        path = write_jsonl(tmp_path / f"{name}.jsonl", objs)
        out = tmp_path / name
        assert main(["evaluate", "--dataset", str(data), "--system", f"s={path}", "--out", str(out),
                     "--resamples", "0"]) == 0, name
        m = json.loads((out / "metrics.json").read_text())["s"]
        assert m["acc_overall"] == 1.0 and m["n_unaligned"] == 0, name


def test_write_jsonlines_c2f_layout_round_trip(tmp_path, data):
    """The exported c2f GAP layout, with its gold clusters as predicted_clusters, scores 100 %;
    WordPiece subtokens without a subtoken_map (c2f's GAP script with a vocabulary) too."""
    path = tmp_path / "c2f.jsonlines"
    assert main(["evaluate", "--dataset", str(data), "--write-jsonlines", str(path)]) == 0
    objs = [json.loads(ln) for ln in path.read_text().splitlines()]
    o = objs[0]
    assert set(o) >= {"doc_key", "sentences", "speakers", "sentence_map", "clusters", "a_subtoken_span",
                      "b_subtoken_span", "pronoun_subtoken_span"}
    toks = o["sentences"][0]
    assert toks[o["pronoun_subtoken_span"][0]] == "he" and toks[:3] == ["\u201cWell", ",", "\u201d"]
    for obj in objs:
        obj["predicted_clusters"] = obj["clusters"]
    write_jsonl(path, objs)
    assert main(["evaluate", "--dataset", str(data), "--system", f"s={path}", "--out", str(tmp_path / "o"),
                 "--resamples", "0"]) == 0
    assert json.loads((tmp_path / "o" / "metrics.json").read_text())["s"]["acc_overall"] == 1.0
    # WordPiece: [CLS] ... [SEP], "##" continuations, no subtoken_map
    for obj in objs:
        words = obj["sentences"][0]
        sub, first = ["[CLS]"], []
        for w in words:
            first.append(len(sub))
            sub += [w[:2], "##" + w[2:]] if len(w) > 3 else [w]
        sub.append("[SEP]")
        last = [first[i + 1] - 1 if i + 1 < len(first) else len(sub) - 2 for i in range(len(words))]
        obj["sentences"] = [sub]
        obj["predicted_clusters"] = [[[first[s], last[e]] for s, e in c] for c in obj["clusters"]]
    write_jsonl(path, objs)
    assert main(["evaluate", "--dataset", str(data), "--system", f"s={path}", "--out", str(tmp_path / "w"),
                 "--resamples", "0"]) == 0
    assert json.loads((tmp_path / "w" / "metrics.json").read_text())["s"]["acc_overall"] == 1.0


def test_answers_parquet_of_evaluate_matches_the_system_file(tmp_path, data):
    rows = dataset_rows()
    lines = "".join(f"{r['ID']}\t{'TRUE' if k % 3 == 0 else 'FALSE'}\tFALSE\n" for k, r in enumerate(rows))
    (tmp_path / "s.tsv").write_text(lines)                   # headerless, as GAP's scorer reads
    assert main(["evaluate", "--dataset", str(data), "--system", f"s={tmp_path / 's.tsv'}",
                 "--out", str(tmp_path / "o"), "--resamples", "0"]) == 0
    ans = pd.read_parquet(tmp_path / "o" / "answers.parquet").set_index("id")
    m = json.loads((tmp_path / "o" / "metrics.json").read_text())["s"]
    for k, r in enumerate(rows):
        a = ans.loc[r["ID"]]
        assert a["answer"] == ("A" if k % 3 == 0 else "neither")
        assert a["gold"] == ("A" if r["A-coref"] else "B")
        assert a["correct"] == (a["answer"] == a["gold"])
    assert ans["correct"].mean() == m["acc_overall"]


@systems.register("test-first-name")
class FirstNameAdapter:
    """The pronoun goes with the first capitalised word ("The developer" -> "The")."""

    def __init__(self, model, device="cpu", batch_size=8):
        pass

    def predict(self, texts):
        import re

        out = []
        for t in texts:
            pron = re.search(r"\b(he|she|him|her|they)\b", t)
            first = re.search(r"\b[A-Z]\w*", t)
            out.append([[first.span(), pron.span()]] if pron and first else [])
        return out


@pytest.mark.slow
def test_predict_on_a_benchmark_and_on_sowinobias(tmp_path):
    from tests.humans.test_benchmark_command import ANTI, PRO
    from tests.lang.test_benchmarks import write_winobias

    wb = tmp_path / "wb"
    wb.mkdir()
    write_winobias(wb, PRO, ANTI)
    assert main(["benchmark", "--source", "winobias", "--path", str(wb), "--out", str(tmp_path / "b")]) == 0
    bench = tmp_path / "b" / "benchmark.parquet"
    assert main(["predict", "--dataset", str(bench), "--system", "f=test-first-name", "--out",
                 str(tmp_path / "pb"), "--no-progress"]) == 0
    ans = pd.read_parquet(tmp_path / "pb" / "answers.parquet")
    assert json.loads((tmp_path / "pb" / "predict.json").read_text())["kind"] == "benchmark"
    assert set(ans["variant"]) <= {"pro", "anti"} and set(ans["gold"]) == {"A"} and ans["answered"].all()
    # "[The developer] argued ... because [he]": the first capitalised word is inside A
    assert (ans["answer"] == "A").sum() >= 2
    # the cluster file scores on the benchmark through evaluate
    assert main(["evaluate", "--dataset", str(bench), "--system", f"f={tmp_path / 'pb' / 'f.jsonl'}",
                 "--out", str(tmp_path / "eb"), "--resamples", "50"]) == 0
    ev = pd.read_parquet(tmp_path / "eb" / "answers.parquet").set_index("id")
    assert (ev.loc[ans["id"], "answer"].to_numpy() == ans["answer"].to_numpy()).all()

    assert main(["sowinobias", "--out", str(tmp_path / "sw"), "--sample", "8", "--seed", "0", "--resamples", "50"]) == 0
    sw = next(p for p in (tmp_path / "sw").iterdir() if p.name.endswith(".parquet") and "sowino" in p.name)
    assert main(["predict", "--dataset", str(sw), "--system", "f=test-first-name", "--out",
                 str(tmp_path / "ps"), "--no-progress"]) == 0
    ans = pd.read_parquet(tmp_path / "ps" / "answers.parquet")
    assert set(ans["variant"]) == {"pro", "anti"} and set(ans["gold"]) == {"B"}
    assert ans["quadruple_id"].str.startswith("sowino-").all() and len(ans) == 2 * ans["quadruple_id"].nunique()
    # "The guard liked the nurse because they ...": "The" is outside A ("guard"): neither, wrong
    assert (ans["answer"] == "neither").all() and not ans["correct"].any()


def test_write_jsonlines_with_a_bert_vocabulary(tmp_path, data):
    """With a vocab.txt: WordPiece subtokens in [CLS] ... [SEP], as c2f-coref's predict.py reads
    them; its own clusters as predictions score 100 % (no subtoken_map needed)."""
    import re

    from pipeline.formats.c2f import wordpiece

    words = set()
    for r in dataset_rows():
        words |= set(re.findall(r"\w+|[^\w\s]", r["Text"]))
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]"] + sorted(w for w in words if len(w) <= 4)
    vocab += sorted({w[:3] for w in words if len(w) > 4} | {"##" + w[3:] for w in words if len(w) > 4})
    (tmp_path / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    assert wordpiece("Darcy,", set(vocab)) == ["Dar", "##cy", ","]
    assert wordpiece("Zzz", set(vocab)) == ["[UNK]"]
    path = tmp_path / "c2f.jsonlines"
    assert main(["evaluate", "--dataset", str(data), "--write-jsonlines", str(path),
                 "--jsonlines-vocab", str(tmp_path / "vocab.txt")]) == 0
    objs = [json.loads(ln) for ln in path.read_text().splitlines()]
    sub = objs[0]["sentences"][0]
    assert sub[0] == "[CLS]" and sub[-1] == "[SEP]" and "##cy" in sub
    assert len(objs[0]["speakers"][0]) == len(sub) == len(objs[0]["sentence_map"])
    p = objs[0]["pronoun_subtoken_span"]
    assert sub[p[0]:p[1] + 1] == ["he"]
    for obj in objs:
        obj["predicted_clusters"] = obj["clusters"]
    write_jsonl(path, objs)
    assert main(["evaluate", "--dataset", str(data), "--system", f"s={path}", "--out", str(tmp_path / "o"),
                 "--resamples", "0"]) == 0
    assert json.loads((tmp_path / "o" / "metrics.json").read_text())["s"]["acc_overall"] == 1.0


def test_predict_from_python_with_its_settings(tmp_path, data, capsys):
    """The predict run takes typed settings, no Namespace (issue 47 item 2): the same files as
    the command, a RunResult naming its output and counts; bad settings are one InputError line
    when built."""
    from pipeline.errors import InputError
    from pipeline.runs.predict import PredictSettings, predict
    from pipeline.runs.settings import RunResult

    assert main(["predict", "--dataset", str(data), "--system", "o=test-oracle:m", "--out", str(tmp_path / "cli"),
                 "--no-progress"]) == 0
    s = PredictSettings(dataset=str(data), systems=["o=test-oracle:m"], out=tmp_path / "py", progress=False)
    assert s.dataset == data and s.systems[0].adapter == "test-oracle"
    result = predict(s)
    assert isinstance(result, RunResult) and result.status == 0 and result.outputs == (s.out,)
    assert result.settings == {} and result.summary["systems"]["o"]["n_answered"] == 6 == result.summary["n_rows"] - 2
    for name in ("o.jsonl", "o.tsv"):
        assert (tmp_path / "py" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes(), name
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "py" / "answers.parquet"),
                                  pd.read_parquet(tmp_path / "cli" / "answers.parquet"))
    for bad, message in [({"systems": ["o=test-oracle", "o=test-oracle:m"]}, "given more than once: o"),
                         ({"systems": ["o=test-oracle"], "batch_size": 0}, "--batch-size must be >= 1, got 0"),
                         ({"systems": ["oops"]}, "expects NAME=ADAPTER"),
                         ({"systems": ["o=test-oracle"], "device": "tpu"}, "--device must be one of")]:
        with pytest.raises(InputError, match=message):
            PredictSettings(dataset=data, out=tmp_path / "x", **bad)
