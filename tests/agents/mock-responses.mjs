// A mock of OpenAI's Responses API (`POST /v1/responses`, streamed as Server-Sent Events) for
// Codex CLI: the first model request of a turn is answered with one call of the shell tool
// that the request offers, running `--command`; a request that already carries a tool output
// is answered with a final assistant message, so the turn ends. Every request is logged
// (mock-server.mjs) for the scenario runner to read.
//
//   node mock-responses.mjs --log FILE --command 'touch /x/marker' [--escalate 1]
import { args, serve, sse, json } from './mock-server.mjs';

const opt = args(['log', 'command']);
let calls = 0;

/**
 * The shell call in the form of the shell tool the request offers. Codex offers one shell tool,
 * named and shaped by its model family; the mock follows whichever it finds, so it does not
 * depend on which one a version picks for an unknown model.
 */
function shellCall(tools, callId) {
  const names = new Set((tools || []).map((t) => t.name || t.type));
  const item = (name, a) => ({ type: 'function_call', id: `fc_${callId}`, call_id: callId, name, arguments: JSON.stringify(a) });
  // `--escalate 1`: the call asks to run outside Codex's sandbox, which needs an approval: the
  // PermissionRequest scenarios (Codex asks its hooks first).
  const escalate = opt.escalate === '1' ? { sandbox_permissions: 'require_escalated', justification: 'the test writes its marker' } : {};
  if (names.has('exec_command')) return item('exec_command', { cmd: opt.command, ...escalate });
  if (names.has('shell_command')) return item('shell_command', { command: opt.command });
  if (names.has('shell')) return item('shell', { command: ['bash', '-lc', opt.command] });
  if (names.has('local_shell')) {
    return { type: 'local_shell_call', id: `lsc_${callId}`, call_id: callId, status: 'completed', action: { type: 'exec', command: ['bash', '-lc', opt.command] } };
  }
  throw new Error(`no shell tool among ${JSON.stringify([...names])}`);
}

/** True once the conversation holds the output of a tool call (the second model request). */
function hasToolOutput(input) {
  return Array.isArray(input) && input.some((i) => typeof i.type === 'string' && i.type.endsWith('_output'));
}

function events(id, items) {
  const out = [['response.created', { type: 'response.created', response: { id } }]];
  for (const item of items) out.push(['response.output_item.done', { type: 'response.output_item.done', item }]);
  out.push(['response.completed', {
    type: 'response.completed',
    response: { id, usage: { input_tokens: 10, input_tokens_details: null, output_tokens: 5, output_tokens_details: null, total_tokens: 15 } },
  }]);
  return out;
}

serve(opt.log, (req, body, res) => {
  const path = req.url.split('?')[0];
  if (req.method === 'POST' && path.endsWith('/responses') && body) {
    calls += 1;
    const id = `resp_${calls}`;
    if (hasToolOutput(body.input)) {
      const message = { type: 'message', role: 'assistant', id: `msg_${calls}`, content: [{ type: 'output_text', text: 'done', annotations: [] }] };
      return sse(res, events(id, [message]));
    }
    return sse(res, events(id, [shellCall(body.tools, `call_${calls}`)]));
  }
  if (req.method === 'GET' && path.endsWith('/models')) return json(res, 200, { object: 'list', data: [], models: [] });
  return json(res, 404, { error: { message: `mock: no route for ${req.method} ${path}` } });
});
