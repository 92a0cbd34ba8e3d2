"""Type stubs of ``hookwire._native``, the compiled half of ``hookwire``.

``tests/test_stubs.py`` checks that these stubs and the runtime module name the same things.
"""

from collections.abc import Awaitable, Callable
from os import PathLike
from typing import Any, Self

__version__: str
# The Claude Code release whose events hookwire knows and whose loop host_step reproduces.
CLAUDE_CODE_VERSION: str
# How many consecutive Stop continuations an adapter allows in one run before it ends the turn
# itself (16): a bound above the engine's own guard (8 per session).
MAX_STOP_CONTINUATIONS: int

class Dispatcher:
    """A loaded configuration, ready to fire events.

    Thread-safe: one dispatcher may be shared by any number of threads, and their fires run
    at the same time. The GIL is released while hooks run.
    """

    def __new__(cls, config: dict[str, Any] | str | bytes) -> Self:
        """Build from a dict or JSON text (str or bytes). Raises ``ConfigError``;
        another argument type raises ``TypeError``."""

    @classmethod
    def from_file(cls, path: str | bytes | PathLike[str] | PathLike[bytes]) -> Self:
        """Build from a JSON file. I/O failures raise ``OSError``; a bad configuration
        raises ``ConfigError``."""

    @classmethod
    def from_claude_code_defaults(cls, project_dir: str | PathLike[str]) -> Self:
        """Build from Claude Code's default sources for the project at ``project_dir`` (see
        ``claude_code_defaults``). A directory that cannot be resolved raises ``OSError``."""

    def fire(self, event: dict[str, Any] | str | bytes, cancel: CancelToken | None = None) -> dict[str, Any]:
        """Fire one event; return the result JSON (protocol.md §8) as a dict.
        Raises ``EventError``; a hook's failure is an outcome, never an exception. With
        ``cancel``, ``cancel.cancel()`` from another thread ends the fire: running hooks are
        killed, the rest never start, and their outcomes say ``cancelled``."""

    def add_function_hook(
        self,
        event: str,
        fn: Callable[[dict[str, Any]], dict[str, Any] | str | None]
        | Callable[[dict[str, Any]], Awaitable[dict[str, Any] | str | None]],
        *,
        matcher: str | None = None,
        timeout: float | None = None,
        fail_closed: bool = False,
        name: str | None = None,
        first: bool = False,
    ) -> str:
        """Register ``fn(event) -> dict | str | None`` as a hook of ``event``, folded with the
        configured hooks (after them unless ``first``); return its hook id
        (``function(<name>):<Event>`` or ``function#<n>:<Event>``). A dict is the JSON a
        command hook would print, a str is printed as is, ``None`` prints nothing; an exception
        is a non-blocking error unless ``fail_closed``. ``fn`` runs on hookwire's threads under
        ``timeout`` seconds, holding the GIL only while it runs; an ``async def`` function runs
        on a fresh event loop in that thread (``asyncio.run``), never on the caller's loop.
        Raises ``ConfigError`` (unknown event, bad matcher or timeout), ``TypeError``."""

    def set_host_callback(
        self,
        handler_type: str,
        fn: Callable[[dict[str, Any]], dict[str, Any]] | Callable[[dict[str, Any]], Awaitable[dict[str, Any]]],
    ) -> None:
        """Register ``fn(request) -> reply`` for ``prompt``, ``agent`` or ``mcp_tool`` handlers,
        replacing an earlier one. The request is ``{"type", "handler", "event", "timeout_s"}``
        (``event`` is the event's JSON text, protocol.md §5.9); the reply ``{"text": ...}`` is
        read like a hook's stdout, and ``{"ok": bool, "reason"?, "impossible"?}`` allows or
        blocks. Same threads, GIL and ``async def`` rules as ``add_function_hook``. Raises
        ``ConfigError`` for another handler type, ``TypeError`` when ``fn`` is not callable."""

    def trust_status(self) -> dict[str, Any]:
        """The trust state of every project and local source, and of any other source marked
        ``"trusted": False`` (protocol.md §2.8): a dict with
        ``store``, ``default_store``, ``project_dir`` (``None`` when unset) and ``sources``,
        each with ``scope``, ``label``, ``path``, ``resolved``, ``key``, ``digest``,
        ``trusted`` (bool) and ``why``. Nothing is spawned, read or written."""

    def tool_reach(self, tool_name: str) -> dict[str, Any]:
        """Whether the hooks on tool events can reach the tool ``tool_name`` (the name hooks
        see, after an adapter's tool-name map): a dict with ``tool_name``, ``hooked`` (hooks
        exist on tool events), ``reached`` (one of their matchers matches the name) and
        ``warning`` (the text to show once when hooks exist and none can match, else ``None``;
        schema/tool-reach.schema.json). Nothing is run."""

