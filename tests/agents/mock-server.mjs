// The part both model-API mocks share: a server on 127.0.0.1 (a port the kernel picks, printed
// as the first line of stdout so the runner can read it), a bounded request body, and a log of
// every request (one JSON line each: method, url, parsed body) that the scenario runner asserts
// on. Node 20's standard library only.
import { createServer } from 'node:http';
import { appendFileSync } from 'node:fs';

/** A model request larger than this is refused (413): the agents send a few hundred KiB. */
const MAX_BODY = 32 * 1024 * 1024;

/** `--name value` pairs from argv; a missing required one ends the process with a message. */
export function args(required) {
  const out = {};
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i += 2) {
    if (!argv[i].startsWith('--') || i + 1 >= argv.length) {
      fail(`bad argument ${JSON.stringify(argv[i])}: expected --name value pairs`);
    }
    out[argv[i].slice(2)] = argv[i + 1];
  }
  for (const name of required) {
    if (out[name] === undefined) fail(`missing --${name}`);
  }
  return out;
}

function fail(message) {
  process.stderr.write(`mock: ${message}\n`);
  process.exit(2);
}

/**
 * Serves `handle(req, body, res)` on 127.0.0.1, logging each request to `logPath` before it is
 * handled (so a request that makes the handler throw is still in the log). A body that is not
 * JSON is logged as `raw` text; the handler then gets `null`.
 */
export function serve(logPath, handle) {
  const server = createServer((req, res) => {
    const chunks = [];
    let size = 0;
    req.on('data', (c) => {
      size += c.length;
      if (size > MAX_BODY) {
        res.writeHead(413).end();
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body = null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        body = null;
      }
      const entry = { method: req.method, url: req.url };
      if (body !== null) entry.body = body;
      else if (text) entry.raw = text.slice(0, 4096);
      appendFileSync(logPath, JSON.stringify(entry) + '\n');
      try {
        handle(req, body, res);
      } catch (e) {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(String(e && e.stack));
      }
    });
  });
  server.listen(0, '127.0.0.1', () => {
    process.stdout.write(`${server.address().port}\n`);
  });
  // The runner ends the mock with SIGTERM once the agent has exited.
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
  return server;
}

/** Writes Server-Sent Events: each `[event, data]` pair (event may be null), then ends. */
export function sse(res, events) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const [event, data] of events) {
    if (event) res.write(`event: ${event}\n`);
    res.write(`data: ${JSON.stringify(data)}\n\n`);
  }
  res.end();
}

/** Replies with a JSON body. */
export function json(res, status, value) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}
