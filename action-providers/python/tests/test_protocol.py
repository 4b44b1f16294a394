"""The Action Provider API with the Java SDK's semantics: idempotent /run, status, cancel, release, log, callbacks."""
import json
import threading
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from conftest import FakeClock, NamedCallers, Steps, call, eventually


def run(server, request_id, body, headers=None):
    return call("POST", server.url + "/run", {"request_id": request_id, "body": body}, headers)


def test_introspection_describes_the_provider(serve_provider):
    server = serve_provider()
    for path in ("", "/"):
        answer = call("GET", server.url + path)
        assert answer.status == 200
        assert answer.json["api_version"] == "1.0"
        assert answer.json["types"] == ["Action"]
        assert answer.json["globus_auth_scope"] == "actions:steps"
        assert answer.json["input_schema"]["type"] == "object"
        assert answer.json["visible_to"] == ["public"]
    assert call("GET", f"http://127.0.0.1:{server.port}/health").json == {"status": "UP"}


def test_run_is_idempotent_by_request_id_and_another_body_is_a_conflict(serve_provider):
    provider = Steps()
    server = serve_provider(provider)

    first = run(server, "r-1", {"mode": "never"})
    again = run(server, "r-1", {"mode": "never"})
    other = run(server, "r-1", {"mode": "now"})

    assert first.status == 202 and first.json["status"] == "ACTIVE"
    assert again.status == 200 and again.json["action_id"] == first.json["action_id"]
    assert other.status == 409 and other.content_type == "application/problem+json"
    assert other.json["type"] == "https://continuum.dev/problems/conflict"
    assert "request_id r-1" in other.json["detail"]
    assert provider.started == [first.json["action_id"]]


def test_bodies_that_differ_only_in_json_type_are_different_bodies(serve_provider):
    server = serve_provider()
    assert run(server, "typed", {"mode": "never", "seconds": 1}).status == 202
    assert run(server, "typed", {"mode": "never", "seconds": 1.0}).status == 409
    assert run(server, "typed", {"seconds": 1, "mode": "never"}).status == 200  # key order does not matter


def test_request_ids_are_scoped_per_caller(serve_provider):
    server = serve_provider(auth=NamedCallers())
    alice = run(server, "same", {"mode": "never"}, {"Authorization": "Bearer alice"})
    bob = run(server, "same", {"mode": "now"}, {"Authorization": "Bearer bob"})
    assert alice.status == 202 and bob.status == 202
    assert alice.json["action_id"] != bob.json["action_id"]
    assert bob.json["creator_id"] == "bob"


def test_concurrent_duplicates_start_one_action(serve_provider):
    provider = Steps()
    server = serve_provider(provider)
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda _: run(server, "race", {"mode": "never"}), range(16)))
    assert sorted(a.status for a in answers) == [200] * 15 + [202]
    assert len({a.json["action_id"] for a in answers}) == 1
    assert len(provider.started) == 1


def test_a_body_against_the_schema_is_refused_with_pointers(serve_provider):
    answer = run(serve_provider(), "bad", {"mode": "sideways", "seconds": -1})
    assert answer.status == 400 and answer.content_type == "application/problem+json"
    assert {e["pointer"] for e in answer.json["errors"]} == {"/body/mode", "/body/seconds"}
    assert answer.json["detail"].startswith("body does not match the provider's input_schema")


def test_malformed_documents_are_refused_with_problems(serve_provider):
    server = serve_provider()
    no_json = call("POST", server.url + "/run", raw=b"{nope")
    missing = call("POST", server.url + "/run", {"body": "x", "release_after": "soon", "tags": [1]})
    bad_callback = call("POST", server.url + "/run", {"request_id": "cb", "body": {}},
                        {"X-Continuum-Callback": "ftp://example.org/x"})
    bad_limit = call("GET", server.url + "/whatever/log?limit=0")
    assert no_json.status == 400 and "not valid JSON" in no_json.json["detail"]
    assert missing.status == 400
    assert {e["pointer"] for e in missing.json["errors"]} == {"/request_id", "/body", "/release_after", "/tags/0"}
    assert bad_callback.status == 400 and "X-Continuum-Callback" in bad_callback.json["detail"]
    assert bad_limit.status == 400
    too_big = call("POST", server.url + "/run", raw=b" " * (10 * 1024 * 1024 + 1))
    assert too_big.status == 413 and too_big.content_type == "application/problem+json"


