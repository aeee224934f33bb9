"""The shared serving helpers: loopback only, and a server that stops on SIGTERM."""

from __future__ import annotations

import os
import signal
import threading

import pytest
from flask import Flask

from pipeline.web.serving import is_loopback, make_server, protect, serve_until_stopped


@pytest.mark.parametrize("address, ok", [("127.0.0.1", True), ("127.8.9.1", True), ("::1", True),
                                         ("10.0.0.5", False), ("192.168.1.2", False), ("", False),
                                         (None, False), ("not an address", False)])
def test_is_loopback(address, ok):
    assert is_loopback(address) is ok


def test_non_loopback_peer_gets_403():
    app = Flask("t")
    protect(app, "test app")
    app.get("/")(lambda: "hello")
    client = app.test_client()
    assert client.get("/").status_code == 200
    res = client.get("/", environ_base={"REMOTE_ADDR": "10.0.0.5"})
    assert res.status_code == 403 and "serves the local machine only" in res.get_json()["error"]


def test_server_binds_loopback_and_stops_on_sigterm():
    app = Flask("t")
    server = make_server(app, 0)
    assert server.host == "127.0.0.1" and server.port > 0
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGTERM))
    timer.start()
    serve_until_stopped(server)       # returns instead of hanging or raising
    timer.join()
    assert server.socket.fileno() == -1   # closed
