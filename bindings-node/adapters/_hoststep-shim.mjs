// TEMPORARY: a stand-in for the core's hostStep() until it lands on main; deleted after the
// merge. Only used when the loaded addon has no hostStep.
export function hostStepShim(r) {
  const ctx = (label) => (r.additional_context ? `${label} hook additional context: ${r.additional_context}` : null)
  const base = { event: r.event, action: 'proceed', tool_input: null, message: null, feedback: null, tool_output: null, prompt: null, context: null, user_message: r.system_message ?? null, stop: r.continue === false }
  if (r.continue === false && r.stop_reason) base.user_message = r.stop_reason
  switch (r.event) {
    case 'PreToolUse':
      if (r.decision === 'deny' || r.decision === 'ask') return { ...base, action: 'deny_tool', message: r.reason ?? 'denied by hook', context: ctx('PreToolUse') }
      if (r.decision === 'defer') return { ...base, action: 'defer_tool' }
      return { ...base, action: 'run_tool', tool_input: r.updated_input, context: ctx('PreToolUse') }
    case 'PostToolUse':
    case 'PostToolUseFailure':
      return { ...base, action: 'deliver_result', feedback: r.decision === 'block' ? `${r.event} hook blocking error: ${r.reason}` : null, tool_output: r.updated_tool_output ?? null, context: ctx(r.event) }
    case 'UserPromptSubmit':
      if (r.decision === 'block' || r.continue === false) return { ...base, action: 'block_prompt', user_message: r.reason ?? r.stop_reason, stop: true }
      return { ...base, action: 'call_model', prompt: r.updated_input?.prompt ?? null, context: ctx('UserPromptSubmit') }
    case 'Stop':
    case 'SubagentStop':
      if (r.decision === 'block' && r.continue !== false) return { ...base, action: 'continue_turn', message: `Stop hook feedback:\n${r.reason ?? 'Blocked by hook'}` }
      return { ...base, action: 'end_turn' }
    default:
      return { ...base, context: ctx(r.event) }
  }
}
