"""hookwire: Claude-Code-compatible lifecycle hooks, run safely.

The engine is the Rust crate ``hookwire-core``; this package is a thin shell over it.

    import hookwire
    d = hookwire.Dispatcher({"hooks": {...}})          # or JSON text as str / bytes
    r = d.fire({"hook_event_name": "PreToolUse", ...})  # dict: the result JSON
    r = await d.fire_async(event)                       # same, without blocking the loop

Handlers beyond commands: ``d.add_function_hook("PreToolUse", fn, matcher="Bash")`` registers a
Python function (sync or ``async def``) as a hook folded with the configured ones;
``d.set_host_callback("prompt", fn)`` answers ``prompt``, ``agent`` and ``mcp_tool`` handlers.
Cancelling the task awaiting ``fire_async`` kills the running hooks; threads pass a
``CancelToken`` to ``fire(event, cancel=token)``.

Project trust (protocol.md §2.8): ``d.trust_status()`` lists the project and local sources (and
any other source the configuration marks ``"trusted": False``) and whether each is trusted; after the user approves, ``hookwire.record_trust(config)`` records
them in the trust store, and dispatchers built afterwards run them.
``Dispatcher.from_claude_code_defaults(project_dir)`` loads what Claude Code itself would: the
user, project and local settings files, the project ones gated on that store.

The host step (agents.md §5): ``hookwire.host_step(result)`` says what an agent loop does next
with a result (``action``: run the tool, deny it with ``message``, call the model one more
time, ...), as Claude Code's own loop would. Its other half, ``hookwire.host_event(facts)``,
builds the event a host fires from what the framework knows (schema/host-facts.schema.json),
and ``d.tool_reach(tool_name)`` says whether any hook on a tool event can match a tool; the
framework adapters in ``hookwire.adapters`` are built on the three, and bound Stop
continuations by ``hookwire.MAX_STOP_CONTINUATIONS``.

Logs (docs/logging.md): ``hookwire.enable_logging(logging.DEBUG)`` sends the engine's events
to the loggers ``hookwire.fire``, ``hookwire.hook`` and ``hookwire.load``, fields as record
attributes (``record.event``, ``record.hook_id``, ...); off until then, and free while off.

Errors: ``HookwireError`` (an ``Exception``) is the base of ``ConfigError`` and
``EventError``. A hook's own failure is never an exception: it is an outcome in the result.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Coroutine
from typing import Any

from hookwire import _native
from hookwire._logging import TRACE, disable_logging, enable_logging
from hookwire._native import (
    CancelToken,
    ConfigError,
    EventError,
    HookwireError,
    CLAUDE_CODE_VERSION,
    MAX_STOP_CONTINUATIONS,
    __version__,
    claude_code_defaults,
    host_event,
    host_step,
    host_step_for,
    record_trust,
)

__all__ = [
    "TRACE",
    "CancelToken",
    "ConfigError",
    "Dispatcher",
    "EventError",
    "HookwireError",
    "CLAUDE_CODE_VERSION",
    "MAX_STOP_CONTINUATIONS",
    "__version__",
    "claude_code_defaults",
    "disable_logging",
    "enable_logging",
    "host_event",
    "host_step",
    "host_step_for",
    "record_trust",
]

# The same conversion the native side applies to a dict, so fire_async can take its copy of
# the event before it lets go of the caller (a later change to the dict cannot reach the fire).
_encode = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode


class Dispatcher(_native.Dispatcher):
    """A loaded configuration, ready to fire events.

    ``Dispatcher(config)`` takes a dict or JSON text (str or bytes) and raises ``ConfigError``;
    ``Dispatcher.from_file(path)`` reads a JSON file (I/O failures raise ``OSError``).

    Thread-safe: one dispatcher may be shared by any number of threads and tasks, and their
    fires run at the same time, each with its own hook processes. ``fire`` releases the GIL
    while hooks run.

    Function hooks and host callbacks (``add_function_hook``, ``set_host_callback``) run on
    hookwire's own threads, possibly several at once, and take the GIL only while they run. An
    ``async def`` function's coroutine runs on a fresh event loop in that thread
    (``asyncio.run``): it must not depend on the caller's loop (its futures, locks or tasks).
    The dispatcher keeps a strong reference to each registered function until it is dropped.
    """

    __slots__ = ()

    def fire_async(self, event: dict[str, Any] | str | bytes) -> Coroutine[Any, Any, dict[str, Any]]:
        """``await d.fire_async(event)``: the same dict as ``fire``, without blocking the loop.

        The fire runs on the event loop's default executor. The event is copied (a dict is
        converted to JSON text) when ``fire_async`` is called, so changing the dict afterwards
        does not reach the fire. Cancelling the awaiting task ends it with ``CancelledError``
        and cancels the fire: running hooks are killed (their process groups), the rest never
        start, and nothing leaks. Raises ``EventError``.
        """
        if isinstance(event, dict):
            try:
                event = _encode(event)
            except (TypeError, ValueError, RecursionError):
                pass  # left as is: fire() raises the proper EventError for it
        return _fire_cancellable(self, event)


async def _fire_cancellable(d: Dispatcher, event: dict[str, Any] | str | bytes) -> dict[str, Any]:
    """Runs ``d.fire(event, cancel=token)`` in the default executor; a cancelled await cancels
    the token, so the fire ends (and its hooks die) instead of running on unobserved."""
    token = CancelToken()
    try:
        return await asyncio.to_thread(d.fire, event, token)
    except BaseException:  # CancelledError, or GeneratorExit when the coroutine is closed
        token.cancel()
        raise
