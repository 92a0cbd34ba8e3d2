"""What the framework adapters share: loading the hooks (with the host's trust choice), the
framework's facts handed to the core's event builder, firing (sync or async), turning each
result into its host step, and reporting what a framework cannot apply.

There is no rule here about what an event holds or what a result means for the loop: the event
is ``hookwire.host_event`` (the core's one builder, from the facts an adapter passes) and the
step is ``hookwire.host_step`` (the core's one copy of ``agents.md`` §5). This module only
carries facts to the one and the step from the other, and keeps the adapters' plumbing (tool
names, trust, warnings, user messages) identical across frameworks.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import uuid
import warnings
from collections import OrderedDict
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

import hookwire
from hookwire import Dispatcher

logger = logging.getLogger("hookwire.adapters")

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

#: The host's trust choice for a project directory's own hook files (``.claude/settings.json``
#: and ``.claude/settings.local.json``): ``"store"`` runs them once recorded in the trust store
#: (``hookwire.record_trust``), ``"trusted"`` runs them (the host vouches for the project's
#: files), ``"untrusted"`` never runs them.
Trust = Literal["store", "trusted", "untrusted"]

#: ``on_user_message(text, event_name)``: text for the user, never the model.
UserMessageCallback = Callable[[str, str], None]

#: Tool calls that need permission where the framework has no approval of its own (nobody to
#: ask): tool names (the framework's or the name hooks see), or ``needs(tool_name,
#: tool_input) -> bool`` called with the name hooks see.
PermissionTools = Collection[str] | Callable[[str, dict[str, Any]], bool] | None

#: The framework tool names every adapter maps to Claude Code's tool names by default, so that a
#: user's ``Bash`` or ``Read`` matcher reaches a framework's own spelling of the same tool. Each
#: adapter adds the names of its framework's bundled tools (``DEFAULT_TOOL_NAMES`` there).
COMMON_TOOL_NAMES: Mapping[str, str] = {
    "bash": "Bash",
    "shell": "Bash",
    "run_shell_command": "Bash",
    "read_file": "Read",
    "write_file": "Write",
    "edit_file": "Edit",
    "glob": "Glob",
    "grep": "Grep",
    "web_fetch": "WebFetch",
    "fetch": "WebFetch",
    "web_search": "WebSearch",
}


class _Default:
    """The ``tool_names`` default: the adapter's own map."""

    def __repr__(self) -> str:
        return "DEFAULT"


#: ``tool_names=DEFAULT`` (the default of every adapter): the framework's default map alone.
DEFAULT: Any = _Default()


def tool_name_map(tool_names: Mapping[str, str] | None | _Default, default: Mapping[str, str]) -> dict[str, str]:
    """The map an adapter uses: ``default`` with the user's entries over it; ``None`` or an
    empty map disables the default (no name is mapped)."""
    if isinstance(tool_names, _Default):
        return dict(default)
    if not tool_names:
        return {}
    if not isinstance(tool_names, Mapping) or not all(isinstance(k, str) and isinstance(v, str) for k, v in tool_names.items()):
        raise TypeError("tool_names must map framework tool names (str) to the names hooks match (str)")
    return {**default, **tool_names}


class AdapterWarning(UserWarning):
    """A hook result the framework cannot express, or hooks that cannot reach a tool (issued
    once per adapter and kind)."""


class UntrustedHooksWarning(AdapterWarning):
    """The project's hook files exist but do not run: nobody trusted them (issued once, when the
    adapter is built). The message names the call that trusts them."""


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
    #: ``run_tool`` because a hook allowed the call: the framework's own approval is not asked.
    approved: bool = False
    #: A hook's replacement output did not fit what the tool returned (the core refused it):
    #: the real output stays.
    tool_output_refused: bool = False
    #: A hook decided (the result's ``decision`` is set). A PermissionRequest without a decision
    #: leaves the framework's own approval in charge, where there is one.
    decided: bool = False

    @classmethod
    def of(cls, raw: Mapping[str, Any], *, decided: bool = False, refused: bool = False) -> Step:
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
            approved=raw.get("approved") is True,
            tool_output_refused=refused,
            decided=decided,
        )


