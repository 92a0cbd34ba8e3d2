"""The pydantic-ai capability in a real ``Agent`` run driven by pydantic-ai's ``FunctionModel``,
with a Bash-style tool guarded by the project's command hook."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pydantic_ai")

from .hookproject import (
    GUARD_REASON,
    NOT_ALLOWED,
    PRE_ALLOW,
    SYSTEM_MESSAGE,
    HookProject,
    check_events_built_by_core,
    check_tool_names,
    check_trust,
    guard_project,
    permission,
    readme_snippet,
)
from pydantic_ai import Agent
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    RetryPromptPart,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel

from pydantic_ai.tools import DeferredToolRequests, DeferredToolResults

from hookwire.adapters import PromptBlocked, RunStopped, ToolCallDeferred
from hookwire.adapters.pydantic_ai import DEFAULT_TOOL_NAMES, HookwireCapability


class Script:
    """A FunctionModel script: the given responses, then `then` as text forever; records every
    request's messages."""

    def __init__(self, *responses: ModelResponse, then: str = "done") -> None:
        self.responses = list(responses)
        self.then = then
        self.seen: list[list[ModelMessage]] = []

    def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.seen.append(list(messages))
        return self.responses.pop(0) if self.responses else ModelResponse(parts=[TextPart(self.then)])

    def last_request_parts(self, index: int) -> list[Any]:
        return [p for m in self.seen[index] if isinstance(m, ModelRequest) for p in m.parts]


def bash_call(command: str, call_id: str = "call-1") -> ModelResponse:
    return ModelResponse(parts=[ToolCallPart("Bash", {"command": command}, tool_call_id=call_id)])


def make_agent(
    project: HookProject | Path, script: Script, *, name: str = "Bash", requires_approval: bool = False, **kw: Any
) -> tuple[Agent[None, Any], list[str]]:
    ran: list[str] = []
    where = project.dir if isinstance(project, HookProject) else project
    output: Any = [str, DeferredToolRequests] if requires_approval else str
    agent = Agent(FunctionModel(script), output_type=output, capabilities=[HookwireCapability(where, **kw)])

    @agent.tool_plain(name=name, requires_approval=requires_approval)
    def bash(command: str) -> str:
        """Run a shell command."""
        ran.append(command)
        return f"ran: {command}"

    return agent, ran


def tool_results(script: Script, index: int) -> list[Any]:
    return [p for p in script.last_request_parts(index) if isinstance(p, (ToolReturnPart, RetryPromptPart))]


def test_deny_keeps_the_tool_from_running_and_the_model_gets_the_reason(project: HookProject) -> None:
    project.rules({"event": "PreToolUse", "contains": "rm -rf", "exit": 2, "stderr": "no rm -rf here"})
    script = Script(bash_call("rm -rf /"))
    agent, ran = make_agent(project, script)
    agent.run_sync("clean up")
    assert ran == []
    [denied] = tool_results(script, 1)
    assert "no rm -rf here" in str(denied.content)


def test_updated_input_changes_the_call(project: HookProject) -> None:
    rewrite = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                                      "updatedInput": {"command": "ls -la"}}}
    project.rules({"event": "PreToolUse", "stdout": rewrite})
    agent, ran = make_agent(project, Script(bash_call("ls")))
    agent.run_sync("list")
    assert ran == ["ls -la"]
    assert project.events("PostToolUse")[0]["tool_input"] == {"command": "ls -la"}


def test_a_rewrite_the_tool_schema_rejects_fails_the_call_with_a_warning(project: HookProject) -> None:
    rewrite = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                                      "updatedInput": {"cmd": 42}}}
    project.rules({"event": "PreToolUse", "stdout": rewrite})
    script = Script(bash_call("ls"))
    agent, ran = make_agent(project, script)
    with pytest.warns(UserWarning, match="hookwire pydantic-ai adapter"):
        agent.run_sync("list")
    assert ran == []
    [failed] = tool_results(script, 1)
    assert "does not accept" in str(failed.content)


