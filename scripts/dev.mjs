// `npm run dev`: the server under `tsx watch` (restarts on change, port PORT or 3000) and the Vite dev
// server for apps/web (hot reload; its config proxies /v1 to the server) side by side. Output lines are
// prefixed [server] / [web]. When either exits, or on Ctrl-C, both are stopped.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { repoRoot } from './build-web.mjs';

const require = createRequire(import.meta.url);
const tsxCli = join(repoRoot, 'node_modules/tsx/dist/cli.mjs');
const vitePackage = require.resolve('vite/package.json', { paths: [join(repoRoot, 'apps/web')] });
const viteCli = join(dirname(vitePackage), 'bin/vite.js');

const useColor = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code, text) => (useColor ? `\x1b[${code}m${text}\x1b[0m` : text);

const processes = [
  {
    name: 'server',
    color: 36,
    command: process.execPath,
    args: [tsxCli, 'watch', '--clear-screen=false', 'apps/server/src/main.ts'],
    cwd: repoRoot,
  },
  {
    name: 'web',
    color: 35,
    command: process.execPath,
    args: [viteCli], // piped output is not a TTY, so Vite doesn't clear the screen
    cwd: join(repoRoot, 'apps/web'),
  },
];

let stopping = false;
let exitCode = 0;
const running = new Set();

function prefixLines(stream, prefix, target) {
  createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) => {
    if (line.trim() !== '') target.write(`${prefix} ${line}\n`);
  });
}

function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal); // the child and everything it started
  } catch {
    // already gone
  }
}

function stopAll(code) {
  if (stopping) return;
  stopping = true;
  exitCode = code;
  for (const child of running) killGroup(child, 'SIGTERM');
  setTimeout(() => {
    for (const child of running) killGroup(child, 'SIGKILL');
  }, 5000).unref();
}

// Piped output is not a TTY; keep colors only when we are on one (FORCE_COLOR=0 still means color to some).
const childEnv = { ...process.env };
delete childEnv.FORCE_COLOR;
Object.assign(childEnv, useColor ? { FORCE_COLOR: '1' } : { NO_COLOR: '1' });
// The app's page comes from Vite's origin, which the server's socket Origin check must accept.
childEnv.ALLOWED_ORIGINS ??= 'http://127.0.0.1:5173,http://localhost:5173';

for (const spec of processes) {
  const prefix = paint(spec.color, `[${spec.name}]`.padEnd(8));
  // Own process group, so a stop reaches grandchildren (the restarted server under tsx watch).
  const child = spawn(spec.command, spec.args, {
    cwd: spec.cwd,
    env: childEnv,
    // stdin stays open: tsx watch exits on stdin EOF, and should instead wait for a fix after a crash
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  running.add(child);
  prefixLines(child.stdout, prefix, process.stdout);
  prefixLines(child.stderr, prefix, process.stderr);
  child.on('error', (error) => {
    console.error(`${prefix} could not start: ${error.message}`);
    running.delete(child);
    stopAll(1);
  });
  child.on('exit', (code, signal) => {
    running.delete(child);
    if (!stopping) console.error(`${prefix} exited (${signal ?? `code ${code}`}); stopping the rest.`);
    stopAll(code || (signal ? 1 : 0));
    if (running.size === 0) process.exit(exitCode);
  });
}

console.log(
  paint(1, 'Dev mode: open the Vite URL printed by [web] (proxies /v1 to the server). Ctrl-C stops both.'),
);

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stopAll(0));
// A last resort if we die another way: don't leave the children running.
process.on('exit', () => {
  for (const child of running) killGroup(child, 'SIGKILL');
});
