// A mock of the Gemini API (`models/{model}:streamGenerateContent?alt=sse`, `:generateContent`,
// `:countTokens`) for Gemini CLI: a request that offers `run_shell_command` and carries no
// function response yet is answered with one `run_shell_command` call running `--command`; one
// that carries a function response is answered with a final text, so the turn ends. Requests
// without that tool (Gemini CLI's own helper calls: routing, next speaker, loop checks) get a
// short text. Every request is logged (mock-server.mjs) for the scenario runner to read.
//
//   node mock-gemini.mjs --log FILE --command 'touch /x/marker'
import { args, serve, sse, json } from './mock-server.mjs';

const opt = args(['log', 'command']);

function offersShell(body) {
  return (body.tools || []).some((t) => (t.functionDeclarations || []).some((d) => d.name === 'run_shell_command'));
}

function hasFunctionResponse(body) {
  return (body.contents || []).some((c) => (c.parts || []).some((p) => p.functionResponse));
}

function reply(parts) {
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: 'mock',
  };
}

function answer(body) {
  if (!offersShell(body)) return reply([{ text: '{"reasoning": "mock", "model_choice": "flash", "next_speaker": "user"}' }]);
  if (hasFunctionResponse(body)) return reply([{ text: 'done' }]);
  return reply([{ functionCall: { name: 'run_shell_command', args: { command: opt.command, description: 'mock call' } } }]);
}

serve(opt.log, (req, body, res) => {
  const path = req.url.split('?')[0];
  if (req.method === 'POST' && path.endsWith(':countTokens')) return json(res, 200, { totalTokens: 10 });
  if (req.method === 'POST' && path.endsWith(':streamGenerateContent') && body) return sse(res, [[null, answer(body)]]);
  if (req.method === 'POST' && path.endsWith(':generateContent') && body) return json(res, 200, answer(body));
  return json(res, 404, { error: { code: 404, message: `mock: no route for ${req.method} ${path}`, status: 'NOT_FOUND' } });
});
