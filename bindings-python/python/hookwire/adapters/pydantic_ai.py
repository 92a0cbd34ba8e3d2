"""Claude Code-compatible hooks for pydantic-ai agents, as one agent capability.

Supported: ``pydantic-ai-slim >= 2.68, < 3`` (capabilities with ``wrap_node_run``,
``get_wrapper_toolset`` and ``handle_deferred_tool_calls``, ``ToolFailed``; tested with 2.68.0).
Install with the ``pydantic-ai`` extra.

    from hookwire.adapters.pydantic_ai import HookwireCapability
    agent = Agent(model, tools=[...], capabilities=[HookwireCapability(project_dir)])
    result = agent.run_sync("...")

Where each event fires (``run``, ``run_sync``, ``iter`` alike; every hook is fired with
``fire_async``):

- ``wrap_run``: SessionStart (``source`` ``startup``, or ``resume`` with a message history)
  before the run, SessionEnd (``reason: "other"``) after it, also when it fails.
- ``wrap_node_run`` on the ``UserPromptNode``: UserPromptSubmit. A block raises
  ``PromptBlocked`` before any model call; a rewrite replaces the prompt; session and prompt
  context are appended to the prompt (the first request has no other place for them).
- A ``WrapperToolset`` around all of the run's tools (``get_wrapper_toolset``): PreToolUse
  before each call (a deny is a failed tool result, ``ToolFailed``, with the reason; a rewrite
  is validated against the tool's argument schema, then replaces the arguments; a defer
  raises ``ToolCallDeferred``), PostToolUse or PostToolUseFailure after it (block reason and
  context reach the model beside the result as ``ToolReturn.content``; ``updated_tool_output``
  replaces the return value when it has the same JSON type).
- PermissionRequest where pydantic-ai would ask a person: a call held for approval (a tool
  with ``requires_approval=True``, or one that raised ``ApprovalRequired``) reaches the
  capability's ``handle_deferred_tool_calls``, which fires PreToolUse first (once per call). A
  PreToolUse ``allow`` approves the call without asking and fires no PermissionRequest (as
  Claude Code skips its prompt); a deny is a ``ToolDenied`` with the reason. Otherwise
  PermissionRequest fires: ``allow`` approves (``ToolApproved``, with its ``updatedInput``),
  ``deny`` is a ``ToolDenied`` with the hook's message (shown to the user as well), and no
  decision leaves the call unresolved: the run ends with ``DeferredToolRequests`` for the person
  as it would without hooks (the agent's ``output_type`` must allow it, as pydantic-ai
  requires). When the approved call runs (in this run, or a later one given
  ``deferred_tool_results``), PreToolUse is not fired again.
- ``permission_tools`` (tool names, or ``needs(name, input) -> bool``): tools without
  pydantic-ai's approval that need permission with nobody to ask; PermissionRequest fires
  after PreToolUse and decides (no decision denies, as a ``ToolFailed``).
- ``wrap_node_run`` when the graph reaches ``End``: Stop. A block sends the reason as a new
  user prompt to the model (one more ``ModelRequestNode``), and the run's output is then the
  model's next answer.

Every event is built by the core (``hookwire.host_event``) from what pydantic-ai knows: no
``transcript_path``, ``permission_mode`` ``default`` unless given.

Options beside ``session_id=`` (else the run's ``conversation_id``, which pydantic-ai carries
across runs through ``message_history``), ``cwd=``, ``permission_mode=`` and
``on_user_message=``: ``trust`` (how a project directory's own hook files are trusted, as for
every adapter: see ``hookwire.adapters``), ``tool_names`` (framework name -> the name hooks
match, over ``DEFAULT_TOOL_NAMES``: the common map of ``hookwire.adapters``, in which
``web_fetch`` is pydantic-ai's ``web_fetch_tool``, and ``duckduckgo_search``,
``tavily_search``, ``exa_search`` -> ``WebSearch``; ``None`` or ``{}`` maps nothing) and
``permission_tools``.

What pydantic-ai cannot express, each with a warning (``AdapterWarning``) once per capability:
a tool that raises another exception than ``ToolFailed`` (PostToolUseFailure fires, but its
block or context cannot reach the model: the exception propagates as pydantic-ai decides), and
``continue: false`` after a tool: a run cannot end without an output, so ``RunStopped`` is
raised after the tool ran (no further model call). A tool no hook on a tool event can match
gives one ``AdapterWarning`` when first called.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import ValidationError
from pydantic_ai import ModelRetry, RunContext
from pydantic_ai.agent import ModelRequestNode, UserPromptNode
from pydantic_ai.capabilities import AbstractCapability
from pydantic_ai.exceptions import ApprovalRequired, CallDeferred, ToolFailed
from pydantic_ai.messages import ModelRequest, ModelResponse, TextPart, ToolCallPart, ToolReturn, UserPromptPart
from pydantic_ai.tools import DeferredToolRequests, DeferredToolResults, ToolApproved, ToolDenied
from pydantic_ai.toolsets import AbstractToolset, WrapperToolset
from pydantic_ai.toolsets.abstract import ToolsetTool
from pydantic_graph import End

import hookwire
from hookwire.adapters._base import (
    COMMON_TOOL_NAMES,
    DEFAULT,
    HookFirer,
    Hooks,
    PermissionTools,
    PromptBlocked,
    RunStopped,
    Step,
    ToolCallDeferred,
    Trust,
    UserMessageCallback,
    bad_rewrite_message,
    merged,
    with_text,
)

__all__ = ["DEFAULT_TOOL_NAMES", "HookwireCapability"]

#: The tool names mapped by default: the common ones and pydantic-ai's common tools
#: (``web_fetch_tool``, ``duckduckgo_search_tool``, ``tavily_search_tool``, ``exa_search``).
DEFAULT_TOOL_NAMES: Mapping[str, str] = {
    **COMMON_TOOL_NAMES,
    "duckduckgo_search": "WebSearch",
    "tavily_search": "WebSearch",
    "exa_search": "WebSearch",
}

#: pydantic-ai's own control-flow signals from a tool: not failures, passed through unhooked.
_CONTROL = (ModelRetry, CallDeferred, ApprovalRequired)


class HookwireCapability(AbstractCapability[Any]):
    """A pydantic-ai capability that runs Claude Code hooks around an agent's loop.

    ``hooks``: a ``hookwire.Dispatcher``, or a project directory whose Claude Code settings are
    loaded (``hookwire.claude_code_defaults``) with the project's files trusted as ``trust``
    says. ``on_user_message(text, event)`` receives text meant for the user; without it that
    text goes to the ``hookwire.adapters`` logger. One instance may serve many runs: each run
    gets its own copy (``for_run``). See the module docstring for the options.
    """

    def __init__(
        self,
        hooks: Hooks,
        *,
        session_id: str | None = None,
        cwd: str | os.PathLike[str] | None = None,
        permission_mode: str | None = None,
        on_user_message: UserMessageCallback | None = None,
        trust: Trust | None = None,
        tool_names: Mapping[str, str] | None = DEFAULT,
        permission_tools: PermissionTools = None,
        _firer: HookFirer | None = None,
    ) -> None:
        self._firer = _firer or HookFirer(
            hooks,
            session_id=session_id,
            cwd=cwd,
            permission_mode=permission_mode,
            on_user_message=on_user_message,
            adapter="pydantic-ai",
            trust=trust,
            tool_names=tool_names,
            default_tool_names=DEFAULT_TOOL_NAMES,
            permission_tools=permission_tools,
        )
        self._session_id = ""
        self._stop_blocks = 0
        self._halt: Step | None = None
        self._start_context: str | None = None
        #: call id -> the PreToolUse step of a call that then asked for approval itself.
        self._held: dict[str, Step] = {}

    async def for_run(self, ctx: RunContext[Any]) -> HookwireCapability:
        """A copy with this run's state (session id, Stop count), sharing the dispatcher."""
        run = HookwireCapability(None, _firer=self._firer)  # type: ignore[arg-type]
        run._session_id = self._firer.fixed_session_id or ctx.conversation_id or self._firer.new_session_id()
        return run

    def get_wrapper_toolset(self, toolset: AbstractToolset[Any]) -> AbstractToolset[Any] | None:
        return _HookedToolset(toolset, run=self)

    # --- SessionStart, SessionEnd --------------------------------------------------------------

    async def wrap_run(self, ctx: RunContext[Any], *, handler: Any) -> Any:
        source = "resume" if ctx.messages else "startup"
        start = await self._firer.afire(self._firer.event("SessionStart", self._session_id, source=source))
        self._start_context = start.context
        try:
            return await handler()
        finally:
            await self._firer.afire(self._firer.event("SessionEnd", self._session_id))

    # --- UserPromptSubmit, Stop -------------------------------------------------------------

    async def wrap_node_run(self, ctx: RunContext[Any], *, node: Any, handler: Any) -> Any:
        if isinstance(node, UserPromptNode) and node.user_prompt is not None:
            await self._submit(node)
        result = await handler(node)
        if self._halt is not None:
            raise RunStopped(self._halt.event, self._halt.user_message)
        if isinstance(result, End):
            return await self._stop(ctx, result)
        return result

    async def _submit(self, node: UserPromptNode[Any, Any]) -> None:
        prompt = node.user_prompt
        text = prompt if isinstance(prompt, str) else "\n".join(p for p in prompt or () if isinstance(p, str))
        step = await self._firer.afire(self._firer.event("UserPromptSubmit", self._session_id, prompt=text))
        if step.action == "block_prompt":
            raise PromptBlocked(step.user_message)
        if step.prompt is not None:
            prompt = step.prompt
        extra = [t for t in (self._start_context, step.context) if t]
        if extra:
            prompt = with_text(prompt, *extra) if isinstance(prompt, str) else [*(prompt or ()), *extra]
        node.user_prompt = prompt

    async def _stop(self, ctx: RunContext[Any], end: End[Any]) -> Any:
        if isinstance(getattr(end.data, "output", None), DeferredToolRequests):
            return end  # the run waits for a person's approval: the turn is not over
        event = self._firer.event(
            "Stop",
            self._session_id,
            stop_hook_active=self._stop_blocks > 0,
            last_assistant_message=_last_text(ctx),
        )
        step = await self._firer.afire(event)
        if step.action != "continue_turn":
            self._stop_blocks = 0
            return end
        if self._stop_blocks >= hookwire.MAX_STOP_CONTINUATIONS:
            self._firer.warn_once(
                "stop-bound", f"Stop hooks blocked {self._stop_blocks} consecutive times; the adapter's bound ends the turn"
            )
            return end
        self._stop_blocks += 1
        text = with_text(step.message or "", step.context)
        return ModelRequestNode(request=ModelRequest(parts=[UserPromptPart(text)]))

    # --- PermissionRequest, where pydantic-ai would ask a person ------------------------------

    async def handle_deferred_tool_calls(
        self, ctx: RunContext[Any], *, requests: DeferredToolRequests
    ) -> DeferredToolResults | None:
        approvals: dict[str, bool | ToolApproved | ToolDenied] = {}
        for call in requests.approvals:
            decided = await self._approval(call)
            if decided is not None:
                approvals[call.tool_call_id] = decided
        return DeferredToolResults(approvals=approvals) if approvals else None

    async def _approval(self, call: ToolCallPart) -> ToolApproved | ToolDenied | None:
        """PreToolUse (unless the call fired it before asking), then PermissionRequest unless a
        hook allowed the call: the approval, the denial, or None to ask the person."""
        firer, name, cid = self._firer, call.tool_name, call.tool_call_id
        args = call.args_as_dict()
        pre = self._held.pop(cid, None)
        if pre is None:
            pre = await firer.afire(firer.event("PreToolUse", self._session_id, tool_name=name, tool_input=args, tool_use_id=cid))
        if pre.action == "defer_tool":
            raise ToolCallDeferred(name, args, cid)
        self._halt_after_tool(pre)
        if pre.action == "deny_tool":
            return ToolDenied(with_text(pre.message or "", pre.context))
        try:
            rewrite = firer.replacement_input(pre, name)
        except ValueError as error:
            firer.warn_once("bad-rewrite", str(error))
            return ToolDenied(bad_rewrite_message(name, error))
        if pre.approved:
            firer.remember(cid, name, replace(pre, tool_input=None))
            return ToolApproved(override_args=rewrite)
        facts = firer.permission_facts(name, rewrite if rewrite is not None else args)
        asked = await firer.aask(firer.event("PermissionRequest", self._session_id, **facts), someone_to_ask=True)
        if not asked.decided:
            firer.remember(cid, name, pre)  # the person approves the call as made; the hook's rewrite still applies
            return None
        self._halt_after_tool(asked)
        if asked.action == "deny_tool":
            return ToolDenied(with_text(asked.message or "", pre.context, asked.context))
        try:
            override = firer.replacement_input(asked, name) or rewrite
        except ValueError as error:
            firer.warn_once("bad-rewrite", str(error))
            return ToolDenied(bad_rewrite_message(name, error))
        firer.remember(cid, name, replace(merged(pre, asked), tool_input=None))
        return ToolApproved(override_args=override)

    # --- called by _HookedToolset ---------------------------------------------------------------

    def _halt_after_tool(self, step: Step) -> None:
        if step.stop and self._halt is None:
            self._halt = step


