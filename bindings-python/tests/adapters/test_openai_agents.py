"""The OpenAI Agents SDK runner adapter driving a real ``agents.Runner`` loop with the SDK's own
``ScriptedModel``, with a Bash-style function tool guarded by the project's command hook."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("agents")

from agents import Agent, function_tool, set_tracing_disabled
from agents.testing import ModelStep, ScriptedModel, assistant_message, function_call
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

from hookwire.adapters import AdapterWarning, PromptBlocked, ToolCallDeferred
from hookwire.adapters.openai_agents import DEFAULT_TOOL_NAMES, HookwireRunner


set_tracing_disabled(True)  # no trace export: these tests never touch the network


def text_step(text: str) -> list[Any]:
    return [assistant_message(text)]


def bash_step(command: str, call_id: str = "call-1") -> list[Any]:
    return [function_call("Bash", {"command": command}, call_id=call_id)]


class Shell:
    def __init__(self, name: str = "Bash", **kw: Any) -> None:
        self.ran: list[str] = []

        @function_tool(name_override=name, **kw)
        def bash(command: str) -> str:
            """Run a shell command."""
            self.ran.append(command)
            return f"ran: {command}"

        self.tool = bash


def agent_with(model: ScriptedModel, shell: Shell, **kw: Any) -> Agent[Any]:
    return Agent(name="worker", instructions="work", model=model, tools=[shell.tool], **kw)


def inputs(model: ScriptedModel, index: int) -> list[Any]:
    value = model.calls[index].input
    return [value] if isinstance(value, str) else list(value)


def outputs_to_model(model: ScriptedModel, index: int) -> list[str]:
    return [str(i.get("output")) for i in inputs(model, index) if isinstance(i, dict) and i.get("type") == "function_call_output"]


def test_deny_keeps_the_tool_from_running_and_the_model_gets_the_reason(project: HookProject) -> None:
    project.rules({"event": "PreToolUse", "contains": "rm -rf", "exit": 2, "stderr": "no rm -rf here"})
    model, shell = ScriptedModel([bash_step("rm -rf /"), text_step("ok")]), Shell()
    HookwireRunner(project.dir).run_sync(agent_with(model, shell), "clean up")
    assert shell.ran == []
    assert any("no rm -rf here" in o for o in outputs_to_model(model, 1))


def test_updated_input_changes_the_call(project: HookProject) -> None:
    rewrite = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                                      "updatedInput": {"command": "ls -la"}}}
    project.rules({"event": "PreToolUse", "stdout": rewrite})
    model, shell = ScriptedModel([bash_step("ls"), text_step("done")]), Shell()
    HookwireRunner(project.dir).run_sync(agent_with(model, shell), "list")
    assert shell.ran == ["ls -la"]
    assert project.events("PostToolUse")[0]["tool_input"] == {"command": "ls -la"}


def test_stop_block_causes_one_more_turn_with_the_reason(project: HookProject) -> None:
    project.rules({"event": "Stop", "when": {"stop_hook_active": False}, "exit": 2, "stderr": "run the tests first"})
    model, shell = ScriptedModel([text_step("first"), text_step("second")]), Shell()
    result = HookwireRunner(project.dir).run_sync(agent_with(model, shell), "work")
    assert len(model.calls) == 2
    last = inputs(model, 1)[-1]
    assert last["role"] == "user" and "run the tests first" in last["content"]
    assert result.final_output == "second"
    stops = project.events("Stop")
    assert [s["stop_hook_active"] for s in stops] == [False, True]
    assert len({s["session_id"] for s in stops}) == 1


def test_an_endless_stop_block_is_ended_by_the_cap(project: HookProject) -> None:
    project.rules({"event": "Stop", "exit": 2, "stderr": "keep going"})
    model, shell = ScriptedModel([text_step(f"answer {i}") for i in range(20)]), Shell()
    HookwireRunner(project.dir).run_sync(agent_with(model, shell), "work")
    assert len(project.events("Stop")) == 9
    assert len(model.calls) == 9
    assert project.names()[-1] == "SessionEnd"


def test_post_tool_use_block_and_context_reach_the_model(project: HookProject) -> None:
    out = {"decision": "block", "reason": "output looks wrong",
           "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "check twice"}}
    project.rules({"event": "PostToolUse", "stdout": out})
    model, shell = ScriptedModel([bash_step("ls"), text_step("done")]), Shell()
    HookwireRunner(project.dir).run_sync(agent_with(model, shell), "list")
    assert shell.ran == ["ls"]
    [output] = outputs_to_model(model, 1)
    assert output.startswith("ran: ls") and "output looks wrong" in output and "check twice" in output


def test_user_prompt_submit_block_makes_no_model_call(project: HookProject) -> None:
    project.rules({"event": "UserPromptSubmit", "exit": 2, "stderr": "not today"})
    model, shell = ScriptedModel([text_step("never")]), Shell()
    with pytest.raises(PromptBlocked, match="not today"):
        HookwireRunner(project.dir).run_sync(agent_with(model, shell), "hello")
    assert model.calls == ()
    assert "Stop" not in project.names() and project.names()[-1] == "SessionEnd"


def test_prompt_context_follows_the_prompt_as_a_system_item(project: HookProject) -> None:
    out = {"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "the repo is small"}}
    project.rules({"event": "UserPromptSubmit", "stdout": out})
    model, shell = ScriptedModel([text_step("ok")]), Shell()
    HookwireRunner(project.dir).run_sync(agent_with(model, shell), "hello")
    first = inputs(model, 0)
    assert first[0] == {"role": "user", "content": "hello"}
    assert first[1]["role"] == "system" and "the repo is small" in first[1]["content"]


def test_events_carry_session_cwd_tool_use_id_and_permission_mode(project: HookProject) -> None:
    model, shell = ScriptedModel([bash_step("ls", "toolu_1"), text_step("done")]), Shell()
    HookwireRunner(project.dir, session_id="sess-1", permission_mode="bypassPermissions").run_sync(agent_with(model, shell), "list files")
    events = project.events()
    assert project.names() == ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"]
    assert {e["session_id"] for e in events} == {"sess-1"}
    assert {e["permission_mode"] for e in events} == {"bypassPermissions"}
    [pre] = project.events("PreToolUse")
    assert pre["tool_name"] == "Bash" and pre["tool_input"] == {"command": "ls"} and pre["tool_use_id"] == "toolu_1"
    assert project.events("PostToolUse")[0]["tool_response"] == "ran: ls"
    assert project.events("Stop")[0]["last_assistant_message"] == "done"


def test_defer_raises_with_the_pending_call(project: HookProject) -> None:
    out = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "defer"}}
    project.rules({"event": "PreToolUse", "stdout": out})
    model, shell = ScriptedModel([bash_step("make deploy"), text_step("x")]), Shell()
    with pytest.raises(ToolCallDeferred) as caught:
        HookwireRunner(project.dir).run_sync(agent_with(model, shell), "deploy")
    assert shell.ran == [] and caught.value.tool_input == {"command": "make deploy"}


def test_continue_false_after_a_tool_ends_the_run_without_another_model_call(project: HookProject) -> None:
    project.rules({"event": "PostToolUse", "stdout": {"continue": False, "stopReason": "enough"}})
    model, shell = ScriptedModel([bash_step("ls"), text_step("never")]), Shell()
    result = HookwireRunner(project.dir).run_sync(agent_with(model, shell), "list")
    assert shell.ran == ["ls"] and len(model.calls) == 1
    assert result.final_output == "ran: ls"
    assert "Stop" not in project.names()


def test_hosted_tools_and_handoffs_are_warned_about(project: HookProject) -> None:
    model, shell = ScriptedModel([text_step("ok")]), Shell()
    helper = Agent(name="helper", model=model)
    with pytest.warns(AdapterWarning, match="handoff"):
        HookwireRunner(project.dir).run_sync(agent_with(model, shell, handoffs=[helper]), "hi")


def test_async_run_applies_deny(project: HookProject) -> None:
    project.rules({"event": "PreToolUse", "exit": 2, "stderr": "denied async"})
    model, shell = ScriptedModel([bash_step("ls"), text_step("done")]), Shell()
    asyncio.run(HookwireRunner(project.dir).run(agent_with(model, shell), "go"))
    assert shell.ran == [] and any("denied async" in o for o in outputs_to_model(model, 1))


def test_readme_snippet_runs(project: HookProject) -> None:
    project.rules({"event": "PreToolUse", "exit": 2, "stderr": "blocked by the README hook"})
    model, shell = ScriptedModel([bash_step("ls"), text_step("done")]), Shell()
    namespace: dict[str, Any] = {"model": model, "tools": [shell.tool], "project_dir": str(project.dir)}
    exec(readme_snippet("python-adapter-openai-agents"), namespace)
    assert shell.ran == [] and any("blocked by the README hook" in o for o in outputs_to_model(model, 1))


# --- one event builder: the core's (issue 37) ------------------------------------------------


def test_each_fired_event_is_the_one_host_event_builds_from_the_same_facts(project: HookProject) -> None:
    model, shell = ScriptedModel([bash_step("ls", "toolu_1"), text_step("done")]), Shell()
    HookwireRunner(project.dir, session_id="sess-1", cwd=project.dir).run_sync(agent_with(model, shell), "list files")
    check_events_built_by_core(project, DEFAULT_TOOL_NAMES)


# --- tool names, trust -----------------------------------------------------------------------


def guarded_run(proj: Path, tool_name: str, *, calls: int = 1, **kw: Any) -> tuple[ScriptedModel, Shell]:
    steps = [[function_call(tool_name, {"command": "ls"}, call_id=f"c{i}")] for i in range(calls)]
    model, shell = ScriptedModel([*steps, text_step("done")]), Shell(tool_name)
    HookwireRunner(proj, **kw).run_sync(Agent(name="w", model=model, tools=[shell.tool]), "go")
    return model, shell


def ran(proj: Path, tool_name: str, **kw: Any) -> list[str]:
    return guarded_run(proj, tool_name, **kw)[1].ran


def test_tool_names_map_the_framework_names_and_warn_for_an_unreachable_tool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    check_tool_names(tmp_path, monkeypatch, ran)


def test_a_bash_tool_denied_through_the_default_map_tells_the_model_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    model, shell = guarded_run(guard_project(tmp_path, monkeypatch), "bash")
    assert shell.ran == [] and any(GUARD_REASON in o for o in outputs_to_model(model, 1))


def test_trust_is_the_hosts_choice_and_an_untrusted_guard_is_warned_about(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    check_trust(tmp_path, monkeypatch, ran)


# --- PermissionRequest where the SDK's needs_approval would ask a person (Claude Code 2.1.332)


def approval_run(project: HookProject, **kw: Any) -> tuple[Any, Shell, ScriptedModel, list[tuple[str, str]], HookwireRunner]:
    model, shell, told = ScriptedModel([bash_step("ls"), text_step("done")]), Shell(needs_approval=True), []
    runner = HookwireRunner(project.dir, on_user_message=lambda t, e: told.append((t, e)), **kw)
    result = runner.run_sync(agent_with(model, shell), "list")
    return result, shell, model, told, runner


def test_permission_request_allow_runs_a_needs_approval_tool(project: HookProject) -> None:
    project.rules({"event": "PermissionRequest", "stdout": permission("allow")})
    result, shell, model, told, _ = approval_run(project)
    assert shell.ran == ["ls"] and result.interruptions == [] and result.final_output == "done"
    [asked] = project.events("PermissionRequest")
    assert (asked["tool_name"], asked["tool_input"], asked["permission_suggestions"]) == ("Bash", {"command": "ls"}, [])
    assert project.names().index("PreToolUse") < project.names().index("PermissionRequest")
    assert outputs_to_model(model, 1) == ["ran: ls"] and told == []


def test_permission_request_deny_tells_the_model_and_the_user(project: HookProject) -> None:
    project.rules({"event": "PermissionRequest", "stdout": permission("deny", "no shell today")})
    result, shell, model, told, _ = approval_run(project)
    assert shell.ran == [] and result.interruptions == []
    assert outputs_to_model(model, 1) == ["no shell today"]
    assert told == [("no shell today", "PermissionRequest")]


def test_permission_request_without_a_decision_leaves_the_sdk_approval_and_resumes(project: HookProject) -> None:
    result, shell, model, told, runner = approval_run(project)
    [pending] = result.interruptions
    assert pending.tool_name == "Bash" and shell.ran == [] and told == []
    assert "Stop" not in project.names() and "SessionEnd" not in project.names()
    state = result.to_state()
    state.approve(pending)
    result = runner.run_sync(agent_with(model, shell), state)
    assert shell.ran == ["ls"] and result.final_output == "done"
    names = project.names()
    assert names.count("PreToolUse") == 1 and names.count("PermissionRequest") == 1
    assert names.count("UserPromptSubmit") == 1 and names.count("SessionStart") == 1
    assert names[-3:] == ["PostToolUse", "Stop", "SessionEnd"]
    assert len({e["session_id"] for e in project.events()}) == 1


def test_a_person_who_rejects_gets_the_sdk_rejection(project: HookProject) -> None:
    result, shell, model, _, runner = approval_run(project)
    state = result.to_state()
    state.reject(result.interruptions[0])
    runner.run_sync(agent_with(model, shell), state)
    assert shell.ran == [] and "PostToolUse" not in project.names()


def test_a_pre_tool_use_allow_skips_the_approval_and_permission_request(project: HookProject) -> None:
    project.rules(PRE_ALLOW)
    result, shell, _, _, _ = approval_run(project)
    assert result.interruptions == [] and shell.ran == ["ls"]
    assert project.events("PermissionRequest") == []


def test_a_pre_tool_use_deny_never_reaches_the_approval(project: HookProject) -> None:
    project.rules({"event": "PreToolUse", "exit": 2, "stderr": "not this one"})
    result, shell, model, _, _ = approval_run(project)
    assert result.interruptions == [] and shell.ran == [] and project.events("PermissionRequest") == []
    assert any("not this one" in o for o in outputs_to_model(model, 1))


def test_permission_tools_with_nobody_to_ask(project: HookProject) -> None:
    model, shell = ScriptedModel([bash_step("ls"), text_step("done")]), Shell()
    HookwireRunner(project.dir, permission_tools=["Bash"]).run_sync(agent_with(model, shell), "list")
    assert shell.ran == [] and outputs_to_model(model, 1) == [NOT_ALLOWED]


def test_pre_tool_use_system_message_reaches_the_user_not_the_model(project: HookProject) -> None:
    project.rules(SYSTEM_MESSAGE)
    model, shell = ScriptedModel([bash_step("ls"), text_step("done")]), Shell()
    told: list[tuple[str, str]] = []
    HookwireRunner(project.dir, on_user_message=lambda t, e: told.append((t, e))).run_sync(agent_with(model, shell), "list")
    assert shell.ran == ["ls"] and project.events("PermissionRequest") == []
    assert told == [("heads up: a shell command", "PreToolUse")]
    assert not any("heads up" in str(call.input) for call in model.calls)
