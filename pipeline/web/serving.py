"""Serving a Flask app on the local machine only: shared by the annotation and experiment apps.

* :func:`make_server`: a threaded werkzeug server bound to 127.0.0.1 (port 0: a free one);
  ``server.port`` tells which.
* :func:`is_loopback` / :func:`refuse_non_loopback`: a request whose peer address is not
  loopback is refused (403), so a proxy in front would have to be put there on purpose.
* :func:`serve_until_stopped`: serve until Ctrl-C or SIGTERM, then close the socket.

May import: the standard library, werkzeug/Flask.
"""

from __future__ import annotations

import ipaddress
import signal

HOST = "127.0.0.1"


def check_port(port) -> int:
    """A TCP port to listen on: 0 (a free one) to 65535; anything else is bad input."""
    from pipeline.errors import InputError

    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise InputError(f"--port must be a whole number from 0 (a free port) to 65535, got {port!r}")
    return port


def make_server(app, port: int = 0):
    from werkzeug.serving import make_server as _make

    check_port(port)
    server = _make(HOST, port, app, threaded=True)
    app.config["SERVED_PORT"] = server.port
    return server


def is_loopback(address: str | None) -> bool:
    try:
        return ipaddress.ip_address((address or "").split("%")[0]).is_loopback
    except ValueError:
        return False


def refuse_non_loopback(app, what: str) -> None:
    """Register a before-request hook answering 403 to any peer that is not loopback."""
    from flask import jsonify, request

    @app.before_request
    def _loopback_only():
        if not is_loopback(request.remote_addr):
            return (jsonify(error=f"refused: this {what} serves the local machine only "
                                  f"(request from {request.remote_addr})"), 403)
        return None


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
