"""What the framework adapters share: loading the hooks, building events, firing them (sync or
async), turning each result into its host step, and reporting what a framework cannot apply.

There is no rule here about what a result means for the loop: that is ``hookwire.host_step``,
the core's one copy of ``agents.md`` §5. This module only carries the step to the adapters and
keeps their plumbing (event fields, warnings, user messages) identical across frameworks.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import uuid
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

import hookwire
from hookwire import Dispatcher

logger = logging.getLogger("hookwire.adapters")

#: The adapter's own bound on consecutive Stop continuations, beside the engine's cap (8 per
#: session, protocol.md §5.11): a safety net should the engine's count ever be bypassed (a
#: caller changing ``session_id`` between fires, a future cap of 0).
MAX_STOP_CONTINUATIONS = 16

Action = Literal[
    "run_tool",
    "deny_tool",
    "defer_tool",
    "deliver_result",
    "call_model",
    "block_prompt",
    "continue_turn",
    "end_turn",
    "proceed",
]

#: The dispatcher itself, or a project directory whose Claude Code settings are loaded.
Hooks = Dispatcher | str | os.PathLike[str]

#: ``on_user_message(text, event_name)``: text for the user, never the model.
UserMessageCallback = Callable[[str, str], None]


class AdapterWarning(UserWarning):
    """A hook result the framework cannot express (issued once per adapter and kind)."""


class HookwireAdapterError(Exception):
    """Base of the exceptions an adapter raises to hand control back to the caller."""


class ToolCallDeferred(HookwireAdapterError):
    """A PreToolUse hook deferred a tool call: the tool did not run and the run ended.

    The pending call is here for the caller to run, refuse or resume later."""

    def __init__(self, tool_name: str, tool_input: Any, tool_use_id: str | None) -> None:
        super().__init__(f"PreToolUse hook deferred the call of tool {tool_name!r}")
        self.tool_name = tool_name
        self.tool_input = tool_input
        self.tool_use_id = tool_use_id


class PromptBlocked(HookwireAdapterError):
    """A UserPromptSubmit hook blocked the prompt: no model call was made.

    ``message`` is for the user (never sent to the model)."""

    def __init__(self, message: str | None) -> None:
        super().__init__(message or "UserPromptSubmit hook blocked the prompt")
        self.message = message


class RunStopped(HookwireAdapterError):
    """A hook asked to stop the agent (``continue: false``) where the framework's run cannot end
    without an output; the tool concerned did run. ``message`` is for the user."""

    def __init__(self, event: str, message: str | None) -> None:
        super().__init__(message or f"{event} hook stopped the run")
        self.event = event
        self.message = message


@dataclass(frozen=True, slots=True)
class Step:
    """One host step (``hookwire.host_step``), with its fields checked for type."""

    event: str
    action: Action
    tool_input: Any
    message: str | None
    feedback: str | None
    tool_output: Any
    prompt: str | None
    context: str | None
    user_message: str | None
    stop: bool
    #: Who sees ``message`` (``model``, ``user``, ``both``); the step says it, never the adapter.
    message_seen_by: str | None = None

    @classmethod
    def of(cls, raw: Mapping[str, Any]) -> Step:
        def text(key: str) -> str | None:
            value = raw.get(key)
            return value if isinstance(value, str) else None

        return cls(
            event=str(raw.get("event", "")),
            action=raw.get("action", "proceed"),
            tool_input=raw.get("tool_input"),
            message=text("message"),
            feedback=text("feedback"),
            tool_output=raw.get("tool_output"),
            prompt=text("prompt"),
            context=text("context"),
            user_message=text("user_message"),
            stop=raw.get("stop") is True,
            message_seen_by=(raw.get("seen_by") or {}).get("message"),
        )


def host_step(result: Mapping[str, Any]) -> Step:
    """The one call into the core's ``hookwire.host_step`` (so no adapter re-implements its
    rules), its fields checked for type."""
    return Step.of(hookwire.host_step(dict(result)))


def load_hooks(hooks: Hooks) -> Dispatcher:
    """A dispatcher, or the one Claude Code's settings for the project directory ``hooks`` make."""
    if isinstance(hooks, Dispatcher):
        return hooks
    if isinstance(hooks, (str, os.PathLike)):
        return Dispatcher.from_claude_code_defaults(hooks)
    raise TypeError(f"hooks must be a hookwire.Dispatcher or a project directory, not {type(hooks).__name__}")


