"""A provider in one class: says hello after `seconds`. Run: python3 examples/greet.py --port 8093"""
import time

from continuum_provider import ActionProvider, InvalidInput, describe, serve


class Greet(ActionProvider):
    def describe(self):
        return describe("Greet", subtitle="Says hello, eventually", scope="urn:continuum:providers:greet",
                        input_schema={"type": "object", "required": ["name"], "additionalProperties": False,
                                      "properties": {"name": {"type": "string", "minLength": 1},
                                                     "seconds": {"type": "number", "minimum": 0}}})

    def start(self, request, ctx):
        if request.body["name"] == "nobody":             # a rule a schema cannot express -> 400
            raise InvalidInput("/body/name", "nobody cannot be greeted")
        ctx.log("Thinking", "composing a greeting")      # -> GET /{id}/log
        wake_at = time.time() + request.body.get("seconds", 2)
        self.resume(ctx, wake_at)                        # the timer; stored details survive a restart
        return ctx.active("Composing", {"wake_at": wake_at})

    def resume(self, ctx, wake_at=None):                 # also called after a restart, once per unfinished action
        wake_at = wake_at or ctx.status()["details"]["wake_at"]
        name = ctx.request.body["name"]
        ctx.schedule(wake_at - time.time(), lambda: ctx.complete({"greeting": f"Hello, {name}"}))


if __name__ == "__main__":
    serve(Greet(), base_path="/providers/greet", audience="continuum-provider-greet")
