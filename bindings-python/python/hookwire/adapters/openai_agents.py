"""Claude Code-compatible hooks for OpenAI Agents SDK agents (``openai-agents``).

Supported: ``openai-agents >= 0.24, < 0.25`` (tested with 0.24.0; the SDK is pre-1.0 and
changes its tool and runner internals between minor versions). Install with
``pip install 'hookwire[openai-agents]'``.

    from hookwire.adapters.openai_agents import HookwireRunner
    runner = HookwireRunner(project_dir)
    result = runner.run_sync(agent, "...")          # or: await runner.run(agent, "...")

The SDK's run ends when the model answers without tool calls, and its lifecycle hooks
(``RunHooks``) only observe, so the adapter is a runner around ``agents.Runner``:

- SessionStart before the run, SessionEnd after it (also when it fails).
- UserPromptSubmit on the input (a string, or the last user message of an input list). A block
  raises ``PromptBlocked`` before any model call; a rewrite replaces the prompt; session and
  prompt context follow it as ``system`` input items.
- The agent is cloned with each ``FunctionTool`` wrapped (``on_invoke_tool``): PreToolUse
  before the call (a deny returns the reason as the tool output and the tool does not run; a
  rewrite replaces the JSON arguments, which the tool then validates as usual; a defer raises
  ``ToolCallDeferred``), PostToolUse or PostToolUseFailure after it (block reason and context
  appended to the output, ``updated_tool_output`` replaces it when of the same JSON type).
  ``continue: false`` ends the run after the tool with the tool's output as final output, as the
  SDK's own ``stop_on_first_tool`` does.
- Stop when ``Runner.run`` returns: a block runs the agent once more on the run's history
  (``result.to_input_list()``) plus the reason as a user message, ``stop_hook_active`` true.

Session id: ``session_id=`` if given, else a UUID per ``run``.

What the SDK cannot express, each with a warning (``AdapterWarning``) once per runner: hosted
tools (web search, file search, computer, MCP) and the tools of handoff targets are not
hooked; a tool whose exception the SDK's failure handler turns into text for the model reaches
hooks as PostToolUse with that text (the SDK hides the failure); a wrapped tool that raises
fires PostToolUseFailure but its block or context cannot reach the model.
"""

from __future__ import annotations

import asyncio
import copy
import inspect
import json
import os
from collections.abc import Awaitable, Callable
from typing import Any

from agents import Agent, FunctionTool, Runner, RunResult
from agents.agent import ToolsToFinalOutputResult
from agents.exceptions import AgentsException
from agents.tool_context import ToolContext

from hookwire.adapters._base import (
    MAX_STOP_CONTINUATIONS,
    HookFirer,
    HookwireAdapterError,
    Hooks,
    PromptBlocked,
    Step,
    ToolCallDeferred,
    UserMessageCallback,
    as_json,
    as_text,
    bad_rewrite_message,
    fits,
    with_text,
)

__all__ = ["HookwireRunner"]


class _Run:
    """One ``HookwireRunner.run``: its session and whether a hook stopped it."""

    def __init__(self, session_id: str) -> None:
        self.session_id = session_id
        self.halted = False

    def halt_if(self, step: Step) -> None:
        self.halted = self.halted or step.stop