class HookFirer:
    """Fires events for one adapter instance and turns each result into a step.

    Holds what every event shares (cwd, permission mode), the warn-once bookkeeping and the
    user-message sink. Thread-safe: frameworks run tools in parallel threads or tasks."""

    def __init__(
        self,
        hooks: Hooks,
        *,
        session_id: str | None,
        cwd: str | os.PathLike[str] | None,
        permission_mode: str,
        on_user_message: UserMessageCallback | None,
        adapter: str,
    ) -> None:
        self.dispatcher = load_hooks(hooks)
        self.fixed_session_id = session_id
        self.cwd = os.fspath(cwd) if cwd is not None else None
        self.permission_mode = permission_mode
        self.on_user_message = on_user_message
        self.adapter = adapter
        self._warned: set[str] = set()
        self._lock = threading.Lock()

    def new_session_id(self) -> str:
        """The session id of a new run: the fixed one, else a fresh UUID."""
        return self.fixed_session_id or str(uuid.uuid4())

    def event(self, name: str, session_id: str, **fields: Any) -> dict[str, Any]:
        """An event in Claude Code's shape: the common fields, then ``fields``."""
        event: dict[str, Any] = {
            "session_id": session_id,
            "transcript_path": None,
            "cwd": self.cwd if self.cwd is not None else os.getcwd(),
            "permission_mode": self.permission_mode,
            "hook_event_name": name,
        }
        event.update(fields)
        return event

    def fire(self, event: dict[str, Any]) -> Step:
        return self._step(self.dispatcher.fire(event))

    async def afire(self, event: dict[str, Any]) -> Step:
        return self._step(await self.dispatcher.fire_async(event))

    def _step(self, result: dict[str, Any]) -> Step:
        for text in result.get("warnings") or ():
            if isinstance(text, str):
                self._log_once(f"engine:{text}", "hookwire: %s", text)
        step = host_step(result)
        # Claude Code 2.1.332 shows an ask turned deny (and a PermissionRequest denial) to the
        # user as well: the step says so in ``seen_by``.
        if step.message and step.message_seen_by in ("user", "both"):
            self.tell_user(step.message, step.event)
        if step.user_message:
            self.tell_user(step.user_message, step.event)
        return step

    def tell_user(self, text: str, event: str) -> None:
        """Text for the user, never the model: the callback, else the ``hookwire.adapters`` log."""
        if self.on_user_message is not None:
            self.on_user_message(text, event)
        else:
            logger.warning("%s hook: %s", event, text)

    def warn_once(self, kind: str, text: str) -> None:
        """``warnings.warn`` the first time this adapter instance meets ``kind``."""
        with self._lock:
            if kind in self._warned:
                return
            self._warned.add(kind)
        warnings.warn(f"hookwire {self.adapter} adapter: {text}", AdapterWarning, stacklevel=3)

    def _log_once(self, kind: str, fmt: str, *args: Any) -> None:
        with self._lock:
            if kind in self._warned or len(self._warned) > 1000:
                return
            self._warned.add(kind)
        logger.warning(fmt, *args)

    def replacement_input(self, step: Step, tool_name: str) -> dict[str, Any] | None:
        """The step's replacement tool input, or None to run the call as made. A replacement
        that is not a JSON object raises ``ValueError`` (hook output is untrusted)."""
        if step.tool_input is None:
            return None
        if not isinstance(step.tool_input, dict):
            raise ValueError(
                f"PreToolUse hook rewrote the input of {tool_name!r} to a {type(step.tool_input).__name__}, not an object"
            )
        return step.tool_input


def bad_rewrite_message(tool_name: str, error: Exception) -> str:
    """The error tool result the model gets when a hook's rewrite does not fit the tool: the
    call is not run (the hook wanted it changed) and not run as made either."""
    return f"PreToolUse hook rewrote the input of tool {tool_name!r} to one the tool does not accept: {error}"


def with_text(base: str, *extra: str | None) -> str:
    """``base`` followed by each non-empty extra text, a blank line apart."""
    parts = [base, *(e for e in extra if e)]
    return "\n\n".join(p for p in parts if p)


def as_text(value: Any) -> str:
    """A tool output as text for the model: strings as is, other values as compact JSON."""
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return str(value)


def as_json(value: Any) -> Any:
    """A value made JSON-safe for an event field (``tool_response``): unknown objects as text."""
    try:
        return json.loads(json.dumps(value, default=str))
    except (TypeError, ValueError, RecursionError):
        return str(value)


def fits(original: Any, replacement: Any) -> bool:
    """Whether a hook's ``updated_tool_output`` can stand in for what the tool returned: same
    JSON kind (a string for a string, an object for an object, ...). Claude Code drops a
    replacement that does not match the tool's output schema; the adapters know no more of a
    framework tool's output schema than the type of what it returned."""
    kinds = ((bool,), (int, float), (str,), (dict,), (list, tuple))
    for kind in kinds:
        if isinstance(original, kind):
            return isinstance(replacement, kind) and not (kind != (bool,) and isinstance(replacement, bool))
    return original is None and replacement is None
