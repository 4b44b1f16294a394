"""Action records in SQLite: a provider that stops, or is killed with SIGKILL, and restarts loses nothing."""
import os
import signal
import socket
import subprocess
import sys
import time

from conftest import HERE, Steps, call, eventually


def run(url, request_id, body):
    return call("POST", url + "/run", {"request_id": request_id, "body": body})


def test_a_restarted_provider_knows_every_action_and_resumes_the_unfinished(serve_provider, tmp_path):
    db = tmp_path / "restart.sqlite3"
    first = serve_provider(db=db)
    done = run(first.url, "done", {"mode": "now"}).json
    waiting = run(first.url, "waiting", {"mode": "later", "seconds": 3600}).json
    released = run(first.url, "released", {"mode": "now"}).json
    call("POST", f"{first.url}/{released['action_id']}/release")
    log_before = call("GET", f"{first.url}/{done['action_id']}/log").json
    first.close()

    provider = Steps()
    second = serve_provider(provider, db=db)

    assert provider.resumed == [waiting["action_id"]]
    assert call("GET", f"{second.url}/{done['action_id']}/status").json == done
    assert call("GET", f"{second.url}/{done['action_id']}/log").json == log_before
    assert run(second.url, "done", {"mode": "now"}).json["action_id"] == done["action_id"]
    assert run(second.url, "done", {"mode": "fail"}).status == 409
    assert call("GET", f"{second.url}/{released['action_id']}/status").status == 404
    assert run(second.url, "released", {"mode": "now"}).json["action_id"] == released["action_id"]
    finished = eventually(lambda: (s := call("GET", f"{second.url}/{waiting['action_id']}/status").json)
                          ["status"] == "SUCCEEDED" and s)
    assert finished["details"] == {"done": True, "resumed": True}
    assert provider.started == []


def test_a_closed_provider_stores_nothing_more(serve_provider, tmp_path):
    server = serve_provider()
    action = run(server.url, "late", {"mode": "never"}).json["action_id"]
    server.close()
    server.engine.finish(action, "SUCCEEDED", "Succeeded", {"late": True})
    assert server.engine.store.find(action).status["status"] == "ACTIVE"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_effects_provider(port, db, effects, log):
    env = dict(os.environ, EFFECTS_FILE=str(effects), CONTINUUM_AUTH_ENABLED="false")
    process = subprocess.Popen([sys.executable, os.path.join(HERE, "effects_provider.py"), "--port", str(port),
                                "--db", str(db)], env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/providers/effects"

    def answering():
        try:
            return call("GET", f"http://127.0.0.1:{port}/health").status == 200
        except OSError:
            assert process.poll() is None, "the provider process exited"
            return False
    eventually(answering, timeout=20, what="the provider answering")
    return process, url


def test_a_provider_killed_mid_action_finishes_it_once_after_a_restart(tmp_path):
    port, db, effects = free_port(), tmp_path / "effects.sqlite3", tmp_path / "effects.tsv"
    with open(tmp_path / "provider.log", "ab") as log:
        process, url = start_effects_provider(port, db, effects, log)
        try:
            started = run(url, "run-1/state-A/1", {"seconds": 1.5})
            assert started.status == 202
            action = started.json["action_id"]
            process.send_signal(signal.SIGKILL)
            process.wait(10)
            assert not effects.exists()

            process, url = start_effects_provider(port, db, effects, log)
            again = run(url, "run-1/state-A/1", {"seconds": 1.5})  # the caller re-sends: same action
            assert again.status == 200 and again.json["action_id"] == action
            finished = eventually(lambda: (s := call("GET", f"{url}/{action}/status").json)["status"] == "SUCCEEDED"
                                  and s, timeout=15)
            assert finished["details"]["effect"] == action
            assert finished["details"]["pid"] == process.pid
            time.sleep(0.5)
            assert effects.read_text().splitlines() == [f"run-1/state-A/1\t{action}"]
            codes = [e["code"] for e in call("GET", f"{url}/{action}/log").json["entries"]]
            assert codes == ["ActionStarted", "EffectScheduled", "EffectResumed", "ActionSucceeded"]
        finally:
            process.kill()
            process.wait(10)
