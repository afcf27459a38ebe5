// A static server for the built lab (dist/), as a static host serves it: a
// folder's index.html for its path (each route's prerendered page), and the
// single-page fallback a host is configured with: unknown paths get index.html.
// Usage: node tests/browser/serve.mjs [dir] [port]  (only binds 127.0.0.1)
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';

/** The content type of each file the build has, by its extension. */
export const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm', '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
};

/** `dir` may be a function giving the folder at each request (a host that deploys a new build);
 * `hang(req)`, when it says true, leaves that request without an answer (a connection that hangs);
 * `cache`, the Cache-Control every answer gets (none kept unless told: a test sees every request). */
export function serve(dir, port = 0, prefix = '', hang = () => false, cache = 'no-store') {
  const server = createServer(async (req, res) => {
    if (hang(req)) return;
    try {
      const root = resolve(typeof dir === 'function' ? dir() : dir);
      const url = new URL(req.url, 'http://127.0.0.1');
      // Under a sub-path (a static host's folder), only that folder exists.
      if (prefix && !url.pathname.startsWith(prefix)) { res.writeHead(404).end('not here'); return; }
      let path = normalize(join(root, decodeURIComponent(url.pathname.slice(prefix.length))));
      if (!path.startsWith(root)) { res.writeHead(403).end(); return; }
      let info = await stat(path).catch(() => null);
      if (info && info.isDirectory()) { path = join(path, 'index.html'); info = await stat(path).catch(() => null); }
      if (!info) path = join(root, 'index.html');
      const body = await readFile(path);
      res.writeHead(200, { 'content-type': types[extname(path)] || 'application/octet-stream', 'cache-control': cache });
      res.end(body);
    } catch (e) {
      res.writeHead(500).end(String(e));
    }
  });
  return new Promise((ok) => server.listen(port, '127.0.0.1', () => ok(server)));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2] || 'dist';
  const port = Number(process.argv[3] || 8080);
  serve(dir, port).then(() => console.log(`Sensei Lab: http://127.0.0.1:${port}/ (from ${dir})`));
}