@dataclass
class _HookedToolset(WrapperToolset[Any]):
    """Every tool of the run, with PreToolUse before and PostToolUse(Failure) after it.

    A dataclass like its base: pydantic-ai copies toolsets with ``dataclasses.replace``."""

    run: HookwireCapability = field(kw_only=True)

    async def call_tool(self, name: str, tool_args: dict[str, Any], ctx: RunContext[Any], tool: ToolsetTool[Any]) -> Any:
        run, firer = self.run, self.run._firer
        cid = ctx.tool_call_id
        fields = {"tool_name": name, "tool_input": tool_args, "tool_use_id": cid}
        pre = firer.recall(cid, name) if ctx.tool_call_approved else None
        if pre is None:
            pre = await firer.afire(firer.event("PreToolUse", run._session_id, **fields))
            if pre.action == "defer_tool":
                raise ToolCallDeferred(name, tool_args, cid)
            run._halt_after_tool(pre)
            if pre.action == "deny_tool":
                raise ToolFailed(with_text(pre.message or "", pre.context))
        args, fields["tool_input"] = _rewritten(firer, pre, name, tool, tool_args, fields["tool_input"])
        if pre.approved:
            ctx = replace(ctx, tool_call_approved=True)
        elif not ctx.tool_call_approved and firer.needs_permission(name, fields["tool_input"]):
            facts = firer.permission_facts(name, fields["tool_input"])
            asked = await firer.aask(firer.event("PermissionRequest", run._session_id, **facts), someone_to_ask=False)
            run._halt_after_tool(asked)
            if asked.action == "deny_tool":
                raise ToolFailed(with_text(asked.message or "", pre.context, asked.context))
            args, fields["tool_input"] = _rewritten(firer, asked, name, tool, args, fields["tool_input"])
            pre = merged(pre, asked)
        try:
            result = await super().call_tool(name, args, ctx, tool)
        except ApprovalRequired:
            if cid is not None and not ctx.tool_call_approved:
                run._held[cid] = pre  # the approval fires PermissionRequest, not PreToolUse again
            raise
        except _CONTROL:
            raise
        except ToolFailed as failed:
            post = await firer.afire(firer.event("PostToolUseFailure", run._session_id, **fields, error=failed.message))
            run._halt_after_tool(post)
            raise ToolFailed(with_text(failed.message, pre.context, post.feedback, post.context)) from failed
        except Exception as error:
            post = await firer.afire(
                firer.event("PostToolUseFailure", run._session_id, **fields, error=str(error), error_type=type(error).__name__)
            )
            if post.feedback or post.context:
                firer.warn_once(
                    "raised",
                    f"tool {name!r} raised {type(error).__name__}: PostToolUseFailure's block or context cannot reach the model",
                )
            raise
        value = result.return_value if isinstance(result, ToolReturn) else result
        post = await firer.afire(firer.event("PostToolUse", run._session_id, **fields, tool_response=value))
        run._halt_after_tool(post)
        return _deliver(firer, name, result, value, pre, post)