def test_stop_block_causes_one_more_turn_with_the_reason(project: HookProject) -> None:
    project.rules({"event": "Stop", "when": {"stop_hook_active": False}, "exit": 2, "stderr": "run the tests first"})
    script = Script(ModelResponse(parts=[TextPart("first")]), then="second")
    agent, _ = make_agent(project, script)
    result = agent.run_sync("work")
    assert len(script.seen) == 2
    last = script.last_request_parts(1)[-1]
    assert isinstance(last, UserPromptPart) and "run the tests first" in str(last.content)
    assert result.output == "second"
    assert [s["stop_hook_active"] for s in project.events("Stop")] == [False, True]


def test_an_endless_stop_block_is_ended_by_the_cap(project: HookProject) -> None:
    project.rules({"event": "Stop", "exit": 2, "stderr": "keep going"})
    script = Script()
    agent, _ = make_agent(project, script)
    agent.run_sync("work")
    assert len(project.events("Stop")) == 9
    assert len(script.seen) == 9
    assert project.names()[-1] == "SessionEnd"


def test_post_tool_use_block_and_context_reach_the_model(project: HookProject) -> None:
    out = {"decision": "block", "reason": "output looks wrong",
           "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "check twice"}}
    project.rules({"event": "PostToolUse", "stdout": out})
    script = Script(bash_call("ls"))
    agent, ran = make_agent(project, script)
    agent.run_sync("list")
    assert ran == ["ls"]
    parts = script.last_request_parts(1)
    [ret] = [p for p in parts if isinstance(p, ToolReturnPart)]
    assert ret.content == "ran: ls"
    beside = " ".join(str(p.content) for p in parts if isinstance(p, UserPromptPart))
    assert "output looks wrong" in beside and "check twice" in beside


def test_user_prompt_submit_block_makes_no_model_call(project: HookProject) -> None:
    project.rules({"event": "UserPromptSubmit", "exit": 2, "stderr": "not today"})
    script = Script()
    agent, _ = make_agent(project, script)
    with pytest.raises(PromptBlocked, match="not today"):
        agent.run_sync("hello")
    assert script.seen == []
    assert "Stop" not in project.names()


def test_prompt_context_reaches_the_model_inside_the_prompt(project: HookProject) -> None:
    out = {"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "the repo is small"}}
    project.rules({"event": "UserPromptSubmit", "stdout": out})
    script = Script()
    agent, _ = make_agent(project, script)
    agent.run_sync("hello")
    prompt = script.last_request_parts(0)[-1]
    assert isinstance(prompt, UserPromptPart)
    assert "hello" in str(prompt.content) and "the repo is small" in str(prompt.content)


def test_events_carry_session_cwd_tool_use_id_and_permission_mode(project: HookProject) -> None:
    agent, _ = make_agent(project, Script(bash_call("ls", call_id="toolu_1")), session_id="sess-1", cwd=project.dir)
    agent.run_sync("list files")
    events = project.events()
    assert project.names() == ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"]
    assert {e["session_id"] for e in events} == {"sess-1"}
    assert {e["cwd"] for e in events} == {str(project.dir)}
    [pre] = project.events("PreToolUse")
    assert pre["tool_name"] == "Bash" and pre["tool_input"] == {"command": "ls"} and pre["tool_use_id"] == "toolu_1"
    assert project.events("PostToolUse")[0]["tool_response"] == "ran: ls"
    assert project.events("Stop")[0]["last_assistant_message"] == "done"


def test_the_conversation_id_is_the_session_id_by_default(project: HookProject) -> None:
    agent, _ = make_agent(project, Script())
    agent.run_sync("hello")
    ids = {e["session_id"] for e in project.events()}
    assert len(ids) == 1 and ids != {""}


def test_defer_raises_with_the_pending_call(project: HookProject) -> None:
    out = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "defer"}}
    project.rules({"event": "PreToolUse", "stdout": out})
    agent, ran = make_agent(project, Script(bash_call("make deploy")))
    with pytest.raises(ToolCallDeferred) as caught:
        agent.run_sync("deploy")
    assert ran == [] and caught.value.tool_input == {"command": "make deploy"}


