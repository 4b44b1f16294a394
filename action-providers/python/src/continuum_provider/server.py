"""The HTTP face of a provider (the standard library's ThreadingHTTPServer) and a launcher for a provider program.

Routes, relative to the provider's base path: ``GET /`` (introspection), ``POST /run``, ``GET /{id}/status``,
``POST /{id}/cancel``, ``POST /{id}/release``, ``GET /{id}/log``, and the legacy Globus ``/actions`` paths;
``GET /health`` beside them. Every failure is a problem document (``application/problem+json``).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import sys
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from . import api
from .api import CallerRejected, ProblemError
from .auth import Anonymous, from_environment
from .engine import ActionEngine
from .store import SqliteActionStore

CALLBACK_HEADER = "X-Continuum-Callback"
LOG = logging.getLogger("continuum_provider")
MAX_BODY = 10 * 1024 * 1024


class ProviderServer:
    """One provider served over HTTP at ``base_path``; ``start()`` resumes stored actions and listens."""

    def __init__(self, provider, *, host="127.0.0.1", port=0, base_path="/", store=None, auth=None,
                 max_body=MAX_BODY, **engine_options):
        self.engine = ActionEngine(provider, store if store is not None else SqliteActionStore(":memory:"),
                                   **engine_options)
        self.auth = auth or Anonymous()
        self.base = "/" + base_path.strip("/") if base_path.strip("/") else ""
        self.max_body = max_body
        handler = type("Handler", (_Handler,), {"provider_server": self})
        self.httpd = ThreadingHTTPServer((host, port), handler)
        self.httpd.daemon_threads = True
        self._thread = None

    @property
    def port(self):
        return self.httpd.server_address[1]

    @property
    def url(self):
        host = self.httpd.server_address[0]
        return f"http://{host}:{self.port}{self.base}"

    def start(self):
        """Resumes unfinished actions, then serves on a background thread; answers self."""
        self.engine.start_background_work()
        self._thread = threading.Thread(target=self.httpd.serve_forever, args=(0.1,), daemon=True, name="provider-http")
        self._thread.start()
        return self

    def close(self):
        """Stops answering, then closes the engine (timers, the provider's own work); nothing is stored after."""
        self.engine.close()
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()

    # ---- dispatch ----

    def handle(self, method, path, query, headers, read_body):
        """Answers ``(status, content_type, document)`` for one request."""
        if path == "/health" and method == "GET":
            return 200, {"status": "UP"}
        if self.base and not (path == self.base or path.startswith(self.base + "/")):
            raise api.not_found(path)
        rest = path[len(self.base):]
        parts = [urllib.parse.unquote(p) for p in rest.split("/") if p]
        if not parts:
            self._only(method, "GET")
            if "public" not in self.engine.description.get("visible_to", []):
                self._caller(headers)
            return 200, self.engine.description
        if len(parts) == 1 and parts[0] in ("run", "actions"):
            self._only(method, "POST")
            caller = self._caller(headers)
            callback = _callback_url(headers.get(CALLBACK_HEADER))
            request = api.parse_run(_read_json(read_body))
            status, created = self.engine.run(caller, request, callback)
            return (202 if created else 200), status
        if parts[0] == "actions" and len(parts) in (2, 3):
            parts = parts[1:]
            if len(parts) == 1:
                parts.append("status")
        if len(parts) == 2:
            action_id, op = parts
            if op in ("status", "log"):
                self._only(method, "GET")
                caller = self._caller(headers)
                if op == "status":
                    return 200, self.engine.status(caller, action_id)
                limit = _int_param(query, "limit", 100, 1, 1000)
                offset = _int_param(query, "marker", 0, 0, 2 ** 31 - 1)
                entries, marker = self.engine.log(caller, action_id, limit, offset)
                page = {"entries": entries, "has_next_page": marker is not None}
                if marker is not None:
                    page["marker"] = marker
                return 200, page
            if op in ("cancel", "release"):
                self._only(method, "POST")
                caller = self._caller(headers)
                return 200, (self.engine.cancel if op == "cancel" else self.engine.release)(caller, action_id)
        raise api.not_found(path)

    def _caller(self, headers):
        try:
            return self.auth.resolve(headers.get("Authorization"))
        except CallerRejected as e:
            raise e.problem() from None

    @staticmethod
    def _only(method, allowed):
        if method != allowed:
            raise api.of_status(405, f"Use {allowed} here.")


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    provider_server: ProviderServer = None
    server_version = "continuum-provider-python"

    def log_message(self, fmt, *args):  # quiet by default; the access log is for debugging only
        LOG.debug("%s " + fmt, self.address_string(), *args)

    def do_GET(self):
        self._serve("GET")

    def do_POST(self):
        self._serve("POST")

    def do_PUT(self):
        self._serve("PUT")

    def do_DELETE(self):
        self._serve("DELETE")

    def _read_body(self):
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            chunks, total = [], 0
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    break
                total += size
                if total > self.provider_server.max_body:
                    self.close_connection = True
                    raise self._too_large()
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
            return b"".join(chunks)
        length = int(self.headers.get("Content-Length") or 0)
        if length > self.provider_server.max_body:
            if length <= 4 * self.provider_server.max_body:
                while length > 0:  # read it away, so the caller is still listening when told why
                    length -= len(self.rfile.read(min(length, 65536)) or b"\0" * length)
            else:
                self.close_connection = True
            raise self._too_large()
        return self.rfile.read(length) if length > 0 else b""

    def _too_large(self):
        return api.of_status(413, f"The request body exceeds {self.provider_server.max_body} bytes.")

    def _serve(self, method):
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        body_read = []

        def read_body():
            body_read.append(True)
            return self._read_body()

        try:
            status, doc = self.provider_server.handle(method, url.path, query, self.headers, read_body)
            content_type = "application/json"
        except ProblemError as p:
            status, doc, content_type = p.status, p.document(), "application/problem+json"
        except Exception:  # noqa: BLE001 - no traceback ever reaches a caller
            LOG.exception("unexpected failure serving %s %s", method, url.path)
            p = api.of_status(500, "The provider failed unexpectedly; the error was logged.")
            status, doc, content_type = p.status, p.document(), "application/problem+json"
        if not body_read and int(self.headers.get("Content-Length") or 0) > 0:
            try:
                self._read_body()  # keep the connection usable: the body was not needed
            except ProblemError:
                pass
        data = json.dumps(doc).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data)


