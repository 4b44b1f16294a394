"""Fixtures: a provider served on a free port, an issuer with a published key set, tokens it signs."""
import json
import os
import sys
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "src"))
sys.path.insert(0, HERE)

from continuum_provider import ActionProvider, CallerRejected, InvalidInput, ProviderServer, SqliteActionStore, describe  # noqa: E402


class Answer:
    def __init__(self, status, headers, raw):
        self.status, self.headers, self.raw = status, headers, raw
        self.content_type = headers.get("Content-Type", "")
        self.json = json.loads(raw) if raw else None

    def __repr__(self):
        return f"<{self.status} {self.raw[:300]!r}>"


def call(method, url, body=None, headers=None, raw=None):
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    req = urllib.request.Request(url, data=data, method=method, headers=dict(headers or {}))
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return Answer(r.status, r.headers, r.read())
    except urllib.error.HTTPError as e:
        return Answer(e.code, e.headers, e.read())


def eventually(check, timeout=10.0, what="condition"):
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"{what} not met within {timeout} s")


class Steps(ActionProvider):
    """A test provider steered by its body: mode now | later | fail | boom | invalid | never."""

    def __init__(self):
        self.started = []
        self.cancelled = []
        self.resumed = []

    def describe(self):
        return describe("Steps", scope="actions:steps", input_schema={
            "type": "object", "properties": {"mode": {"enum": ["now", "later", "fail", "boom", "invalid", "never"]},
                                             "seconds": {"type": "number", "minimum": 0}}})

    def start(self, request, ctx):
        self.started.append(ctx.action_id)
        mode = request.body.get("mode", "now")
        if mode == "now":
            return ctx.succeeded({"echo": request.body})
        if mode == "fail":
            return ctx.failed("Broken", {"why": "asked to fail"})
        if mode == "boom":
            raise RuntimeError("provider bug")
        if mode == "invalid":
            raise InvalidInput("/body/mode", "invalid is never accepted")
        if mode == "later":
            ctx.log("Waiting", "finishing later", {"seconds": request.body.get("seconds", 0.2)})
            ctx.schedule(request.body.get("seconds", 0.2), lambda: ctx.complete({"done": True}))
        return ctx.active("Working", {"progress": 0})

    def cancel(self, ctx):
        self.cancelled.append(ctx.action_id)

    def resume(self, ctx):
        self.resumed.append(ctx.action_id)
        if ctx.request.body.get("mode") == "later":
            ctx.schedule(0.05, lambda: ctx.complete({"done": True, "resumed": True}))


class NamedCallers:
    """Test sign-in: 'Bearer <name>' is <name>; no header is 401."""

    def resolve(self, authorization):
        if not authorization:
            raise CallerRejected(401, "A bearer token is required (Authorization: Bearer <token>).")
        return authorization.split(" ", 1)[1]


class FakeClock:
    def __init__(self):
        self.now = time.time()

    def __call__(self):
        return self.now


@pytest.fixture
def serve_provider(tmp_path):
    """serve_provider(provider=None, **options) -> a started ProviderServer on a free port (closed after the test)."""
    started = []

    def make(provider=None, db=None, store=None, **options):
        options.setdefault("base_path", "/providers/steps")
        store = store or SqliteActionStore(str(db or tmp_path / "actions.sqlite3"))
        server = ProviderServer(provider or Steps(), store=store, **options).start()
        started.append(server)
        return server

    yield make
    for server in started:
        if not server.engine.closed:
            server.close()


# ---- an issuer: an RSA key, its key set served over HTTP, tokens signed with it ----

class Issuer:
    def __init__(self):
        import jwt
        from cryptography.hazmat.primitives.asymmetric import rsa

        self._jwt = jwt
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.other_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(self.key.public_key()))
        jwk.update(kid="k1", use="sig", alg="RS256")
        self.jwks = {"keys": [jwk, {"kty": "RSA", "use": "enc", "kid": "enc-1", "n": jwk["n"], "e": jwk["e"]}]}
        self.fetches = 0
        issuer = self

        class Certs(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                issuer.fetches += 1
                data = json.dumps(issuer.jwks).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Certs)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/realms/test"
        self.jwks_url = self.url + "/protocol/openid-connect/certs"

    def token(self, user="alice", audience="continuum-provider-steps", scope="actions:steps", expires_in=300,
              issuer=None, key=None, kid="k1", **claims):
        now = int(time.time())
        payload = {"iss": issuer or self.url, "sub": "id-" + user, "preferred_username": user, "aud": audience,
                   "scope": scope, "iat": now, "exp": now + expires_in, **claims}
        return self._jwt.encode(payload, key or self.key, algorithm="RS256", headers={"kid": kid})

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture(scope="session")
def issuer():
    pytest.importorskip("jwt", reason="python3-jwt is not installed")
    pytest.importorskip("cryptography", reason="python3-cryptography is not installed")
    found = Issuer()
    yield found
    found.close()