def _rewritten(
    firer: HookFirer, step: Step, name: str, tool: ToolsetTool[Any], args: Any, shown: Any
) -> tuple[Any, Any]:
    """The call's arguments after a hook's rewrite, validated against the tool's schema, and the
    ``tool_input`` the later events show; unchanged when the step has none. A rewrite the tool
    does not accept raises ``ToolFailed``."""
    try:
        replacement = firer.replacement_input(step, name)
        if replacement is None:
            return args, shown
        return tool.args_validator.validate_python(replacement), replacement
    except (ValueError, ValidationError) as error:
        firer.warn_once("bad-rewrite", str(error))
        raise ToolFailed(bad_rewrite_message(name, error)) from None


def _deliver(firer: HookFirer, name: str, result: Any, value: Any, pre: Step, post: Step) -> Any:
    """The tool's result with the hooks' replacement output and their texts beside it."""
    if post.tool_output is not None:
        value = post.tool_output
    elif post.tool_output_refused:
        firer.warn_once("tool-output", f"PostToolUse updated_tool_output does not fit what tool {name!r} returned; kept the original")
    texts = [t for t in (pre.context, post.feedback, post.context) if t]
    if not texts and value is (result.return_value if isinstance(result, ToolReturn) else result):
        return result
    if isinstance(result, ToolReturn):
        earlier = result.content
        content: Any = [*([earlier] if isinstance(earlier, str) else (earlier or ())), *texts]
        return ToolReturn(return_value=value, content=content or None, metadata=result.metadata)
    return ToolReturn(return_value=value, content="\n\n".join(texts) if texts else None)


def _last_text(ctx: RunContext[Any]) -> str | None:
    for message in reversed(ctx.messages):
        if isinstance(message, ModelResponse):
            texts = [p.content for p in message.parts if isinstance(p, TextPart)]
            return "".join(texts) if texts else None
    return None