def _read_json(read_body):
    raw = read_body()
    if not raw:
        raise api.invalid_field("", "The request has no body; send a JSON object with request_id and body.")
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError) as e:
        where = f" at line {e.lineno}, column {e.colno}" if isinstance(e, json.JSONDecodeError) else ""
        raise api.invalid_field("", f"The request body is not valid JSON{where}.") from None


def _callback_url(value):
    if value is None or not value.strip():
        return None
    try:
        url = urllib.parse.urlsplit(value.strip())
        if url.scheme.lower() in ("http", "https") and url.hostname:
            return value.strip()
    except ValueError:
        pass
    raise api.invalid_request(f"The {CALLBACK_HEADER} header must be an absolute http or https URL.")


def _int_param(query, name, fallback, low, high):
    values = query.get(name)
    if not values or not values[0].strip():
        return fallback
    try:
        value = int(values[0].strip())
        if low <= value <= high:
            return value
    except ValueError:
        pass
    raise api.invalid_request(f"The query parameter {name} must be an integer from {low} to {high}.")


def serve(provider, base_path="/", argv=None, *, audience=None, scope=None):
    """Runs ``provider`` as a program until SIGTERM or Ctrl-C: ``--host`` (127.0.0.1), ``--port`` (8092),
    ``--db`` (an SQLite file, default ``$CONTINUUM_PROVIDER_DB`` or ``actions.sqlite3``; ``:memory:`` forgets
    on exit), ``--base-path``. Sign-in from the environment (:func:`continuum_provider.from_environment`):
    tokens for ``audience`` with ``scope`` (default the description's ``globus_auth_scope``).
    Prints ``listening on <url>`` once it answers."""
    parser = argparse.ArgumentParser(description=provider.describe().get("title", "action provider"))
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8092)
    parser.add_argument("--db", default=os.environ.get("CONTINUUM_PROVIDER_DB", "actions.sqlite3"))
    parser.add_argument("--base-path", default=base_path)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    scope = scope if scope is not None else provider.describe().get("globus_auth_scope")
    auth = from_environment(audience or "", scope)
    server = ProviderServer(provider, host=args.host, port=args.port, base_path=args.base_path,
                            store=SqliteActionStore(args.db), auth=auth)
    stopped = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopped.set())
    signal.signal(signal.SIGINT, lambda *_: stopped.set())
    server.start()
    print(f"listening on {server.url}", flush=True)
    while not stopped.wait(0.5):
        pass
    server.close()
    print("stopped", file=sys.stderr, flush=True)
