"""Shared fixtures. Tests that read ../shared skip cleanly when it is absent."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("COUNTER_GAP_SHARED", ROOT.parent / "shared"))


def pytest_collection_modifyitems(config, items):
    """The chaos set (marker ``chaos``: kill -9, concurrent runs, the seeded kills) is slow as a
    whole: ``make test-fast`` (``-m "not slow"``) leaves it out with the tests marked
    ``@pytest.mark.slow`` one by one; ``make test`` and ``make chaos`` run it."""
    for item in items:
        if item.get_closest_marker("chaos") is not None:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    if not SHARED.is_dir():
        pytest.skip(f"{SHARED} is absent (integration data lives outside the repository)")
    return SHARED


@pytest.fixture(scope="session")
def nlp():
    from pipeline.nlp import load as nlp_mod

    return nlp_mod.load()


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


# ---------------------------------------------------------------- headless Chromium --------
# Debian's chromium + chromium-driver, installed by the Makefile's test set-up (`make browser`),
# never by the tests: when either is missing the browser tests skip and say so. Selenium is
# given the driver's path and SE_OFFLINE, so Selenium Manager never downloads anything.

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage"]


@pytest.fixture(scope="session")
def chromium_paths():
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not os.access(p, os.X_OK)]
    if missing:
        pytest.skip(f"headless Chromium unavailable: {' and '.join(missing)} missing "
                    "(make browser installs Debian's chromium + chromium-driver)")
    os.environ.setdefault("SE_OFFLINE", "true")
    return CHROMIUM, CHROMEDRIVER


@pytest.fixture
def make_browser(chromium_paths, tmp_path):
    """A factory: ``make_browser(width, height)`` -> a Selenium Chrome driver, quit at the end."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    drivers = []

    def make(width: int = 1280, height: int = 1000):
        opts = webdriver.ChromeOptions()
        opts.binary_location = chromium_paths[0]
        for flag in CHROMIUM_FLAGS + [f"--window-size={width},{height}",
                                      f"--user-data-dir={tmp_path / f'chromium-profile-{len(drivers)}'}"]:
            opts.add_argument(flag)
        drv = webdriver.Chrome(service=Service(executable_path=chromium_paths[1]), options=opts)
        drv.set_page_load_timeout(30)
        drivers.append(drv)
        return drv

    yield make
    for drv in drivers:
        drv.quit()
