"""Claude Code-compatible hooks for OpenAI Agents SDK agents (``openai-agents``).

Supported: ``openai-agents >= 0.24, < 0.25`` (tested with 0.24.0; the SDK is pre-1.0 and
changes its tool and runner internals between minor versions). Install with the
``openai-agents`` extra.

    from hookwire.adapters.openai_agents import HookwireRunner
    runner = HookwireRunner(project_dir)
    result = runner.run_sync(agent, "...")          # or: await runner.run(agent, "...")

The SDK's run ends when the model answers without tool calls, and its lifecycle hooks
(``RunHooks``) only observe, so the adapter is a runner around ``agents.Runner``:

- SessionStart before the run, SessionEnd after it (also when it fails; not while the run is
  paused for a person's approval).
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
- PermissionRequest where the SDK would ask a person: a tool with ``needs_approval`` (a bool,
  or the SDK's callable) gets, in the clone, an approval check that fires PreToolUse first. A
  PreToolUse ``allow`` runs the tool without asking and fires no PermissionRequest (as Claude
  Code skips its prompt); a deny or defer is applied as above. Otherwise, when the tool's own
  ``needs_approval`` says yes, PermissionRequest fires: ``allow`` runs the tool (with its
  ``updatedInput``), ``deny`` returns the hook's message as the tool output (shown to the user
  as well), and no decision leaves the SDK's approval in charge: the run returns with
  ``result.interruptions`` as it would without hooks. Resume it as usual
  (``state = result.to_state(); state.approve(item)``) with ``runner.run(agent, state)``: the
  approved call runs without firing PreToolUse again, no prompt event fires, and Stop and
  SessionEnd fire when the run ends.
- ``permission_tools`` (tool names, or ``needs(name, input) -> bool``): tools without
  ``needs_approval`` that need permission with nobody to ask; PermissionRequest fires after
  PreToolUse and decides (no decision denies).
- Stop when ``Runner.run`` returns a final output: a block runs the agent once more on the
  run's history (``result.to_input_list()``) plus the reason as a user message,
  ``stop_hook_active`` true.

Every event is built by the core (``hookwire.host_event``) from what the SDK knows: no
``transcript_path``, ``permission_mode`` ``default`` unless given.

Options beside ``session_id=`` (else a UUID per ``run``), ``cwd=``, ``permission_mode=`` and
``on_user_message=``: ``trust`` (how a project directory's own hook files are trusted, as for
every adapter: see ``hookwire.adapters``), ``tool_names`` (framework name -> the name hooks
match, over ``DEFAULT_TOOL_NAMES``, the common map of ``hookwire.adapters``: ``bash``, ``shell``,
``run_shell_command`` -> ``Bash``, ``read_file`` -> ``Read``, ...; ``None`` or ``{}`` maps
nothing; the SDK's own shell, apply-patch and hosted tools are not function tools and are
not hooked) and ``permission_tools``.

What the SDK cannot express, each with a warning (``AdapterWarning``) once per runner: hosted
tools (web search, file search, computer, MCP) and the tools of handoff targets are not
hooked; a tool whose exception the SDK's failure handler turns into text for the model reaches
hooks as PostToolUse with that text (the SDK hides the failure); a wrapped tool that raises
fires PostToolUseFailure but its block or context cannot reach the model. A tool no hook on a
tool event can match gives one ``AdapterWarning`` when first called.
"""

from __future__ import annotations

import asyncio
import copy
import inspect
import json
import os
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from agents import Agent, FunctionTool, Runner, RunResult, RunState
from agents.agent import ToolsToFinalOutputResult
from agents.exceptions import AgentsException
from agents.tool_context import ToolContext

import hookwire
from hookwire.adapters._base import (
    COMMON_TOOL_NAMES,
    DEFAULT,
    HookFirer,
    HookwireAdapterError,
    Hooks,
    PermissionTools,
    PromptBlocked,
    Step,
    ToolCallDeferred,
    Trust,
    UserMessageCallback,
    as_text,
    bad_rewrite_message,
    merged,
    with_text,
)

__all__ = ["DEFAULT_TOOL_NAMES", "HookwireRunner"]

#: The tool names mapped by default. The SDK's own shell (``shell``, ``local_shell``) and
#: ``apply_patch`` tools are not function tools and are not hooked; a function tool named
#: after the common names is.
DEFAULT_TOOL_NAMES: Mapping[str, str] = dict(COMMON_TOOL_NAMES)


class _Run:
    """One run of ``HookwireRunner.run`` (and its resumptions): its session, whether a hook
    stopped it, and what the approval check of a call already fired."""

    def __init__(self, session_id: str) -> None:
        self.session_id = session_id
        self.halted = False
        #: call id -> the PreToolUse step fired by the approval check.
        self.pre: dict[str, Step] = {}
        #: call id -> the PermissionRequest step that decided.
        self.asked: dict[str, Step] = {}
        #: call id -> what the approval check answered (it may be asked twice).
        self.gates: dict[str, bool] = {}

    def halt_if(self, step: Step) -> None:
        self.halted = self.halted or step.stop


