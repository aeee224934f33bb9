"""Serving a Flask app on the local machine only: shared by the annotation and experiment apps.

* :func:`make_server`: a threaded werkzeug server bound to 127.0.0.1 (port 0: a free one;
  :func:`check_port` refuses anything outside 0-65535); ``server.port`` tells which.
* :func:`protect` (every request of both apps):

  - a peer address that is not loopback: 403 (a proxy in front would have to be put there on
    purpose);
  - a ``Host`` header that is not ``127.0.0.1:PORT`` or ``localhost:PORT`` of the port served:
    403. A page of another site that reaches ``127.0.0.1:PORT`` through DNS rebinding sends
    its own host name, so it can neither read passages nor post answers;
  - a request body over :data:`MAX_BODY` bytes: 413, before the body is read;
  - a POST without the per-session CSRF token: 403. The page carries the token (a ``<meta
    name="csrf-token">`` filled in for ``{{CSRF_TOKEN}}``) and sets it as an HttpOnly,
    SameSite=Strict cookie; the page's script sends it back in the ``X-CSRF-Token`` header,
    and the two must match. The token is issued by the server: a random nonce and its
    HMAC-SHA256 under a secret the server draws at start (:func:`issue_token`,
    :func:`token_valid`), so a cookie/header pair the client chose itself (or one of a
    previous server process) is refused, and the page issues a fresh one. A GET that writes
    (the annotation app's ``/api/next`` leases a question) is listed in
    ``app.config["CSRF_GET_PATHS"]`` and needs the token too;
  - a storage failure (a full disk, a read-only or busy database: ``sqlite3.OperationalError``,
    ``OSError``) answers 503 with one log line instead of a 500 and a traceback;
  - every response carries :data:`SECURITY_HEADERS` (a Content-Security-Policy without inline
    script, ``nosniff``, no framing, no referrer), and the server announces no version
    (``Server: counter-gap``).
* :func:`serve_until_stopped`: serve until Ctrl-C or SIGTERM, then close the socket.

May import: the standard library, werkzeug/Flask, :mod:`pipeline.errors`.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
import signal

HOST = "127.0.0.1"
HOST_NAMES = ("127.0.0.1", "localhost")
MAX_BODY = 1 << 20                 # 1 MiB: an answer is a few hundred bytes
CSRF_COOKIE = "cg_csrf"
CSRF_HEADER = "X-CSRF-Token"
CSRF_MARK = "{{CSRF_TOKEN}}"
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


def issue_token(secret: bytes) -> str:
    """A CSRF token of this server: ``nonce.signature`` (HMAC-SHA256 of the nonce)."""
    nonce = secrets.token_urlsafe(24)
    return f"{nonce}.{_sign(secret, nonce)}"


def _sign(secret: bytes, nonce: str) -> str:
    import hashlib

    return hmac.new(secret, nonce.encode(), hashlib.sha256).hexdigest()


def token_valid(secret: bytes, token: str) -> bool:
    """Whether ``token`` was issued by the server holding ``secret``."""
    nonce, dot, sig = (token or "").rpartition(".")
    return bool(dot and nonce) and hmac.compare_digest(sig.encode(), _sign(secret, nonce).encode())


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
    return server


def is_loopback(address: str | None) -> bool:
    try:
        return ipaddress.ip_address((address or "").split("%")[0]).is_loopback
    except ValueError:
        return False


def host_allowed(host: str | None, served_port: int) -> bool:
    """Whether a ``Host`` header names this server: 127.0.0.1 or localhost, and the port served
    (no port: 80)."""
    host = (host or "").strip().lower()
    name, sep, port = host.rpartition(":")
    if not sep or "]" in port:
        name, port = host, ""
    if name not in HOST_NAMES:
        return False
    try:
        return (int(port) if port else 80) == served_port
    except ValueError:
        return False


def protect(app, what: str) -> None:
    """Register the guards of the module doc on ``app``."""
    from flask import jsonify, request
    from werkzeug.exceptions import RequestEntityTooLarge

    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    secret = app.config.setdefault("CSRF_SECRET", secrets.token_bytes(32))

    def refuse(message: str, status: int):
        return jsonify(error=f"refused: {message}"), status

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
        served = app.config.get("SERVED_PORT") or int(request.environ.get("SERVER_PORT") or 80)
        if not host_allowed(request.headers.get("Host"), served):
            return refuse(f"this {what} answers only to 127.0.0.1:{served} or localhost:{served} "
                          f"(Host {request.headers.get('Host')!r})", 403)
        if (request.content_length or 0) > MAX_BODY:
            return refuse(f"a request body of at most {MAX_BODY:,} bytes", 413)
        if request.method not in SAFE_METHODS or request.path in app.config.get("CSRF_GET_PATHS", ()):
            cookie = request.cookies.get(CSRF_COOKIE) or ""
            header = request.headers.get(CSRF_HEADER) or ""
            if not cookie or not hmac.compare_digest(cookie.encode(), header.encode()) \
                    or not token_valid(secret, cookie):
                return refuse("missing or wrong CSRF token: reload the page", 403)
        return None

    @app.after_request
    def _token(response):
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        if request.method == "GET" and response.mimetype == "text/html" and not response.direct_passthrough:
            body = response.get_data(as_text=True)
            if CSRF_MARK in body:
                token = request.cookies.get(CSRF_COOKIE) or ""
                if not token_valid(secret, token):
                    token = issue_token(secret)
                response.set_data(body.replace(CSRF_MARK, token))
                response.set_cookie(CSRF_COOKIE, token, httponly=True, samesite="Strict")
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
