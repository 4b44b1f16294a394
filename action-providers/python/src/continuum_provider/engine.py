"""The life cycle of one provider's actions: the only place where an action's stored state changes.

The same rules as the Java SDK's ``ActionEngine``: ``run`` is idempotent by the caller's ``request_id``
(same body: the same action, 200; another body: 409), a released action keeps its ``request_id`` bound for
the retention, the first finish wins, a finish after ``/run`` answered is pushed to the callback URL.
"""

from __future__ import annotations

import json
import logging
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import replace

from . import api, schema
from .api import DEFAULT_RELEASE_AFTER, ActionRequest, InvalidInput, Reported
from .store import SqliteActionStore, StoredAction

LOG = logging.getLogger("continuum_provider")


class ActionProvider:
    """A provider is one subclass: ``describe`` and ``start``; ``cancel``, ``resume`` and ``stop`` when needed.

    ``start`` is called once per new action, on the request's thread: it may block briefly. For long work
    return ``ctx.active(...)`` and finish later with ``ctx.complete(details)`` or ``ctx.fail(display, details)``
    from any thread. Raise :class:`InvalidInput` to refuse the body with 400; any other exception marks the
    action FAILED ("Provider error").
    """

    def describe(self) -> dict:
        raise NotImplementedError

    def start(self, request: ActionRequest, ctx: "ActionContext"):
        raise NotImplementedError

    def cancel(self, ctx: "ActionContext"):
        """Stops the work of a running action; the kit then marks it FAILED, "Cancelled"."""

    def resume(self, ctx: "ActionContext"):
        """Called at start for every unfinished stored action (after a restart): re-arm timers, re-attach to work."""

    def stop(self):
        """Called once when the provider closes: end background work without finishing any action."""


class _Scheduled:
    def __init__(self, timer):
        self._timer = timer

    def cancel(self):
        alive = self._timer.is_alive()
        self._timer.cancel()
        return alive


class ActionContext:
    """What a provider may do with one action; safe from any thread, also long after ``start`` returned.

    Once the action is finished (by the provider or a cancel) or the provider closed, ``complete``, ``fail``,
    ``progress`` and ``log`` are ignored, so a late timer cannot overwrite a cancellation.
    """

    def __init__(self, engine, action_id, caller, request):
        self._engine = engine
        self.action_id = action_id
        self.caller = caller
        self.request = request
        self._timers = []
        self._lock = threading.Lock()

    def status(self):
        found = self._engine.store.find(self.action_id)
        return None if found is None else found.status

    def finished(self):
        found = self._engine.store.find(self.action_id)
        return self._engine.closed or found is None or found.finished or found.released

    def active(self, display_status="Active", details=None):
        return Reported("ACTIVE", display_status, details or {})

    def inactive(self, display_status="Inactive", details=None):
        return Reported("INACTIVE", display_status, details or {})

    def succeeded(self, details=None):
        return Reported("SUCCEEDED", "Succeeded", details or {})

    def failed(self, display_status="Failed", details=None):
        return Reported("FAILED", display_status, details or {})

    def complete(self, details=None):
        self._engine.finish(self.action_id, "SUCCEEDED", "Succeeded", details or {})

    def fail(self, display_status="Failed", details=None):
        self._engine.finish(self.action_id, "FAILED", display_status, details or {})

    def progress(self, display_status, details=None, status="ACTIVE"):
        self._engine.progress(self.action_id, status, display_status, details)

    def log(self, code, description, details=None):
        self._engine.append_log(self.action_id, code, description, details)

    def schedule(self, delay_seconds, task):
        """Runs ``task()`` once after ``delay_seconds`` on a thread of its own. Timers live in memory: after a
        restart they are gone unless ``resume`` schedules them again; they are cancelled when the action finishes."""
        def fire():
            if self.finished():
                return
            try:
                task()
            except Exception:  # noqa: BLE001 - a provider bug must not kill the thread silently
                LOG.exception("scheduled task of action %s failed", self.action_id)

        timer = threading.Timer(max(0.0, delay_seconds), fire)
        timer.daemon = True
        with self._lock:
            self._timers.append(timer)
        timer.start()
        return _Scheduled(timer)

    def _cancel_timers(self):
        with self._lock:
            timers, self._timers = self._timers, []
        for t in timers:
            t.cancel()


