"""Claude Code-compatible hooks for agents built on agent frameworks.

One module per framework, each imported on its own so that ``hookwire`` itself depends on no
framework (install the matching extra: ``langchain``, ``openai-agents``, ``pydantic-ai``):

- ``hookwire.adapters.langchain``: ``HookwireMiddleware``, an agent middleware for
  ``langchain.agents.create_agent(..., middleware=[...])``.
- ``hookwire.adapters.openai_agents``: ``HookwireRunner``, which wraps an Agents SDK agent's
  function tools and drives ``agents.Runner`` (prompt, Stop and session events).
- ``hookwire.adapters.pydantic_ai``: ``HookwireCapability``, a capability for
  ``pydantic_ai.Agent(..., capabilities=[...])``.

Every adapter takes a ``hookwire.Dispatcher`` or a project directory (then it loads what Claude
Code would, ``hookwire.claude_code_defaults(project_dir)``, with the project's own hook files
trusted as ``trust=`` says: ``"store"`` (default), ``"trusted"``, ``"untrusted"``; files skipped
for want of trust give one ``UntrustedHooksWarning``), fires the events of Claude Code's loop,
each built by the core from the framework's facts (``hookwire.host_event``), and applies each
result through ``hookwire.host_step``: the adapters only translate that step into the
framework's terms.

``trust="store"`` runs the project's ``.claude/settings.json`` and ``.claude/settings.local.json``
once the user approved them and the host recorded it with
``hookwire.record_trust(hookwire.claude_code_defaults(project_dir))`` (until a file changes);
``"trusted"``: the host vouches for the project's files; ``"untrusted"``: they never run.

``tool_names=`` maps framework tool names to the names hooks match, over each module's
``DEFAULT_TOOL_NAMES``: the common map (``bash``, ``shell``, ``run_shell_command`` -> ``Bash``,
``read_file`` -> ``Read``, ``write_file`` -> ``Write``, ``edit_file`` -> ``Edit``, ``glob`` ->
``Glob``, ``grep`` -> ``Grep``, ``web_fetch``, ``fetch`` -> ``WebFetch``, ``web_search`` ->
``WebSearch``) and the names of the framework's bundled tools; a user's entry overrides a
default one, ``None`` or ``{}`` maps nothing. A tool that no hook on a tool event can match,
while there are such hooks, gives one ``AdapterWarning`` when first called.

PermissionRequest fires where the framework's own approval would ask a person (and for
``permission_tools=`` where nobody is asked). A blocked prompt raises ``PromptBlocked`` in every
adapter. This module imports nothing heavy.
"""

from __future__ import annotations

from hookwire.adapters._base import (
    AdapterWarning,
    HookwireAdapterError,
    PromptBlocked,
    RunStopped,
    ToolCallDeferred,
    UntrustedHooksWarning,
)

__all__ = [
    "AdapterWarning",
    "HookwireAdapterError",
    "PromptBlocked",
    "RunStopped",
    "ToolCallDeferred",
    "UntrustedHooksWarning",
]
