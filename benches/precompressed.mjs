// A static server for a release build as a host with precompressed files
// serves it (nginx's brotli_static / gzip_static): a folder's index.html for
// its path, index.html for an unknown one, and the build's own `.br` or `.gz`
// copy (scripts/compress.mjs) when the browser accepts it — brotli first, or
// only gzip with `encodings: ['gzip']` (a build from before issue 32, which
// has none, is compressed here the same way). Counts the bytes it sends.
// Used by benches/phone.mjs and benches/lighthouse.mjs.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { types } from '../tests/browser/serve.mjs';
import { brotli, gzip } from '../scripts/compress.mjs';

export async function servePrecompressed(dist, { encodings = ['br', 'gzip'] } = {}) {
  const made = new Map();
  const stats = { sent: 0 };
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    let path = normalize(join(dist, decodeURIComponent(url.pathname)));
    if (!path.startsWith(dist)) return res.writeHead(403).end();
    let info = await stat(path).catch(() => null);
    if (info?.isDirectory()) { path = join(path, 'index.html'); info = await stat(path).catch(() => null); }
    if (!info) path = join(dist, 'index.html');
    const accepts = req.headers['accept-encoding'] || '';
    let body = null;
    let encoding = null;
    for (const [name, ext, pack] of [['br', '.br', brotli], ['gzip', '.gz', gzip]]) {
      if (!encodings.includes(name) || !new RegExp(`\\b${name}\\b`).test(accepts)) continue;
      body = await readFile(path + ext).catch(() => null);
      if (!body && /\.(html|js|css|wasm|svg|json|webmanifest|xml|txt)$/.test(path)) {
        if (!made.has(path + ext)) made.set(path + ext, pack(await readFile(path)));
        body = made.get(path + ext);
      }
      if (body) { encoding = name; break; }
    }
    body ??= await readFile(path);
    stats.sent += body.length;
    res.writeHead(200, {
      'content-type': types[extname(path)] || 'application/octet-stream',
      ...(encoding ? { 'content-encoding': encoding } : {}),
      vary: 'accept-encoding',
      'cache-control': 'no-store',
    });
    res.end(body);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { server, stats, base: `http://127.0.0.1:${server.address().port}` };
}