class CallbackNotifier:
    """Pushes a final status to the URL a /run named in ``X-Continuum-Callback``; best effort, with backoff."""

    def __init__(self, attempts=5, first_backoff=0.5, timeout=10.0):
        self.attempts, self.first_backoff, self.timeout = attempts, first_backoff, timeout

    def deliver(self, url, status):
        threading.Thread(target=self._send, args=(url, status), daemon=True, name="callback").start()

    def _send(self, url, status):
        body = json.dumps(status).encode()
        for attempt in range(1, self.attempts + 1):
            code, why = 0, ""
            try:
                req = urllib.request.Request(url, data=body, method="POST", headers={
                    "Content-Type": "application/json", "X-Continuum-Action-Id": status["action_id"],
                    "User-Agent": "continuum-provider-callback"})
                with urllib.request.urlopen(req, timeout=self.timeout) as answer:
                    code = answer.status
            except urllib.error.HTTPError as e:
                code, why = e.code, f"HTTP {e.code}"
            except (OSError, ValueError) as e:
                why = str(e)
            if 200 <= code < 300:
                return
            hopeless = 400 <= code < 500 and code not in (408, 429)
            if hopeless or attempt >= self.attempts:
                LOG.warning("callback for action %s to %s given up after %d attempt(s): %s",
                            status["action_id"], url, attempt, why)
                return
            time.sleep(self.first_backoff * (2 ** (attempt - 1)))


