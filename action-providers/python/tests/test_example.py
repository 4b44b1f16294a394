"""The documented example provider (docs/action-provider-api.md, "Writing a provider in Python") as shipped, working."""
import os
import re

from conftest import HERE, call, eventually
from greet import Greet

DOC = os.path.join(HERE, "..", "..", "..", "docs", "action-provider-api.md")
EXAMPLE = os.path.join(HERE, "..", "examples", "greet.py")


def test_the_docs_show_the_shipped_example():
    with open(DOC, encoding="utf-8") as doc, open(EXAMPLE, encoding="utf-8") as example:
        section = doc.read().split("## Writing a provider in Python", 1)[1]
        shown = re.search(r"```python\n(.*?)```", section, re.S).group(1)
        assert shown == example.read()
    assert len(shown.splitlines()) <= 32


def test_greet_says_hello_refuses_nobody_and_resumes_after_a_restart(serve_provider, tmp_path):
    db = tmp_path / "greet.sqlite3"
    server = serve_provider(Greet(), db=db, base_path="/providers/greet")
    url = server.url
    assert call("GET", url + "/").json["globus_auth_scope"] == "urn:continuum:providers:greet"
    nobody = call("POST", url + "/run", {"request_id": "n", "body": {"name": "nobody"}})
    assert nobody.status == 400 and nobody.json["errors"][0]["pointer"] == "/body/name"
    quick = call("POST", url + "/run", {"request_id": "q", "body": {"name": "Ada", "seconds": 0.1}}).json
    slow = call("POST", url + "/run", {"request_id": "s", "body": {"name": "Bob", "seconds": 1}}).json
    assert slow["display_status"] == "Composing"
    eventually(lambda: call("GET", f"{url}/{quick['action_id']}/status").json["details"] == {"greeting": "Hello, Ada"})
    server.close()

    again = serve_provider(Greet(), db=db, base_path="/providers/greet")
    done = eventually(lambda: (s := call("GET", f"{again.url}/{slow['action_id']}/status").json)["status"]
                      == "SUCCEEDED" and s, timeout=5)
    assert done["details"] == {"greeting": "Hello, Bob"}