_NO_RESPONSE = object()


def host_step(result: Mapping[str, Any], tool_response: Any = _NO_RESPONSE) -> Step:
    """The one call into the core's ``hookwire.host_step`` (so no adapter re-implements its
    rules), its fields checked for type. With the tool's output (as the event sent it), the
    core keeps a replacement output only when it fits that output (``hookwire.host_step_for``)."""
    decided = result.get("decision") is not None
    if tool_response is _NO_RESPONSE:
        return Step.of(hookwire.host_step(dict(result)), decided=decided)
    raw = hookwire.host_step_for(dict(result), json.dumps(tool_response, ensure_ascii=False))
    refused = result.get("updated_tool_output") is not None and raw.get("tool_output") is None
    return Step.of(raw, decided=decided, refused=refused)


def load_hooks(hooks: Hooks, trust: Trust | None = None) -> Dispatcher:
    """A dispatcher, or the one Claude Code's settings for the project directory ``hooks`` make,
    its project files trusted as ``trust`` says (``"store"`` when not given)."""
    if isinstance(hooks, Dispatcher):
        if trust is not None:
            raise ValueError("trust= applies to a project directory; a Dispatcher carries its own trust configuration")
        return hooks
    if isinstance(hooks, (str, os.PathLike)):
        trust = trust or "store"
        if trust not in ("store", "trusted", "untrusted"):
            raise ValueError(f"trust must be 'store', 'trusted' or 'untrusted', not {trust!r}")
        config = hookwire.claude_code_defaults(hooks)
        config["trust"] = {**config.get("trust", {}), "project": trust}
        return Dispatcher(config)
    raise TypeError(f"hooks must be a hookwire.Dispatcher or a project directory, not {type(hooks).__name__}")


def untrusted_files(dispatcher: Dispatcher) -> list[dict[str, Any]]:
    """The hook files of the dispatcher's trust status that exist and are skipped for want of
    trust (a missing file has no digest and is no reason to warn)."""
    return [s for s in dispatcher.trust_status()["sources"] if s.get("trusted") is False and s.get("digest")]


def untrusted_message(hooks: Hooks, files: list[dict[str, Any]]) -> str:
    """The warning for skipped project hook files, naming the call that trusts them."""
    names = ", ".join(str(s.get("resolved") or s.get("path") or s.get("label")) for s in files)
    if isinstance(hooks, Dispatcher):
        how = (
            "review them, then trust them with hookwire.record_trust(config), config being the "
            "configuration this Dispatcher was built from (recorded until a file changes)"
        )
    else:
        how = (
            f"review them, then trust them with hookwire.record_trust(hookwire.claude_code_defaults({os.fspath(hooks)!r})) "
            "(recorded until a file changes), or build the adapter with trust=\"trusted\" if this host vouches "
            "for the project's files"
        )
    return f"the project's hook files are not trusted, so their hooks do not run (tools run without them): {names}; {how}"


