"""n-CDA name map: nam_dict.txt parsing, edge weights, optimality of the matching."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.cda.core import namemap as nm
from pipeline.cda.formats import name_map as nmf
from pipeline.errors import InputError

ALPHA = 12 / 11


def line(code: str, name: str, freqs: dict[int, str], marker: str = " ") -> str:
    """A dictionary line in the file's layout: code, name from column 4, sort marker in
    column 30, country digits from column 31 (country index -> digit)."""
    countries = [" "] * 55
    for i, d in freqs.items():
        countries[i] = d
    return f"{code:<3}{name:<26}{marker}{''.join(countries)} $\r\n"


def weight(u, v, alpha=ALPHA):
    """The formula, written out directly."""
    d = math.sqrt(sum((a - b) ** 2 for a, b in zip(u, v)))
    nu, nv = math.sqrt(sum(a * a for a in u)), math.sqrt(sum(b * b for b in v))
    cos = 0.0 if nu == 0 or nv == 0 else sum(a * b for a, b in zip(u, v)) / (nu * nv)
    return d * (alpha - cos)


# ---------------------------------------------------------------- parsing ---------------

def test_line_layout_and_hex_digits():
    [e] = nmf.parse_line(line("M", "Aage", {0: "7", 16: "D", 54: "A"}))
    assert e.name == "Aage" and e.code == "M" and e.cls == "male"
    assert len(e.vector) == 55
    assert e.vector[0] == 7 and e.vector[16] == 13 and e.vector[54] == 10
    assert sum(1 for x in e.vector if x) == 3 and e.total == 30


def test_codes_and_classes():
    got = {c: nmf.parse_line(line(c, "Kim", {0: "1"}))[0].cls for c in ("M", "1M", "?M", "F", "1F", "?F", "?")}
    assert got == {"M": "male", "1M": "mostly_male", "?M": "mostly_male", "F": "female",
                   "1F": "mostly_female", "?F": "mostly_female", "?": "unisex"}


def test_comments_equivalents_and_umlaut_duplicates_ignored():
    assert nmf.parse_line("# comment line\r\n") == []
    assert nmf.parse_line("=  Abe Abraham                  1       $\r\n") == []
    assert nmf.parse_line("\r\n") == []
    # the copy sorted with expanded umlauts ('+' in column 30)
    assert nmf.parse_line(line("M", "Åge", {16: "5"}, marker="+")) == []
    # the compressed-umlaut copy ('-') is kept
    assert [e.name for e in nmf.parse_line(line("M", "Åge", {16: "5"}, marker="-"))] == ["Åge"]


def test_plus_forms():
    assert nmf.expand_plus("Jun+Wei") == ["Jun-Wei", "Jun Wei", "Junwei"]
    assert nmf.expand_plus("Abd+al+Aziz") == ["Abd-al-Aziz", "Abd al Aziz", "Abdalaziz"]
    assert nmf.expand_plus("Anna") == ["Anna"]
    entries = nmf.parse_line(line("M", "Jun+Wei", {48: "4"}))
    assert [e.name for e in entries] == ["Jun-Wei", "Jun Wei", "Junwei"]
    assert len({e.vector for e in entries}) == 1


def test_duplicates_keep_largest_total_then_first():
    lines = [
        line("F", "Aafke", {10: "4"}),
        line("?", "Aafke", {11: "1"}),           # smaller: dropped
        line("?", "Robin", {0: "2"}),
        line("?M", "Robin", {0: "3", 2: "1"}),   # larger: kept
        line("M", "Toni", {3: "2"}),
        line("F", "Toni", {4: "2"}),             # tie: the first stays
        line("?", "Jun+Wei", {48: "1"}),
        line("M", "Junwei", {48: "3"}),          # beats the joined form of Jun+Wei
    ]
    d = nmf.parse_nam_dict(lines)
    assert d["Aafke"].code == "F" and d["Aafke"].line == 1
    assert d["Robin"].code == "?M" and d["Robin"].total == 4
    assert d["Toni"].code == "M"
    assert d["Junwei"].code == "M" and d["Jun-Wei"].code == "?" and d["Jun Wei"].code == "?"


def test_bad_lines_raise_input_error():
    with pytest.raises(InputError, match="unknown gender code"):
        nmf.parse_nam_dict([line("X", "Bob", {0: "1"})], path="nd.txt")
    with pytest.raises(InputError, match="row 2.*hexadecimal"):
        nmf.parse_nam_dict([line("M", "Bob", {0: "1"}), line("M", "Rob", {0: "G"})], path="nd.txt")


@pytest.mark.slow
def test_installed_dictionary():
    path = nmf.nam_dict_path()
    assert path.name == "nam_dict.txt" and path.exists()
    d = nmf.load_nam_dict()
    # header rules on the real file
    assert {"Abdel-Aziz", "Abdel Aziz", "Abdelaziz"} <= set(d)
    assert not any("+" in n for n in d)
    classes = {e.cls for e in d.values()}
    assert classes == {"male", "female", "mostly_male", "mostly_female", "unisex"}
    # every kept entry is the largest of the name's entries in the raw file
    raw: dict[str, list[int]] = {}
    with open(path, encoding="utf-8") as fh:
        for ln in fh:
            for e in nmf.parse_line(ln):
                raw.setdefault(e.name, []).append(e.total)
    assert set(raw) == set(d)
    assert all(d[n].total == max(t) for n, t in raw.items())
    # the same names as gender-guesser's own parser, up to the case of joined '+' forms
    import gender_guesser.detector as gd

    assert {n.lower() for n in d} == {n.lower() for n in gd.Detector().names}


# ---------------------------------------------------------------- weights ---------------

def test_edge_weights_match_formula():
    U = np.array([[1, 0, 0], [3, 4, 0], [0, 0, 0], [2, 2, 1]])
    V = np.array([[0, 1, 0], [3, 4, 0], [6, 8, 0], [0, 0, 0]])
    W = nm.edge_weights(U, V)
    for i, j in itertools.product(range(4), range(4)):
        assert W[i, j] == pytest.approx(weight(U[i], V[j]), rel=1e-12, abs=1e-12)
    assert W[1, 1] == 0.0                                 # identical vectors
    assert W[0, 0] == pytest.approx(math.sqrt(2) * ALPHA)  # orthogonal
    assert W[2, 3] == 0.0 and W[2, 0] == pytest.approx(1 * ALPHA)  # zero vector: cos = 0
    assert nm.edge_weights(U[:1], V[:1], alpha=2.0)[0, 0] == pytest.approx(math.sqrt(2) * 2)


# ---------------------------------------------------------------- optimality ------------

def brute_force(U, V, alpha=ALPHA) -> float:
    n = len(U)
    return min(sum(weight(U[i], V[p[i]], alpha) for i in range(n)) for p in itertools.permutations(range(n)))


vec = st.lists(st.integers(0, 3), min_size=3, max_size=3)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6).flatmap(lambda n: st.tuples(st.lists(vec, min_size=n, max_size=n),
                                                     st.lists(vec, min_size=n, max_size=n))))
def test_matching_equals_brute_force(sides):
    U, V = sides
    m = nm.match(U, V)
    assert sorted(i for i, _ in m.pairs) == list(range(len(U)))
    assert sorted(j for _, j in m.pairs) == list(range(len(V)))
    assert m.total == pytest.approx(sum(weight(U[i], V[j]) for i, j in m.pairs), rel=1e-9, abs=1e-9)
    assert m.total == pytest.approx(brute_force(U, V), rel=1e-9, abs=1e-9)


def test_matching_equals_scipy_on_random_integer_vectors():
    rng = np.random.default_rng(7)
    for n in (50, 300):
        # few distinct vectors, many repeats: the regime of the real list
        pool_u = rng.integers(0, 4, size=(n // 5, 6))
        pool_v = rng.integers(0, 4, size=(n // 4, 6))
        U = pool_u[rng.integers(0, len(pool_u), n)]
        V = pool_v[rng.integers(0, len(pool_v), n)]
        m = nm.match(U, V)
        assert m.total == pytest.approx(nm.reference_total(U, V), rel=1e-6)
        assert m.dual_violation < 1e-7 and abs(m.duality_gap) < 1e-6 * max(1.0, m.total)


@pytest.fixture(scope="module")
def entries():
    return nmf.load_nam_dict()


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_real_subsets_equal_scipy(entries, seed):
    """Random subsets of the real male and female lists: transport total == dense LSA total."""
    rng = np.random.default_rng(seed)
    males = [e for e in entries.values() if e.cls == "male"]
    females = [e for e in entries.values() if e.cls == "female"]
    n = 800
    L = [males[i] for i in rng.choice(len(males), n, replace=False)]
    R = [females[i] for i in rng.choice(len(females), n, replace=False)]
    U = np.array([e.vector for e in L])
    V = np.array([e.vector for e in R])
    m = nm.match(U, V, left_names=[e.name for e in L], right_names=[e.name for e in R])
    assert m.total == pytest.approx(nm.reference_total(U, V), rel=1e-6)
    W = nm.edge_weights(U, V)
    assert m.total == pytest.approx(sum(W[i, j] for i, j in m.pairs), rel=1e-9)


def test_mostly_pairing_equals_scipy_in_full(entries):
    [res] = nm.build_name_map(entries, pairings=[("mostly_male", "mostly_female")])
    left, right = nm.select_sides([e for e in entries.values() if e.cls == "mostly_male"],
                                  [e for e in entries.values() if e.cls == "mostly_female"])
    ref = nm.reference_total([e.vector for e in left], [e.vector for e in right])
    assert res.total == pytest.approx(ref, rel=1e-6)
    assert len(res.pairs) == min(res.n_left, res.n_right)


# ---------------------------------------------------------------- sides and the map -----

def E(name, cls, total, country=0):
    code = {"male": "M", "female": "F"}[cls]
    return nmf.NameEntry(name, code, cls, tuple(total if i == country else 0 for i in range(55)), 1)


def test_select_sides_truncates_larger_by_frequency_then_name():
    left = [E("Al", "male", 1), E("Bo", "male", 5), E("Cy", "male", 3), E("Ab", "male", 3)]
    right = [E("Di", "female", 2), E("Eve", "female", 1)]
    small, large = nm.select_sides(left, right)
    assert [e.name for e in small] == ["Bo", "Ab"]     # 5, then the tie 3/3 by name
    assert [e.name for e in large] == ["Di", "Eve"]


def test_pairing_inside_classes_is_deterministic_and_by_name():
    # all names share one vector per side: the pairing is by name order
    left = [E(n, "male", 2) for n in ("Carl", "Adam", "Bert")]
    right = [E(n, "female", 2, country=1) for n in ("Zoe", "Xena", "Yara")]
    [res] = nm.build_name_map(left + right, pairings=[("male", "female")])
    assert [(a.name, b.name) for a, b, _ in res.pairs] == [("Adam", "Xena"), ("Bert", "Yara"), ("Carl", "Zoe")]


def test_map_records_symmetric_and_complete():
    ents = [E("Al", "male", 4), E("Bo", "male", 2, 3), E("Cy", "male", 1, 5),
            E("Di", "female", 2, 3), E("Eve", "female", 4)]
    results = nm.build_name_map(ents)
    rows = nm.map_records(results)
    fwd = {r["name"]: r["partner"] for r in rows}
    assert len(rows) == 4 and len(fwd) == 4
    assert all(fwd[b] == a for a, b in fwd.items())
    assert fwd["Eve"] == "Al" and fwd["Di"] == "Bo"      # identical vectors cost 0
    assert "Cy" not in fwd                               # least frequent of the larger side


def test_write_and_read_map(tmp_path):
    ents = [E("Al", "male", 4), E("Bo", "male", 2, 3), E("Di", "female", 2, 3), E("Eve", "female", 4)]
    rows = nm.map_records(nm.build_name_map(ents))
    pq_path, tsv_path = nmf.write_map(rows, tmp_path, {"alpha": repr(ALPHA)})
    lines = tsv_path.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "name\tpartner\tclass\tweight" and len(lines) == 5
    assert nmf.read_map(pq_path) == nmf.read_map(tsv_path) == {"Al": "Eve", "Eve": "Al", "Bo": "Di", "Di": "Bo"}
    import pyarrow.parquet as pq

    from pipeline.formats.schemas import NAME_MAP
    assert pq.read_schema(pq_path).remove_metadata().equals(NAME_MAP)
    bad = tmp_path / "bad.tsv"
    bad.write_text("name\tpartner\tclass\tweight\nAl\tEve\tmale\t0\nEve\tBo\tfemale\t0\n", encoding="utf-8")
    with pytest.raises(InputError, match="not symmetric"):
        nmf.read_map(bad)


def test_cli_on_small_dictionary(tmp_path, capsys):
    from pipeline.cli import main

    nd = tmp_path / "nam_dict.txt"
    nd.write_text("".join([
        "# header\r\n",
        line("M", "Adam", {0: "5"}), line("M", "Ben", {1: "3"}), line("M", "Carl", {2: "1"}),
        line("F", "Dora", {1: "3"}), line("F", "Ella", {0: "4"}),
        line("?M", "Kim", {5: "2"}), line("?F", "Lee", {5: "2"}), line("?", "Sam", {0: "1"}),
    ]), encoding="utf-8")
    out = tmp_path / "out"
    assert main(["namemap", "--out", str(out), "--nam-dict", str(nd)]) == 0
    m = nmf.read_map(out / "name_map.parquet")
    assert m == {"Adam": "Ella", "Ella": "Adam", "Ben": "Dora", "Dora": "Ben", "Kim": "Lee", "Lee": "Kim"}
    text = capsys.readouterr().out
    assert "male - female" in text and "peak memory" in text and "total cost" in text
    assert main(["namemap", "--out", str(tmp_path / "o2"), "--nam-dict", str(tmp_path / "missing.txt")]) == 2
    assert not (tmp_path / "o2").exists()