class HookwireRunner:
    """Runs Agents SDK agents with Claude Code hooks around their loop.

    ``hooks``: a ``hookwire.Dispatcher``, or a project directory whose Claude Code settings are
    loaded (``hookwire.claude_code_defaults``) with the project's files trusted as ``trust``
    says. ``on_user_message(text, event)`` receives text meant for the user; without it that
    text goes to the ``hookwire.adapters`` logger. ``run``/``run_sync`` take
    ``agents.Runner.run``'s keyword arguments. See the module docstring for the options.
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
    ) -> None:
        self._firer = HookFirer(
            hooks,
            session_id=session_id,
            cwd=cwd,
            permission_mode=permission_mode,
            on_user_message=on_user_message,
            adapter="openai-agents",
            trust=trust,
            tool_names=tool_names,
            default_tool_names=DEFAULT_TOOL_NAMES,
            permission_tools=permission_tools,
        )

    def run_sync(self, agent: Agent[Any], input: str | list[Any] | RunState[Any], **kwargs: Any) -> RunResult:
        """``run`` on a new event loop (like ``Runner.run_sync``)."""
        return asyncio.run(self.run(agent, input, **kwargs))

    async def run(self, agent: Agent[Any], input: str | list[Any] | RunState[Any], **kwargs: Any) -> RunResult:
        """Run ``agent`` on ``input`` with hooks; return the last ``RunResult``. ``input`` may be
        the ``RunState`` of a run paused for approval (``result.to_state()``), to resume it.

        Raises ``PromptBlocked`` (no model call), ``ToolCallDeferred`` (pending tool call), and
        whatever ``Runner.run`` raises."""
        firer = self._firer
        paused = False
        if isinstance(input, RunState):
            run, hooked = self._resumed(agent, input)
            items: list[Any] | RunState[Any] = input
        else:
            run = _Run(firer.new_session_id())
            start = await firer.afire(firer.event("SessionStart", run.session_id, source="startup"))
        try:
            if not isinstance(input, RunState):
                items = await self._submit(run, input, start)
                hooked = self.hooked_agent(agent, run)
            blocks = 0
            while True:
                result = await _unwrapped(Runner.run(hooked, items, **kwargs))
                if result.interruptions:
                    paused = True  # a person is asked; the session goes on when the run resumes
                    return result
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
                if blocks >= hookwire.MAX_STOP_CONTINUATIONS:
                    firer.warn_once("stop-bound", f"Stop hooks blocked {blocks} consecutive times; the adapter's bound ends the turn")
                    return result
                blocks += 1
                items = [*result.to_input_list(), _message("user", stop.message or "")]
                if stop.context:
                    items.append(_message("system", stop.context))
                hooked = result.last_agent if result.last_agent is not None else hooked
        finally:
            if not paused:
                await firer.afire(firer.event("SessionEnd", run.session_id))

    def _resumed(self, agent: Agent[Any], state: RunState[Any]) -> tuple[_Run, Agent[Any]]:
        """The run a paused state belongs to, and the hooked agent it resumes with. A state
        whose agent this runner did not hook (one read back from JSON with the plain agent) is
        hooked again, in a new session."""
        current = getattr(state, "_current_agent", None) or agent
        behavior = current.tool_use_behavior
        if isinstance(behavior, _Behavior):
            return behavior.run, current
        run = _Run(self._firer.new_session_id())
        hooked = self.hooked_agent(current, run)
        state._current_agent = hooked
        return run, hooked

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
        """A clone of ``agent`` whose function tools fire PreToolUse, PermissionRequest and
        PostToolUse."""
        tools: list[Any] = []
        for tool in agent.tools:
            if isinstance(tool, FunctionTool):
                tools.append(self._hooked_tool(tool, run))
            else:
                self._firer.warn_once("hosted-tool", f"tool {getattr(tool, 'name', tool)!r} is not a FunctionTool and is not hooked")
                tools.append(tool)
        if agent.handoffs:
            self._firer.warn_once("handoffs", "the tools of handoff targets are not hooked")
        return agent.clone(tools=tools, tool_use_behavior=_Behavior(agent.tool_use_behavior, run))

    def _hooked_tool(self, tool: FunctionTool, run: _Run) -> FunctionTool:
        firer = self._firer
        invoke_original = tool.on_invoke_tool
        own_approval = tool.needs_approval

        def pre_event(args: Any, call_id: str | None) -> dict[str, Any]:
            return firer.event("PreToolUse", run.session_id, tool_name=tool.name, tool_input=args, tool_use_id=call_id)

        def permission_event(args: Any) -> dict[str, Any]:
            return firer.event("PermissionRequest", run.session_id, **firer.permission_facts(tool.name, args))

        async def needs_approval(ctx: Any, params: dict[str, Any], call_id: str) -> bool:
            """The SDK's approval check: PreToolUse first; a person is asked only when no hook
            allowed the call, the tool's own check wants one and PermissionRequest decided
            nothing."""
            if call_id in run.gates:
                return run.gates[call_id]
            pre = await firer.afire(pre_event(params, call_id))
            run.pre[call_id] = pre
            ask = False
            if pre.action == "run_tool" and not pre.approved:
                try:
                    args = firer.replacement_input(pre, tool.name) or params
                except ValueError:
                    args = None  # the call reports the bad rewrite
                if args is not None and await _own_check(own_approval, ctx, args, call_id):
                    asked = await firer.aask(permission_event(args), someone_to_ask=True)
                    if asked.decided:
                        run.asked[call_id] = asked
                    else:
                        ask = True
            run.gates[call_id] = ask
            return ask

        async def invoke(ctx: ToolContext[Any], raw: str) -> Any:
            call_id = ctx.tool_call_id
            args = _parse(raw)
            pre = run.pre.pop(call_id, None) or await firer.afire(pre_event(args, call_id))
            fields = {"tool_name": tool.name, "tool_input": args, "tool_use_id": call_id}
            if pre.action == "defer_tool":
                raise ToolCallDeferred(tool.name, args, call_id)
            run.halt_if(pre)
            if pre.action == "deny_tool":
                return with_text(pre.message or "", pre.context)
            raw, refused = rewritten(pre, raw, fields)
            if refused is not None:
                return refused
            asked = run.asked.pop(call_id, None)
            if asked is None and own_approval is False and not pre.approved and firer.needs_permission(tool.name, fields["tool_input"]):
                asked = await firer.aask(permission_event(fields["tool_input"]), someone_to_ask=False)
            if asked is not None:
                run.halt_if(asked)
                if asked.action == "deny_tool":
                    return with_text(asked.message or "", pre.context, asked.context)
                raw, refused = rewritten(asked, raw, fields)
                if refused is not None:
                    return refused
                pre = merged(pre, asked)
            return await _call_and_post(firer, run, tool.name, fields, pre, lambda: invoke_original(ctx, raw))

        def rewritten(step: Step, raw: str, fields: dict[str, Any]) -> tuple[str, str | None]:
            """The JSON arguments after a hook's rewrite (also put in ``fields``), and the tool
            output that replaces the call when the rewrite is not an object."""
            try:
                replacement = firer.replacement_input(step, tool.name)
            except ValueError as error:
                firer.warn_once("bad-rewrite", str(error))
                return raw, bad_rewrite_message(tool.name, error)
            if replacement is not None:
                raw, fields["tool_input"] = json.dumps(replacement), replacement
            return raw, None

        hooked = copy.copy(tool)
        hooked.on_invoke_tool = invoke
        if own_approval is not False:
            hooked.needs_approval = needs_approval
        return hooked


async def _own_check(needs: Any, ctx: Any, args: dict[str, Any], call_id: str) -> bool:
    """The tool's own ``needs_approval``: a bool, or the SDK's ``(ctx, params, call_id)``
    callable, sync or async."""
    if not callable(needs):
        return bool(needs)
    decided = needs(ctx, args, call_id)
    return bool(await decided if inspect.isawaitable(decided) else decided)


async def _call_and_post(
    firer: HookFirer, run: _Run, name: str, fields: dict[str, Any], pre: Step, call: Callable[[], Awaitable[Any]]
) -> Any:
    """Runs the tool, fires PostToolUse (or PostToolUseFailure) and applies its step."""
    try:
        output = await call()
    except Exception as error:
        post = await firer.afire(
            firer.event("PostToolUseFailure", run.session_id, **fields, error=str(error), error_type=type(error).__name__)
        )
        run.halt_if(post)
        if post.feedback or post.context:
            firer.warn_once("raised", f"tool {name!r} raised: PostToolUseFailure's block or context cannot reach the model")
        raise
    post = await firer.afire(firer.event("PostToolUse", run.session_id, **fields, tool_response=output))
    run.halt_if(post)
    if post.tool_output is not None:
        output = post.tool_output
    elif post.tool_output_refused:
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


class _Behavior:
    """The agent's ``tool_use_behavior``, except that a run a hook stopped ends after the tools
    with their output as the final output (no further model call). It carries the run, so a
    paused run resumes in its session."""

    def __init__(self, behavior: Any, run: _Run) -> None:
        self.behavior = behavior
        self.run = run

    async def __call__(self, ctx: Any, results: list[Any]) -> ToolsToFinalOutputResult:
        behavior = self.behavior
        if self.run.halted and results:
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


def _parse(raw: str) -> Any:
    """The model's JSON arguments; text that is not JSON as is (the core makes any of them an
    object for the event; the tool itself reports malformed arguments to the model)."""
    try:
        return json.loads(raw) if raw else {}
    except ValueError:
        return raw