class HookwireRunner:
    """Runs Agents SDK agents with Claude Code hooks around their loop.

    ``hooks``: a ``hookwire.Dispatcher``, or a project directory whose Claude Code settings are
    loaded (``Dispatcher.from_claude_code_defaults``). ``on_user_message(text, event)``
    receives text meant for the user; without it that text goes to the ``hookwire.adapters``
    logger. ``run``/``run_sync`` take ``agents.Runner.run``'s keyword arguments.
    """

    def __init__(
        self,
        hooks: Hooks,
        *,
        session_id: str | None = None,
        cwd: str | os.PathLike[str] | None = None,
        permission_mode: str = "default",
        on_user_message: UserMessageCallback | None = None,
    ) -> None:
        self._firer = HookFirer(
            hooks,
            session_id=session_id,
            cwd=cwd,
            permission_mode=permission_mode,
            on_user_message=on_user_message,
            adapter="openai-agents",
        )

    def run_sync(self, agent: Agent[Any], input: str | list[Any], **kwargs: Any) -> RunResult:
        """``run`` on a new event loop (like ``Runner.run_sync``)."""
        return asyncio.run(self.run(agent, input, **kwargs))

    async def run(self, agent: Agent[Any], input: str | list[Any], **kwargs: Any) -> RunResult:
        """Run ``agent`` on ``input`` with hooks; return the last ``RunResult``.

        Raises ``PromptBlocked`` (no model call), ``ToolCallDeferred`` (pending tool call), and
        whatever ``Runner.run`` raises."""
        firer = self._firer
        run = _Run(firer.new_session_id())
        start = await firer.afire(firer.event("SessionStart", run.session_id, source="startup"))
        try:
            items = await self._submit(run, input, start)
            hooked = self.hooked_agent(agent, run)
            blocks = 0
            while True:
                result = await _unwrapped(Runner.run(hooked, items, **kwargs))
                if run.halted:
                    return result
                stop = await firer.afire(
                    firer.event(
                        "Stop",
                        run.session_id,
                        stop_hook_active=blocks > 0,
                        last_assistant_message=as_text(result.final_output) if result.final_output is not None else None,
                    )
                )
                if stop.action != "continue_turn":
                    return result
                if blocks >= MAX_STOP_CONTINUATIONS:
                    firer.warn_once("stop-bound", f"Stop hooks blocked {blocks} consecutive times; the adapter's bound ends the turn")
                    return result
                blocks += 1
                items = [*result.to_input_list(), _message("user", stop.message or "")]
                if stop.context:
                    items.append(_message("system", stop.context))
                hooked = result.last_agent if result.last_agent is not None else hooked
        finally:
            await firer.afire(firer.event("SessionEnd", run.session_id, reason="other"))

    async def _submit(self, run: _Run, input: str | list[Any], start: Step) -> list[Any]:
        """The run's input items after UserPromptSubmit (and SessionStart's context)."""
        items: list[Any] = [_message("user", input)] if isinstance(input, str) else list(input)
        index = next((i for i in range(len(items) - 1, -1, -1) if _is_user(items[i])), None)
        contexts = [start.context] if start.context else []
        if index is not None:
            prompt = _content_text(items[index].get("content"))
            step = await self._firer.afire(self._firer.event("UserPromptSubmit", run.session_id, prompt=prompt))
            if step.action == "block_prompt":
                raise PromptBlocked(step.user_message)
            if step.prompt is not None:
                items[index] = {**items[index], "content": step.prompt}
            if step.context:
                contexts.append(step.context)
        at = len(items) if index is None else index + 1
        items[at:at] = [_message("system", c) for c in contexts]
        return items

    def hooked_agent(self, agent: Agent[Any], run: _Run) -> Agent[Any]:
        """A clone of ``agent`` whose function tools fire PreToolUse and PostToolUse."""
        tools: list[Any] = []
        for tool in agent.tools:
            if isinstance(tool, FunctionTool):
                tools.append(self._hooked_tool(tool, run))
            else:
                self._firer.warn_once("hosted-tool", f"tool {getattr(tool, 'name', tool)!r} is not a FunctionTool and is not hooked")
                tools.append(tool)
        if agent.handoffs:
            self._firer.warn_once("handoffs", "the tools of handoff targets are not hooked")
        return agent.clone(tools=tools, tool_use_behavior=_halting(agent.tool_use_behavior, run))

    def _hooked_tool(self, tool: FunctionTool, run: _Run) -> FunctionTool:
        firer = self._firer
        invoke_original = tool.on_invoke_tool

        async def invoke(ctx: ToolContext[Any], raw: str) -> Any:
            args = _parse(raw)
            fields = {"tool_name": tool.name, "tool_input": args, "tool_use_id": ctx.tool_call_id}
            pre = await firer.afire(firer.event("PreToolUse", run.session_id, **fields))
            if pre.action == "defer_tool":
                raise ToolCallDeferred(tool.name, args, ctx.tool_call_id)
            run.halt_if(pre)
            if pre.action == "deny_tool":
                return with_text(pre.message or "", pre.context)
            try:
                replacement = firer.replacement_input(pre, tool.name)
            except ValueError as error:
                firer.warn_once("bad-rewrite", str(error))
                return bad_rewrite_message(tool.name, error)
            if replacement is not None:
                raw, fields["tool_input"] = json.dumps(replacement), replacement
            return await _call_and_post(firer, run, tool.name, fields, pre, lambda: invoke_original(ctx, raw))

        hooked = copy.copy(tool)
        hooked.on_invoke_tool = invoke
        return hooked