class CancelToken:
    """Cancels fires from another thread: ``d.fire(event, cancel=token)`` here,
    ``token.cancel()`` there. Cancelling is permanent. Thread-safe: share it freely."""

    def __new__(cls) -> Self:
        """A token that is not cancelled yet."""

    def cancel(self) -> None:
        """Cancel every fire watching this token, now and later. Never blocks."""

    def is_cancelled(self) -> bool:
        """Whether ``cancel()`` was called."""

def claude_code_defaults(project_dir: str | PathLike[str]) -> dict[str, Any]:
    """The configuration Claude Code itself would load for the project at ``project_dir``: an
    envelope with ``~/.claude/settings.json``, then the project's ``.claude/settings.json`` and
    ``.claude/settings.local.json``, the project ones gated on the default trust store.
    ``project_dir`` is resolved to its canonical path; one that cannot be resolved raises
    ``OSError``."""

def host_step(result: dict[str, Any] | str | bytes) -> dict[str, Any]:
    """What an agent loop does next with a result (agents.md §5): a dict with ``event``,
    ``action`` (``run_tool``, ``deny_tool``, ``defer_tool``, ``deliver_result``, ``call_model``,
    ``block_prompt``, ``continue_turn``, ``end_turn``, ``switch_model``, ``keep_model``,
    ``proceed``), ``tool_input``, ``message``, ``feedback``, ``tool_output``, ``prompt``,
    ``context``, ``user_message``, ``stop``, ``seen_by`` (who sees each text) and ``approved``
    (a ``run_tool`` a hook allowed: the host's own approval is not asked).
    Raises ``EventError`` for something that is not a result."""

def host_step_for(result: dict[str, Any] | str | bytes, tool_response: str) -> dict[str, Any]:
    """As ``host_step``, for a PostToolUse result of a tool whose output, as JSON text, was
    ``tool_response``: ``tool_output`` is kept only when it has the JSON kind of that output,
    else it is ``None`` (keep the real output). Raises ``EventError``."""

def host_event(facts: dict[str, Any] | str | bytes) -> dict[str, Any]:
    """The event a host fires, built by the core's one rule from the framework's facts
    (schema/host-facts.schema.json: ``event``, ``session_id``, ``cwd``, then what the event
    needs: ``tool_name`` with ``tool_names``, ``tool_input``, ``prompt``, ``error``, ...):
    Claude Code's key order, ``transcript_path`` only when given, ``permission_mode``
    ``default`` unless given, the tool name mapped through ``tool_names``, ``tool_input``
    always an object. Raises ``EventError`` (``invalid_json``, or ``invalid_event`` with a
    pointer to the fact at fault)."""

def record_trust(config: dict[str, Any] | str | bytes) -> dict[str, Any]:
    """Record the SHA-256 of every project and local file source of ``config`` in the trust
    store (``trust.store``, else ``$XDG_CONFIG_HOME/hookwire/trust.json`` or
    ``~/.config/hookwire/trust.json``; written atomically, mode 0600) and return the new
    trust status, shaped as ``Dispatcher.trust_status()``. Call it after the user approved;
    dispatchers built afterwards run those sources until a file changes. Raises
    ``ConfigError`` (including pointer ``/project_dir`` when it is missing) and
    ``HookwireError`` (``internal``: the store could not be written)."""

def set_log_sink(fn: Callable[[int, str, str, dict[str, Any]], None] | None, level: int) -> None:
    """Register ``fn(level, target, message, fields)`` as the process's log sink at ``level``
    (0 off, 1 error, 2 warn, 3 info, 4 debug, 5 trace), replacing an earlier one; ``None`` or
    level 0 turns logging off. ``fn`` is called on the thread that emitted the record, with the
    GIL held for the call; its exceptions go to ``sys.unraisablehook``. When this returns, the
    earlier sink is not running on any thread. Raises ``ValueError`` for another level,
    ``TypeError`` when ``fn`` is not callable, ``HookwireError`` when called from the sink.
    Use ``hookwire.enable_logging``, which feeds ``logging``."""

class HookwireError(Exception):
    """Base of every hookwire error; raised itself for ``panic`` and ``internal``."""

    kind: str
    """One of the stable kinds: ``invalid_utf8``, ``invalid_json``, ``invalid_config``,
    ``invalid_event``, ``panic``, ``internal`` (``null_pointer`` never occurs in Python)."""
    line: int | None
    """1-based line of a JSON syntax error."""
    column: int | None
    """1-based column (in bytes) of a JSON syntax error."""
    pointer: str | None
    """JSON pointer to the faulty place of a well-formed document."""

class ConfigError(HookwireError):
    """No dispatcher could be built from the configuration."""

class EventError(HookwireError):
    """The event could not be fired."""
