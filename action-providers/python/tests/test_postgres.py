"""The optional PostgreSQL store (Debian's python3-psycopg2): the same idempotency and restart guarantees as SQLite.

Runs against $CONTINUUM_PROVIDER_TEST_PG (default: the machine's PostgreSQL as postgres on 127.0.0.1), each test
in a schema of its own; skipped, saying why, without psycopg2 or a reachable server.
"""
import os
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest

from conftest import Steps, call, eventually
from continuum_provider import PostgresActionStore

DSN = os.environ.get("CONTINUUM_PROVIDER_TEST_PG", "host=127.0.0.1 user=postgres dbname=postgres connect_timeout=3")


@pytest.fixture
def pg_dsn():
    psycopg2 = pytest.importorskip("psycopg2", reason="python3-psycopg2 is not installed")
    try:
        admin = psycopg2.connect(DSN)
    except psycopg2.OperationalError as e:
        pytest.skip(f"no PostgreSQL at '{DSN}' (set CONTINUUM_PROVIDER_TEST_PG): {e}".strip())
    admin.autocommit = True
    schema = "provider_test_" + uuid.uuid4().hex[:12]
    with admin.cursor() as c:
        c.execute(f"CREATE SCHEMA {schema}")
    yield f"{DSN} options='-c search_path={schema}'"
    with admin.cursor() as c:
        c.execute(f"DROP SCHEMA {schema} CASCADE")
    admin.close()


def run(url, request_id, body):
    return call("POST", url + "/run", {"request_id": request_id, "body": body})


def test_actions_in_postgres_survive_a_restart_and_keep_their_request_ids(serve_provider, pg_dsn):
    first = serve_provider(store=PostgresActionStore(pg_dsn))
    done = run(first.url, "done", {"mode": "now"}).json
    waiting = run(first.url, "waiting", {"mode": "later", "seconds": 3600}).json
    assert run(first.url, "done", {"mode": "fail"}).status == 409
    first.close()
    first.engine.store.close()

    provider = Steps()
    second = serve_provider(provider, store=PostgresActionStore(pg_dsn))
    assert provider.resumed == [waiting["action_id"]]
    assert call("GET", f"{second.url}/{done['action_id']}/status").json == done
    again = run(second.url, "done", {"mode": "now"})
    assert again.status == 200 and again.json["action_id"] == done["action_id"]
    eventually(lambda: call("GET", f"{second.url}/{waiting['action_id']}/status").json["status"] == "SUCCEEDED")
    codes = [e["code"] for e in call("GET", f"{second.url}/{waiting['action_id']}/log").json["entries"]]
    assert codes == ["ActionStarted", "Waiting", "ActionSucceeded"]
    released = call("POST", f"{second.url}/{done['action_id']}/release")
    assert released.status == 200
    assert call("GET", f"{second.url}/{done['action_id']}/status").status == 404
    assert run(second.url, "done", {"mode": "now"}).json["action_id"] == done["action_id"]


def test_concurrent_duplicates_start_one_action_in_postgres(serve_provider, pg_dsn):
    provider = Steps()
    server = serve_provider(provider, store=PostgresActionStore(pg_dsn))
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda _: run(server.url, "race", {"mode": "never"}), range(16)))
    assert sorted(a.status for a in answers) == [200] * 15 + [202]
    assert len(provider.started) == 1