async def _call_and_post(
    firer: HookFirer, run: _Run, name: str, fields: dict[str, Any], pre: Step, call: Callable[[], Awaitable[Any]]
) -> Any:
    """Runs the tool, fires PostToolUse (or PostToolUseFailure) and applies its step."""
    try:
        output = await call()
    except Exception as error:
        post = await firer.afire(
            firer.event("PostToolUseFailure", run.session_id, **fields, error=f"{type(error).__name__}: {error}", is_interrupt=False)
        )
        run.halt_if(post)
        if post.feedback or post.context:
            firer.warn_once("raised", f"tool {name!r} raised: PostToolUseFailure's block or context cannot reach the model")
        raise
    post = await firer.afire(firer.event("PostToolUse", run.session_id, **fields, tool_response=as_json(output)))
    run.halt_if(post)
    if post.tool_output is not None:
        if fits(output, post.tool_output):
            output = post.tool_output
        else:
            firer.warn_once("tool-output", f"PostToolUse updated_tool_output does not fit what tool {name!r} returned; kept the original")
    texts = [t for t in (pre.context, post.feedback, post.context) if t]
    return with_text(as_text(output), *texts) if texts else output


async def _unwrapped(run: Awaitable[RunResult]) -> RunResult:
    """``run``'s result; a ``ToolCallDeferred`` the SDK wrapped (it raises ``UserError("Error
    running tool ...") from`` a tool's exception) is raised as itself for the caller."""
    try:
        return await run
    except AgentsException as error:
        cause = error.__cause__
        while cause is not None and not isinstance(cause, HookwireAdapterError):
            cause = cause.__cause__
        if cause is None:
            raise
        raise cause from error


def _halting(behavior: Any, run: _Run) -> Callable[..., Awaitable[ToolsToFinalOutputResult]]:
    """The agent's ``tool_use_behavior``, except that a run a hook stopped ends after the tools
    with their output as the final output (no further model call)."""

    async def decide(ctx: Any, results: list[Any]) -> ToolsToFinalOutputResult:
        if run.halted and results:
            return ToolsToFinalOutputResult(is_final_output=True, final_output=results[-1].output)
        if callable(behavior):
            decided = behavior(ctx, results)
            outcome: ToolsToFinalOutputResult = await decided if inspect.isawaitable(decided) else decided
            return outcome
        if behavior == "stop_on_first_tool" and results:
            return ToolsToFinalOutputResult(is_final_output=True, final_output=results[0].output)
        if isinstance(behavior, dict):
            names = behavior.get("stop_at_tool_names", [])
            for r in results:
                if r.tool.name in names:
                    return ToolsToFinalOutputResult(is_final_output=True, final_output=r.output)
        return ToolsToFinalOutputResult(is_final_output=False, final_output=None)

    return decide


def _message(role: str, content: str) -> dict[str, Any]:
    return {"role": role, "content": content}


def _is_user(item: Any) -> bool:
    return isinstance(item, dict) and item.get("role") == "user" and item.get("type", "message") == "message"


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(p.get("text", "") for p in content if isinstance(p, dict) and isinstance(p.get("text"), str))
    return ""


def _parse(raw: str) -> dict[str, Any]:
    """The model's JSON arguments as an object for the event; anything else as ``{"input": raw}``
    (the tool itself reports malformed arguments to the model)."""
    try:
        value = json.loads(raw) if raw else {}
    except ValueError:
        return {"input": raw}
    return value if isinstance(value, dict) else {"input": value}
