"""A provider with an effect in the world, for the crash tests (pytest and the engine's PythonProviderFlowTest).

Each action waits `seconds`, then appends `request_id<TAB>action_id` to the file named by $EFFECTS_FILE
(fsynced) and succeeds. The due time is stored in the action's details, so a provider killed while waiting
resumes the wait after a restart; an action whose line is already in the file does not append it again
(a kill between the append and the stored finish), so each action takes effect once.
"""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from continuum_provider import ActionProvider, describe, serve  # noqa: E402


class Effects(ActionProvider):
    def __init__(self, effects_file):
        self.effects_file = effects_file

    def describe(self):
        return describe("Effects", subtitle="Waits, then records one effect", scope="actions:effects",
                        input_schema={"type": "object", "properties": {"seconds": {"type": "number", "minimum": 0}}})

    def start(self, request, ctx):
        due = time.time() + float(request.body.get("seconds", 0))
        ctx.log("EffectScheduled", f"the effect is due in {request.body.get('seconds', 0)} s")
        self._arm(ctx, due)
        return ctx.active("Waiting", {"due": due})

    def resume(self, ctx):
        ctx.log("EffectResumed", "the provider restarted; waiting for the effect again")
        self._arm(ctx, ctx.status()["details"]["due"])

    def _arm(self, ctx, due):
        ctx.schedule(due - time.time(), lambda: self._effect(ctx))

    def _effect(self, ctx):
        line = f"{ctx.request.request_id}\t{ctx.action_id}\n"
        done = os.path.exists(self.effects_file) and line in open(self.effects_file, encoding="utf-8").readlines()
        if not done:
            with open(self.effects_file, "a", encoding="utf-8") as f:
                f.write(line)
                f.flush()
                os.fsync(f.fileno())
        ctx.complete({"effect": ctx.action_id, "caller": ctx.caller, "pid": os.getpid()})


if __name__ == "__main__":
    serve(Effects(os.environ.get("EFFECTS_FILE", "effects.tsv")), base_path="/providers/effects",
          audience="continuum-provider-effects")