def test_invalid_input_from_the_provider_is_a_400_and_keeps_nothing(serve_provider):
    server = serve_provider()
    refused = run(server, "inv", {"mode": "invalid"})
    assert refused.status == 400 and refused.json["errors"] == [{"pointer": "/body/mode",
                                                                  "message": "invalid is never accepted"}]
    assert run(server, "inv", {"mode": "now"}).status == 202  # the request_id was not kept


def test_a_provider_bug_while_starting_is_a_failed_action_not_a_500(serve_provider):
    answer = run(serve_provider(), "boom", {"mode": "boom"})
    assert answer.status == 202
    assert answer.json["status"] == "FAILED" and answer.json["display_status"] == "Provider error"
    assert answer.json["details"] == {"error": "RuntimeError", "message": "provider bug"}


def test_status_follows_the_action_until_it_finishes(serve_provider):
    server = serve_provider()
    started = run(server, "later", {"mode": "later", "seconds": 0.2})
    action = started.json["action_id"]
    assert started.json["display_status"] == "Working"

    done = eventually(lambda: (s := call("GET", f"{server.url}/{action}/status")).json["status"] == "SUCCEEDED" and s)
    assert done.json["details"] == {"done": True}
    assert done.json["completion_time"] >= done.json["start_time"]
    assert call("GET", f"{server.url}/actions/{action}").json["status"] == "SUCCEEDED"  # legacy path


def test_cancel_stops_a_running_action_and_a_finished_one_answers_409(serve_provider):
    provider = Steps()
    server = serve_provider(provider)
    action = run(server, "c", {"mode": "never"}).json["action_id"]

    cancelled = call("POST", f"{server.url}/{action}/cancel")
    again = call("POST", f"{server.url}/{action}/cancel")

    assert cancelled.status == 200
    assert cancelled.json["status"] == "FAILED" and cancelled.json["display_status"] == "Cancelled"
    assert cancelled.json["details"] == {"cancelled": True, "cancelled_by": "local:anonymous"}
    assert provider.cancelled == [action]
    assert again.status == 409 and again.json["title"] == "Conflict"
    assert call("POST", f"{server.url}/nope/cancel").status == 404


def test_a_late_finish_after_a_cancel_is_ignored(serve_provider):
    server = serve_provider()
    action = run(server, "late", {"mode": "later", "seconds": 0.3}).json["action_id"]
    call("POST", f"{server.url}/{action}/cancel")
    ctx_finish = server.engine.finish  # what the timer would call
    ctx_finish(action, "SUCCEEDED", "Succeeded", {"late": True})
    assert call("GET", f"{server.url}/{action}/status").json["display_status"] == "Cancelled"


def test_release_forgets_a_finished_action_but_keeps_its_request_id_for_the_retention(serve_provider):
    clock = FakeClock()
    server = serve_provider(clock=clock, released_retention=600)
    running = run(server, "busy", {"mode": "never"}).json["action_id"]
    assert call("POST", f"{server.url}/{running}/release").status == 409

    done = run(server, "rel", {"mode": "now"}).json
    released = call("POST", f"{server.url}/{done['action_id']}/release")
    assert released.status == 200 and released.json["status"] == "SUCCEEDED"
    for op, method in (("status", "GET"), ("log", "GET"), ("cancel", "POST"), ("release", "POST")):
        assert call(method, f"{server.url}/{done['action_id']}/{op}").status == 404, op

    repeat = run(server, "rel", {"mode": "now"})
    assert repeat.status == 200 and repeat.json["action_id"] == done["action_id"]
    assert repeat.json["details"] == done["details"]
    assert run(server, "rel", {"mode": "fail"}).status == 409

    clock.now += 601
    server.engine.sweep()
    fresh = run(server, "rel", {"mode": "now"})
    assert fresh.status == 202 and fresh.json["action_id"] != done["action_id"]


def test_finished_actions_are_released_after_release_after(serve_provider):
    clock = FakeClock()
    server = serve_provider(clock=clock)
    action = call("POST", server.url + "/run", {"request_id": "short", "body": {"mode": "now"},
                                                "release_after": "PT60S"}).json["action_id"]
    clock.now += 30
    server.engine.sweep()
    assert call("GET", f"{server.url}/{action}/status").status == 200
    clock.now += 31
    server.engine.sweep()
    assert call("GET", f"{server.url}/{action}/status").status == 404


