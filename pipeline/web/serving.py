"""Serving a Flask app on the local machine only: shared by the annotation and experiment apps.

* :func:`make_server`: a threaded werkzeug server bound to 127.0.0.1 (port 0: a free one;
  :func:`check_port` refuses anything outside 0-65535); ``server.port`` tells which.
* :func:`protect` (every request of both apps):

  - a peer address that is not loopback: 403 (a proxy in front would have to be put there on
    purpose);
  - a ``Host`` header that is not ``127.0.0.1:PORT`` or ``localhost:PORT`` of the port served:
    403. The names are Flask's ``TRUSTED_HOSTS`` (werkzeug raises ``SecurityError`` for any
    other, answered here with 403 and one sentence); werkzeug ignores the port in that check,
    so the port of ``request.host`` is compared with the one served. A page of another site
    that reaches ``127.0.0.1:PORT`` through DNS rebinding sends its own host name, so it can
    neither read passages nor post answers;
  - a request body over :data:`MAX_BODY` bytes: 413, before the body is read (Flask's
    ``MAX_CONTENT_LENGTH``, and the declared length checked first);
  - a POST without the session's CSRF token: 403. The token is drawn by the server once per
    session and kept in Flask's ``session`` (a cookie signed with the app's ``SECRET_KEY``,
    drawn at every start; HttpOnly, SameSite=Strict): :func:`csrf_token`, which the page
    templates call (``<meta name="csrf-token" content="{{ csrf_token() }}">``). The page's
    script sends it back in the ``X-CSRF-Token`` header, and it must equal the one in the
    signed session, so a cookie/header pair the client chose itself (or a session of a
    previous server process) is refused and a reload of the page gives a fresh session. A GET
    that writes (the annotation app's ``/api/next`` leases a question) is listed in
    ``app.config["CSRF_GET_PATHS"]`` and needs the token too;
  - a storage failure (a full disk, a read-only or busy database: ``sqlite3.OperationalError``,
    ``OSError``) answers 503 with one log line instead of a 500 and a traceback;
  - every response carries :data:`SECURITY_HEADERS` (a Content-Security-Policy without inline
    script, ``nosniff``, no framing, no referrer), and the server announces no version
    (``Server: counter-gap``).
* Pages are Jinja templates of each app's ``templates`` folder, rendered with Flask's
  ``render_template`` (autoescaped).
* :func:`serve_until_stopped`: serve until Ctrl-C or SIGTERM, then close the socket.

May import: the standard library, werkzeug/Flask, :mod:`pipeline.errors`.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
import signal

HOST = "127.0.0.1"
TRUSTED_HOSTS = ["127.0.0.1", "localhost"]
MAX_BODY = 1 << 20                 # 1 MiB: an answer is a few hundred bytes
SESSION_COOKIE = "counter_gap"     # + "_PORT" once served: two apps on two ports keep their own
CSRF_KEY = "csrf_token"            # the token's key in the signed session
CSRF_HEADER = "X-CSRF-Token"
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                               "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
                               "form-action 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}
SERVER_NAME = "counter-gap"


def csrf_token() -> str:
    """This session's CSRF token, drawn on first use and kept in Flask's signed session (the
    templates call it; :func:`protect` checks it)."""
    from flask import session

    token = session.get(CSRF_KEY)
    if not isinstance(token, str) or not token:
        token = session[CSRF_KEY] = secrets.token_urlsafe(32)
    return token


def check_port(port) -> int:
    """A TCP port to listen on: 0 (a free one) to 65535; anything else is bad input."""
    from pipeline.errors import InputError

    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise InputError(f"--port must be a whole number from 0 (a free port) to 65535, got {port!r}")
    return port


def make_server(app, port: int = 0):
    from werkzeug.serving import WSGIRequestHandler
    from werkzeug.serving import make_server as _make

    class Handler(WSGIRequestHandler):
        def version_string(self) -> str:          # no "Werkzeug/x Python/y" banner
            return SERVER_NAME

    check_port(port)
    server = _make(HOST, port, app, threaded=True, request_handler=Handler)
    app.config["SERVED_PORT"] = server.port
    app.config["SESSION_COOKIE_NAME"] = f"{SESSION_COOKIE}_{server.port}"
    return server


def is_loopback(address: str | None) -> bool:
    try:
        return ipaddress.ip_address((address or "").split("%")[0]).is_loopback
    except ValueError:
        return False


def protect(app, what: str) -> None:
    """Register the guards of the module doc on ``app``."""
    from flask import jsonify, request, session
    from werkzeug.exceptions import RequestEntityTooLarge, SecurityError

    app.config.update(MAX_CONTENT_LENGTH=MAX_BODY, TRUSTED_HOSTS=list(TRUSTED_HOSTS),
                      SESSION_COOKIE_HTTPONLY=True, SESSION_COOKIE_SAMESITE="Strict")
    app.config.setdefault("SESSION_COOKIE_NAME", SESSION_COOKIE)
    if "SERVED_PORT" not in app.config:
        app.config["SESSION_COOKIE_NAME"] = SESSION_COOKIE      # make_server names the port
    if not app.secret_key:
        app.secret_key = secrets.token_bytes(32)       # per server start: older sessions are void
    app.jinja_env.globals["csrf_token"] = csrf_token

    def refuse(message: str, status: int):
        return jsonify(error=f"refused: {message}"), status

    def foreign_host(served: int):
        return refuse(f"this {what} answers only to 127.0.0.1:{served} or localhost:{served} "
                      f"(Host {request.headers.get('Host')!r})", 403)

    def served_port() -> int:
        return app.config.get("SERVED_PORT") or int(request.environ.get("SERVER_PORT") or 80)

    @app.errorhandler(SecurityError)
    def _untrusted_host(exc):
        return foreign_host(served_port())

    @app.errorhandler(RequestEntityTooLarge)
    def _too_large(exc):
        return refuse(f"a request body of at most {MAX_BODY:,} bytes", 413)

    @app.errorhandler(RecursionError)
    def _too_deep(exc):
        return jsonify(error="refused: JSON nested too deeply"), 400

    import sqlite3

    @app.errorhandler(sqlite3.OperationalError)
    @app.errorhandler(OSError)
    def _storage(exc):
        # a full disk, a read-only or busy database: 503 and one log line, never a traceback
        # (nothing was stored; the page says so and the answer can be sent again)
        reason = " ".join(str(exc).split()) or type(exc).__name__
        app.logger.error("%s %s: 503, storage failed: %s", request.method, request.path, reason)
        return jsonify(error=f"the server cannot store anything now ({reason}); nothing was stored, "
                             "try again later"), 503

    @app.before_request
    def _guard():
        if not is_loopback(request.remote_addr):
            return refuse(f"this {what} serves the local machine only (request from "
                          f"{request.remote_addr})", 403)
        served = served_port()
        if isinstance(request.routing_exception, SecurityError):    # not a TRUSTED_HOSTS name
            return foreign_host(served)
        port = request.host.rpartition(":")[2] if ":" in request.host else "80"
        if port != str(served):
            return foreign_host(served)
        if (request.content_length or 0) > MAX_BODY:
            return refuse(f"a request body of at most {MAX_BODY:,} bytes", 413)
        if request.method not in SAFE_METHODS or request.path in app.config.get("CSRF_GET_PATHS", ()):
            expected = session.get(CSRF_KEY)
            sent = request.headers.get(CSRF_HEADER) or ""
            if not isinstance(expected, str) or not expected \
                    or not hmac.compare_digest(expected.encode(), sent.encode()):
                return refuse("missing or wrong CSRF token: reload the page", 403)
        return None

    @app.after_request
    def _headers(response):
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return response


def serve_until_stopped(server) -> None:
    """Serve until Ctrl-C or SIGTERM; the server socket is closed in every case."""
    def stop(signum, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        signal.signal(signal.SIGTERM, previous)