def test_continue_false_after_a_tool_ends_the_run_without_another_model_call(project: HookProject) -> None:
    project.rules({"event": "PostToolUse", "stdout": {"continue": False, "stopReason": "enough"}})
    script = Script(bash_call("ls"))
    agent, ran = make_agent(project, script)
    with pytest.raises(RunStopped):
        agent.run_sync("list")
    assert ran == ["ls"] and len(script.seen) == 1


def test_async_run_applies_deny(project: HookProject) -> None:
    project.rules({"event": "PreToolUse", "exit": 2, "stderr": "denied async"})
    script = Script(bash_call("ls"))
    agent, ran = make_agent(project, script)
    asyncio.run(agent.run("go"))
    assert ran == [] and "denied async" in str(tool_results(script, 1)[0].content)


def test_readme_snippet_runs(project: HookProject) -> None:
    project.rules({"event": "PreToolUse", "exit": 2, "stderr": "blocked by the README hook"})
    script = Script(bash_call("ls"))
    ran: list[str] = []

    def Bash(command: str) -> str:
        """Run a shell command."""
        ran.append(command)
        return command

    namespace: dict[str, Any] = {"model": FunctionModel(script), "tools": [Bash], "project_dir": str(project.dir)}
    exec(readme_snippet("python-adapter-pydantic-ai"), namespace)
    assert ran == [] and "blocked by the README hook" in str(tool_results(script, 1)[0].content)


# --- one event builder: the core's (issue 37) ------------------------------------------------


def test_each_fired_event_is_the_one_host_event_builds_from_the_same_facts(project: HookProject) -> None:
    agent, _ = make_agent(project, Script(bash_call("ls", call_id="toolu_1")), session_id="sess-1", cwd=project.dir)
    agent.run_sync("list files")
    check_events_built_by_core(project, DEFAULT_TOOL_NAMES)


# --- tool names, trust -----------------------------------------------------------------------


def guarded_run(proj: Path, tool_name: str, *, calls: int = 1, **kw: Any) -> tuple[Script, list[str]]:
    responses = [ModelResponse(parts=[ToolCallPart(tool_name, {"command": "ls"}, tool_call_id=f"c{i}")]) for i in range(calls)]
    script = Script(*responses)
    agent, ran = make_agent(proj, script, name=tool_name, **kw)
    agent.run_sync("go")
    return script, ran


def ran(proj: Path, tool_name: str, **kw: Any) -> list[str]:
    return guarded_run(proj, tool_name, **kw)[1]


def test_tool_names_map_the_framework_names_and_warn_for_an_unreachable_tool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    check_tool_names(tmp_path, monkeypatch, ran)


def test_a_bash_tool_denied_through_the_default_map_tells_the_model_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script, commands = guarded_run(guard_project(tmp_path, monkeypatch), "bash")
    assert commands == [] and GUARD_REASON in str(tool_results(script, 1)[0].content)