def test_the_log_pages_oldest_first(serve_provider):
    server = serve_provider()
    action = run(server, "log", {"mode": "later", "seconds": 0.05}).json["action_id"]
    eventually(lambda: call("GET", f"{server.url}/{action}/status").json["status"] == "SUCCEEDED")

    whole = call("GET", f"{server.url}/{action}/log").json
    first = call("GET", f"{server.url}/{action}/log?limit=2").json
    rest = call("GET", f"{server.url}/{action}/log?limit=2&marker={first['marker']}").json

    assert [e["code"] for e in whole["entries"]] == ["ActionStarted", "Waiting", "ActionSucceeded"]
    assert whole["has_next_page"] is False and "marker" not in whole
    assert whole["entries"][1]["details"] == {"seconds": 0.05}
    assert first["has_next_page"] is True and len(first["entries"]) == 2
    assert [e["code"] for e in rest["entries"]] == ["ActionSucceeded"] and rest["has_next_page"] is False
    assert call("GET", f"{server.url}/actions/{action}/log").json == whole


def test_only_the_creator_monitors_and_managers_see_or_change_an_action(serve_provider):
    server = serve_provider(auth=NamedCallers())
    as_ = lambda who: {"Authorization": f"Bearer {who}"}  # noqa: E731
    action = call("POST", server.url + "/run", {"request_id": "acl", "body": {"mode": "never"},
                                                "monitor_by": ["mona"], "manage_by": ["max"]}, as_("alice")).json
    action_id = action["action_id"]

    assert call("GET", f"{server.url}/{action_id}/status", headers=as_("mona")).status == 200
    assert call("GET", f"{server.url}/{action_id}/log", headers=as_("max")).status == 200
    assert call("GET", f"{server.url}/{action_id}/status", headers=as_("eve")).status == 403
    denied = call("POST", f"{server.url}/{action_id}/cancel", headers=as_("mona"))
    assert denied.status == 403 and denied.content_type == "application/problem+json"
    assert call("POST", f"{server.url}/{action_id}/cancel", headers=as_("max")).status == 200
    assert call("GET", f"{server.url}/{action_id}/status").status == 401


def test_unknown_paths_and_methods_answer_problems(serve_provider):
    server = serve_provider()
    for method, path in (("GET", "/a/b/c/d"), ("GET", "/x/unknown")):
        answer = call(method, server.url + path)
        assert answer.status == 404 and answer.content_type == "application/problem+json", path
    assert call("GET", server.url + "/run").status == 405
    assert call("GET", f"http://127.0.0.1:{server.port}/elsewhere").status == 404


class Receiver:
    """Records callbacks; the first `failures` answers are 503."""

    def __init__(self, failures=0):
        self.got, self.failures = [], failures
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                receiver.got.append((self.headers["X-Continuum-Action-Id"], body))
                code = 503 if len(receiver.got) <= receiver.failures else 204
                self.send_response(code)
                self.send_header("Content-Length", "0")
                self.end_headers()

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/runs/r/callbacks/secret"

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def test_a_later_finish_is_pushed_to_the_callback_with_retries(serve_provider):
    receiver = Receiver(failures=2)
    try:
        server = serve_provider(callback_backoff=0.05)
        action = run(server, "cb", {"mode": "later", "seconds": 0.1},
                     {"X-Continuum-Callback": receiver.url}).json["action_id"]
        eventually(lambda: len(receiver.got) >= 3, what="three deliveries (two refused)")
        assert all(got == (action, receiver.got[-1][1]) for got in receiver.got)
        assert receiver.got[-1][1]["status"] == "SUCCEEDED"
        # a finish inside /run is in the answer, not pushed; a cancel is pushed
        run(server, "cb-now", {"mode": "now"}, {"X-Continuum-Callback": receiver.url})
        other = run(server, "cb-cancel", {"mode": "never"}, {"X-Continuum-Callback": receiver.url}).json["action_id"]
        call("POST", f"{server.url}/{other}/cancel")
        eventually(lambda: len(receiver.got) >= 4, what="the cancel's push")
        assert [a for a, _ in receiver.got[3:]] == [other]
    finally:
        receiver.close()