class HookFirer:
    """Fires events for one adapter instance and turns each result into a step.

    Holds what every event shares (cwd, permission mode, the tool-name map), the warn-once
    bookkeeping and the user-message sink. Thread-safe: frameworks run tools in parallel
    threads or tasks."""

    def __init__(
        self,
        hooks: Hooks,
        *,
        session_id: str | None,
        cwd: str | os.PathLike[str] | None,
        permission_mode: str | None,
        on_user_message: UserMessageCallback | None,
        adapter: str,
        trust: Trust | None = None,
        tool_names: Mapping[str, str] | None | _Default = DEFAULT,
        default_tool_names: Mapping[str, str] = COMMON_TOOL_NAMES,
        permission_tools: PermissionTools = None,
    ) -> None:
        self.dispatcher = load_hooks(hooks, trust)
        self.fixed_session_id = session_id
        self.cwd = os.fspath(cwd) if cwd is not None else None
        self.permission_mode = permission_mode
        self.on_user_message = on_user_message
        self.adapter = adapter
        self.tool_names = tool_name_map(tool_names, default_tool_names)
        self.permission_tools = permission_tools
        self._warned: set[str] = set()
        self._reached: set[str] = set()
        self._quiet_labels: tuple[str, ...] = ()
        self._pending: OrderedDict[str, tuple[str, Step]] = OrderedDict()
        self._lock = threading.Lock()
        if trust != "untrusted":
            self._check_trust(hooks)

    def _check_trust(self, hooks: Hooks) -> None:
        """One ``UntrustedHooksWarning`` when project hook files exist but are skipped; the
        engine's own per-fire warning about them is then not logged again."""
        files = untrusted_files(self.dispatcher)
        if not files:
            return
        self._quiet_labels = tuple(f"{s['label']}:" for s in files if s.get("label"))
        warnings.warn(
            f"hookwire {self.adapter} adapter: {untrusted_message(hooks, files)}", UntrustedHooksWarning, stacklevel=4
        )

    def new_session_id(self) -> str:
        """The session id of a new run: the fixed one, else a fresh UUID."""
        return self.fixed_session_id or str(uuid.uuid4())

    # --- events: the framework's facts, the core's event ------------------------------------

    def hook_name(self, tool_name: str) -> str:
        """The tool name hooks see: the framework's name through the tool-name map."""
        return self.tool_names.get(tool_name, tool_name)

    def event(self, name: str, session_id: str, **facts: Any) -> dict[str, Any]:
        """The event ``name`` built by the core (``hookwire.host_event``) from the framework's
        facts: ``tool_name`` (the framework's; the map is passed along), ``tool_input``,
        ``tool_use_id``, ``tool_response``, ``error``, ``error_type``, ``prompt``, ``source``,
        ``reason``, ``stop_hook_active``, ``last_assistant_message``, ``fields``. A fact that is
        ``None`` is left out. The first event of a tool asks whether hooks can reach it."""
        given: dict[str, Any] = {
            "event": name,
            "session_id": session_id,
            "cwd": self.cwd if self.cwd is not None else os.getcwd(),
        }
        if self.permission_mode is not None:
            given["permission_mode"] = self.permission_mode
        for key, value in facts.items():
            if value is not None:
                given[key] = as_json(value) if key in ("tool_input", "tool_response", "fields") else value
        tool = facts.get("tool_name")
        if isinstance(tool, str):
            if self.tool_names:
                given["tool_names"] = self.tool_names
            self._check_reach(tool)
        event: dict[str, Any] = hookwire.host_event(given)
        return event

    def _check_reach(self, tool: str) -> None:
        """The first time a tool is seen: an ``AdapterWarning`` when hooks exist on tool events
        and none can match its (mapped) name (``Dispatcher.tool_reach``)."""
        with self._lock:
            if tool in self._reached or len(self._reached) > 1000:
                return
            self._reached.add(tool)
        reach = self.dispatcher.tool_reach(self.hook_name(tool))
        if reach.get("warning"):
            self.warn_once(f"reach:{tool}", str(reach["warning"]), stacklevel=5)

    def permission_facts(self, tool_name: str, tool_input: Any) -> dict[str, Any]:
        """The facts of a PermissionRequest (Claude Code sends no ``tool_use_id`` with it)."""
        return {"tool_name": tool_name, "tool_input": tool_input, "fields": {"permission_suggestions": []}}

    def needs_permission(self, tool_name: str, tool_input: Any) -> bool:
        """Whether ``permission_tools`` say this call needs permission (nobody to ask)."""
        needs = self.permission_tools
        if needs is None:
            return False
        name = self.hook_name(tool_name)
        if callable(needs):
            return bool(needs(name, tool_input if isinstance(tool_input, dict) else {}))
        return name in needs or tool_name in needs

    # --- firing -------------------------------------------------------------------------------

    def fire(self, event: dict[str, Any]) -> Step:
        return self._step(self.dispatcher.fire(event), tool_response=_response_of(event))

    async def afire(self, event: dict[str, Any]) -> Step:
        return self._step(await self.dispatcher.fire_async(event), tool_response=_response_of(event))

    def ask(self, event: dict[str, Any], *, someone_to_ask: bool) -> Step:
        """Fires a PermissionRequest. With ``someone_to_ask`` (the framework's own approval
        stands behind it), a step without a decision is returned untold: the caller leaves the
        call to the framework's approval. Without, the step decides (no decision denies)."""
        return self._step(self.dispatcher.fire(event), undecided_silent=someone_to_ask)

    async def aask(self, event: dict[str, Any], *, someone_to_ask: bool) -> Step:
        return self._step(await self.dispatcher.fire_async(event), undecided_silent=someone_to_ask)

    def _step(
        self, result: dict[str, Any], *, undecided_silent: bool = False, tool_response: Any = _NO_RESPONSE
    ) -> Step:
        for text in result.get("warnings") or ():
            if isinstance(text, str) and not text.startswith(self._quiet_labels or ("\0",)):
                self._log_once(f"engine:{text}", "hookwire: %s", text)
        step = host_step(result, tool_response)
        if undecided_silent and not step.decided:
            if step.user_message:
                self.tell_user(step.user_message, step.event)
            return step
        # Claude Code 2.1.332 shows an ask turned deny (and a PermissionRequest denial) to the
        # user as well: the step says so in ``seen_by``.
        if step.message and step.message_seen_by in ("user", "both"):
            self.tell_user(step.message, step.event)
        if step.user_message:
            self.tell_user(step.user_message, step.event)
        return step

    # --- a PreToolUse fired before the framework asked a human -------------------------------

    def remember(self, tool_use_id: str, tool_name: str, pre: Step) -> None:
        """Keeps the PreToolUse step of a call the framework holds for a human's approval, so
        that the approved call runs without firing PreToolUse again (Claude Code fires it once)."""
        with self._lock:
            self._pending[tool_use_id] = (tool_name, pre)
            self._pending.move_to_end(tool_use_id)
            while len(self._pending) > 1024:
                self._pending.popitem(last=False)

    def recall(self, tool_use_id: str | None, tool_name: str) -> Step | None:
        """The remembered PreToolUse step of an approved call, once."""
        if tool_use_id is None:
            return None
        with self._lock:
            kept = self._pending.get(tool_use_id)
            if kept is None or kept[0] != tool_name:
                return None
            del self._pending[tool_use_id]
            return kept[1]

    # --- text for the user, warnings ---------------------------------------------------------

    def tell_user(self, text: str, event: str) -> None:
        """Text for the user, never the model: the callback, else the ``hookwire.adapters`` log."""
        if self.on_user_message is not None:
            self.on_user_message(text, event)
        else:
            logger.warning("%s hook: %s", event, text)

    def warn_once(self, kind: str, text: str, *, stacklevel: int = 3) -> None:
        """``warnings.warn`` the first time this adapter instance meets ``kind``."""
        with self._lock:
            if kind in self._warned:
                return
            self._warned.add(kind)
        warnings.warn(f"hookwire {self.adapter} adapter: {text}", AdapterWarning, stacklevel=stacklevel)

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


def merged(pre: Step, asked: Step | None) -> Step:
    """The PreToolUse step with a PermissionRequest's rewrite, context and stop folded in: what
    the call runs with once permission was granted."""
    if asked is None:
        return pre
    context = with_text("", pre.context, asked.context) or None
    tool_input = asked.tool_input if asked.tool_input is not None else pre.tool_input
    return replace(pre, tool_input=tool_input, context=context, stop=pre.stop or asked.stop, approved=True)


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


def _response_of(event: Mapping[str, Any]) -> Any:
    """A PostToolUse event's ``tool_response`` (what the core checks a replacement output
    against); no response for any other event."""
    if event.get("hook_event_name") == "PostToolUse":
        return event.get("tool_response")
    return _NO_RESPONSE
