"""Test clients of the local web apps (a helper module, not a test module)."""

from __future__ import annotations

import re


def page_client(app):
    """A Flask test client that has opened the app's page, as a browser does first: it keeps
    the signed session cookie and sends the page's CSRF token with every request (``X-CSRF-Token``)."""
    client = app.test_client()
    page = client.get("/").get_data(as_text=True)
    m = re.search(r'<meta name="csrf-token" content="([^"]+)">', page)
    assert m, "the page carries no CSRF token"
    client.environ_base["HTTP_X_CSRF_TOKEN"] = m.group(1)
    return client