def test_trust_is_the_hosts_choice_and_an_untrusted_guard_is_warned_about(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    check_trust(tmp_path, monkeypatch, ran)


# --- PermissionRequest where pydantic-ai would ask a person (Claude Code 2.1.332) -------------


def approval_run(project: HookProject, **kw: Any) -> tuple[Any, list[str], Script, list[tuple[str, str]], Agent[None, Any]]:
    script, told = Script(bash_call("ls")), []
    agent, ran = make_agent(project, script, requires_approval=True, on_user_message=lambda t, e: told.append((t, e)), **kw)
    return agent.run_sync("list"), ran, script, told, agent


def test_permission_request_allow_approves_a_requires_approval_tool(project: HookProject) -> None:
    project.rules({"event": "PermissionRequest", "stdout": permission("allow")})
    result, ran, script, told, _ = approval_run(project)
    assert result.output == "done" and ran == ["ls"] and told == []
    [asked] = project.events("PermissionRequest")
    assert (asked["tool_name"], asked["tool_input"], asked["permission_suggestions"]) == ("Bash", {"command": "ls"}, [])
    names = project.names()
    assert names.count("PreToolUse") == 1 and names.index("PreToolUse") < names.index("PermissionRequest")
    assert [p.content for p in tool_results(script, 1)] == ["ran: ls"]


def test_permission_request_allow_with_updated_input_runs_the_rewrite(project: HookProject) -> None:
    allow = permission("allow")
    allow["hookSpecificOutput"]["decision"]["updatedInput"] = {"command": "ls -la"}
    project.rules({"event": "PermissionRequest", "stdout": allow})
    _, ran, _, _, _ = approval_run(project)
    assert ran == ["ls -la"]
    assert project.events("PostToolUse")[0]["tool_input"] == {"command": "ls -la"}


def test_permission_request_deny_tells_the_model_and_the_user(project: HookProject) -> None:
    project.rules({"event": "PermissionRequest", "stdout": permission("deny", "no shell today")})
    result, ran, script, told, _ = approval_run(project)
    assert result.output == "done" and ran == []
    assert told == [("no shell today", "PermissionRequest")]
    assert any("no shell today" in str(p.content) for p in tool_results(script, 1))


def test_permission_request_without_a_decision_leaves_the_person_to_ask(project: HookProject) -> None:
    result, ran, script, told, agent = approval_run(project)
    assert isinstance(result.output, DeferredToolRequests) and ran == [] and told == []
    [pending] = result.output.approvals
    assert pending.tool_name == "Bash"
    assert "Stop" not in project.names()
    resumed = agent.run_sync(
        message_history=result.all_messages(), deferred_tool_results=DeferredToolResults(approvals={pending.tool_call_id: True})
    )
    assert ran == ["ls"] and resumed.output == "done"
    names = project.names()
    assert names.count("PreToolUse") == 1 and names.count("PermissionRequest") == 1
    assert "PostToolUse" in names


def test_a_pre_tool_use_allow_skips_the_approval_and_permission_request(project: HookProject) -> None:
    project.rules(PRE_ALLOW)
    result, ran, _, _, _ = approval_run(project)
    assert result.output == "done" and ran == ["ls"]
    assert project.events("PermissionRequest") == [] and project.names().count("PreToolUse") == 1


def test_a_pre_tool_use_deny_never_reaches_the_approval(project: HookProject) -> None:
    project.rules({"event": "PreToolUse", "exit": 2, "stderr": "not this one"})
    result, ran, script, _, _ = approval_run(project)
    assert result.output == "done" and ran == [] and project.events("PermissionRequest") == []
    assert any("not this one" in str(p.content) for p in tool_results(script, 1))


def test_permission_tools_with_nobody_to_ask(project: HookProject) -> None:
    script = Script(bash_call("ls"))
    agent, ran = make_agent(project, script, permission_tools={"Bash"})
    agent.run_sync("list")
    assert ran == [] and any(NOT_ALLOWED in str(p.content) for p in tool_results(script, 1))


def test_pre_tool_use_system_message_reaches_the_user_not_the_model(project: HookProject) -> None:
    project.rules(SYSTEM_MESSAGE)
    script = Script(bash_call("ls"))
    told: list[tuple[str, str]] = []
    agent, ran = make_agent(project, script, on_user_message=lambda t, e: told.append((t, e)))
    agent.run_sync("list")
    assert ran == ["ls"] and project.events("PermissionRequest") == []
    assert told == [("heads up: a shell command", "PreToolUse")]
    assert not any("heads up" in str(m) for request in script.seen for m in request)
