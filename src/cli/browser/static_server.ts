// A tiny static file server for the built site, mounted under a sub-path (e.g. /seed/), as a static host
// serves it: the e2e specs and `bench page` open the site through it.
import { createServer, type Server } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.onnx': 'application/octet-stream',
  '.bin': 'application/octet-stream',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
};

interface StaticSite {
  /** e.g. http://localhost:41234/seed/ */
  url: string;
  close(): Promise<void>;
}

export async function serveStatic(root: string, mount: string): Promise<StaticSite> {
  const base = `/${mount.replace(/^\/+|\/+$/g, '')}/`;
  const rootDir = resolve(root);
  const index = await stat(join(rootDir, 'index.html')).catch(() => null);
  if (!index)
    throw new Error(`no built site at ${rootDir}/index.html: run \`vite build\` first (npm run test:e2e does)`);

  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    if (path === base.slice(0, -1)) {
      res.writeHead(301, { location: base }).end();
      return;
    }
    // Browsers ask the origin's root for an icon on their own; answering keeps the console free of 404s.
    if (path === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    if (!path.startsWith(base)) {
      res.writeHead(404).end(`not under ${base}`);
      return;
    }
    const relative = path.slice(base.length) || 'index.html';
    const file = normalize(join(rootDir, relative));
    if (file !== rootDir && !file.startsWith(rootDir + sep)) {
      res.writeHead(403).end();
      return;
    }
    readFile(file).then(
      (body) => res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body),
      () => res.writeHead(404).end('not found'),
    );
  });
  const port = await listen(server);
  return {
    url: `http://localhost:${port}${base}`,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

function listen(server: Server): Promise<number> {
  return new Promise((done, fail) => {
    server.once('error', fail);
    // Loopback only, on a free port; "localhost" in the URL keeps the page a secure context for WebGPU.
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address && typeof address === 'object') done(address.port);
      else fail(new Error('static server has no port'));
    });
  });
}