class ActionEngine:
    """Runs one provider's actions over a store (SQLite by default). Blocking; called on request threads."""

    def __init__(self, provider, store=None, *, clock=time.time, callback_attempts=5, callback_backoff=0.5,
                 release_sweep=60.0, released_retention=600.0):
        self.provider = provider
        self.description = provider.describe()
        self.store = store if store is not None else SqliteActionStore(":memory:")
        self.clock = clock
        self.notifier = CallbackNotifier(callback_attempts, callback_backoff)
        self.release_sweep = release_sweep
        self.released_retention = released_retention
        self.closed = False
        self._closing = threading.RLock()
        self._live = {}
        self._live_lock = threading.Lock()
        self._sweeper = None
        self._stop_sweep = threading.Event()

    # ---- start and stop ----

    def start_background_work(self):
        """Resumes the unfinished actions of the store, then releases finished ones as they fall due."""
        for action in self.store.unfinished():
            if self.closed:
                return
            ctx = self._context(action)
            try:
                self.provider.resume(ctx)
            except Exception as e:  # noqa: BLE001
                LOG.exception("resuming action %s failed", action.action_id)
                self.finish(action.action_id, "FAILED", "Provider error", _error_details(e))
        self._sweeper = threading.Thread(target=self._sweep_loop, daemon=True, name="release-sweep")
        self._sweeper.start()

    def _sweep_loop(self):
        while not self._stop_sweep.wait(self.release_sweep):
            try:
                self.sweep()
            except Exception:  # noqa: BLE001
                LOG.exception("release sweep failed")

    def sweep(self):
        """Past release_after: released now; released and past the retention: forgotten, request_id freed."""
        now = self.clock()
        for action_id in self.store.releasable(now):
            if self.closed:
                return
            current = self.store.find(action_id)
            if current is None:
                continue
            if current.released:
                if current.release_at is not None and current.release_at <= now:
                    self.store.remove(action_id)
            elif current.finished:
                self._release(action_id)

    def close(self):
        """Stops timers, the sweep and the provider's own work; nothing is stored afterwards. Idempotent."""
        with self._closing:
            if self.closed:
                return
            self.closed = True
        self._stop_sweep.set()
        with self._live_lock:
            live, self._live = list(self._live.values()), {}
        for ctx in live:
            ctx._cancel_timers()
        try:
            self.provider.stop()
        except Exception:  # noqa: BLE001
            LOG.exception("provider stop failed")

    def _refuse_when_closed(self):
        if self.closed:
            raise api.unavailable("This provider is stopping; ask again, the restarted one answers.")

    def _update(self, action_id, change):
        with self._closing:
            return None if self.closed else self.store.update(action_id, change)

    # ---- the protocol ----

    def run(self, caller, request, callback_url=None):
        """Starts (or finds) an action: ``(status, created)``. A finish within this call is not pushed."""
        self._refuse_when_closed()
        invalid = schema.validate(self.description.get("input_schema"), request.body)
        if invalid:
            raise api.invalid_request("body does not match the provider's input_schema: " + api.summary(invalid), invalid)
        body = api.canonical(request.body)
        earlier = self.store.find_by_request(caller, request.request_id)
        if earlier is not None:
            return self._repeated(earlier, request, body)
        now = self.clock()
        initial = {
            "action_id": str(uuid.uuid4()), "status": "ACTIVE", "creator_id": caller, "label": request.label,
            "manage_by": request.manage_by if request.manage_by is not None else [caller],
            "monitor_by": request.monitor_by if request.monitor_by is not None else [caller],
            "start_time": api.iso(now), "release_after": request.release_after or DEFAULT_RELEASE_AFTER,
            "display_status": "Starting", "details": {},
        }
        initial = {k: v for k, v in initial.items() if v is not None}
        fresh = StoredAction(initial, request.to_json(), body, callback_url).with_log(
            {"time": api.iso(now), "code": "ActionStarted", "description": "Action started"})
        holder = self.store.insert_if_absent(fresh)
        if holder.action_id != fresh.action_id:
            return self._repeated(holder, request, body)  # a concurrent duplicate won the race
        action_id = fresh.action_id
        ctx = self._context(fresh)
        try:
            reported = self.provider.start(request, ctx)
        except InvalidInput as e:
            self._forget(action_id)
            raise api.invalid_field(e.pointer, str(e))
        except Exception as e:  # noqa: BLE001 - a provider bug while starting: FAILED, not 500
            LOG.exception("provider failed to start action %s", action_id)
            self.finish(action_id, "FAILED", "Provider error", _error_details(e), push=False)
            return self._current(action_id), True
        self._apply(action_id, reported)
        return self._current(action_id), True

    def status(self, caller, action_id):
        return self._visible_to(caller, action_id).status

    def cancel(self, caller, action_id):
        self._refuse_when_closed()
        action = self._managed_by(caller, action_id)
        if action.finished:
            raise api.conflict(f"Action {action_id} already finished as {action.status['status']};"
                               " only a running action can be cancelled.")
        ctx = self._context(action)
        try:
            self.provider.cancel(ctx)
        except Exception:  # noqa: BLE001
            LOG.exception("provider cancel of action %s failed; marking it cancelled anyway", action_id)
        self.finish(action_id, "FAILED", "Cancelled", {"cancelled": True, "cancelled_by": caller})
        return self._current(action_id)

    def release(self, caller, action_id):
        self._refuse_when_closed()
        action = self._managed_by(caller, action_id)
        if not action.finished:
            raise api.conflict(f"Action {action_id} is still {action.status['status']}; cancel it or wait until"
                               " it finishes before releasing it.")
        self._release(action_id)
        return action.status

    def log(self, caller, action_id, limit=100, offset=0):
        """A page of the log: ``(entries, next_marker)``, the marker None on the last page."""
        self._visible_to(caller, action_id)
        entries, more = self.store.log(action_id, offset, limit)
        return entries, (str(offset + len(entries)) if more else None)

    # ---- changes asked for through an ActionContext ----

    def finish(self, action_id, state, display_status, details, push=True):
        at = self.clock()
        changed = []

        def change(current):
            if current.finished or current.released:
                return current  # the first finish wins: a cancel beats a late timer
            changed.append(True)
            keep = api.parse_duration(current.status.get("release_after") or DEFAULT_RELEASE_AFTER)
            keep = api.parse_duration(DEFAULT_RELEASE_AFTER) if keep is None else keep
            done = dict(current.status, status=state, display_status=display_status, details=details or {},
                        completion_time=api.iso(at))
            code = "ActionSucceeded" if state == "SUCCEEDED" else "ActionFailed"
            return replace(current, status=done, release_at=at + keep).with_log(
                {"time": api.iso(at), "code": code, "description": display_status})

        after = self._update(action_id, change)
        if not changed:
            return
        self._drop_live(action_id)
        if push and after is not None and after.callback_url:
            self.notifier.deliver(after.callback_url, after.status)

    def progress(self, action_id, state, display_status, details):
        def change(current):
            if current.finished or current.released:
                return current
            status = dict(current.status, status=state, display_status=display_status)
            if details is not None:
                status["details"] = details
            return replace(current, status=status)
        self._update(action_id, change)

    def append_log(self, action_id, code, description, details=None):
        entry = {"time": api.iso(self.clock()), "code": code, "description": description}
        if details is not None:
            entry["details"] = details
        self._update(action_id, lambda current: current if current.released else current.with_log(entry))

    # ---- helpers ----

    def _repeated(self, earlier, request, body):
        if earlier.body != body:
            raise api.conflict(f"request_id {request.request_id} was already used with a different body"
                               f" (action {earlier.action_id}); use a new request_id for a new action.")
        return earlier.status, False

    def _apply(self, action_id, reported):
        if reported is None:
            self.progress(action_id, "ACTIVE", "Active", None)
        elif reported.status in ("SUCCEEDED", "FAILED"):
            self.finish(action_id, reported.status, reported.display_status, reported.details, push=False)
        else:
            self.progress(action_id, reported.status, reported.display_status, reported.details)

    def _context(self, action):
        with self._live_lock:
            ctx = self._live.get(action.action_id)
            if ctx is None:
                ctx = ActionContext(self, action.action_id, action.creator_id, ActionRequest.from_json(action.request))
                if not self.closed:
                    self._live[action.action_id] = ctx
            return ctx

    def _release(self, action_id):
        """Gone for status, log, cancel and release; its request_id stays bound for the retention (a late
        /run of it answers this action and does nothing again)."""
        if self.released_retention <= 0:
            self._forget(action_id)
            return
        at = self.clock()
        self.store.update(action_id, lambda cur: cur if cur.released else replace(
            cur, released=True, release_at=at + self.released_retention))
        self.store.drop_log(action_id)
        self._drop_live(action_id)

    def _forget(self, action_id):
        self.store.remove(action_id)
        self._drop_live(action_id)

    def _drop_live(self, action_id):
        with self._live_lock:
            ctx = self._live.pop(action_id, None)
        if ctx is not None:
            ctx._cancel_timers()

    def _current(self, action_id):
        found = self.store.find(action_id)
        if found is None:
            raise api.action_not_found(action_id)
        return found.status

    def _existing(self, action_id):
        found = self.store.find(action_id)
        if found is None or found.released:
            raise api.action_not_found(action_id)
        return found

    def _visible_to(self, caller, action_id):
        action = self._existing(action_id)
        s = action.status
        if caller != s["creator_id"] and caller not in s.get("monitor_by", []) and caller not in s.get("manage_by", []):
            raise api.forbidden(f"{caller} is neither the creator of action {action_id} nor in its monitor_by"
                                " or manage_by lists.")
        return action

    def _managed_by(self, caller, action_id):
        action = self._existing(action_id)
        s = action.status
        if caller != s["creator_id"] and caller not in s.get("manage_by", []):
            raise api.forbidden(f"{caller} is neither the creator of action {action_id} nor in its manage_by list.")
        return action


def _error_details(e):
    # The class name helps an operator; the message may help a user. No traceback leaves the process.
    return {"error": type(e).__name__, "message": str(e)}


def warn(message):
    print(message, file=sys.stderr, flush=True)
