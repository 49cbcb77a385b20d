// `npm start`: build the web app if it is stale, then run the server (API + websocket + jobs + web app)
// in a child process, forwarding signals and its exit code. The server reads its own config from env
// (PORT, DATA_DIR, DATABASE_URL, REDIS_URL, ...) and prints its URL.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { ensureWebBuild, repoRoot } from './build-web.mjs';

const buildCode = ensureWebBuild();
if (buildCode !== 0) {
  console.error('Not starting the server: the web app did not build.');
  process.exit(buildCode);
}

const server = spawn(
  process.execPath,
  ['--import', 'tsx', 'apps/server/src/main.ts', ...process.argv.slice(2)],
  { cwd: repoRoot, stdio: 'inherit' },
);

// On Ctrl-C the terminal signals the whole process group (so the server already has it) and npm relays
// it once more; forward each signal, but not the same one twice within a second.
const lastForwarded = new Map();
const forward = (signal) => {
  const now = Date.now();
  if (now - (lastForwarded.get(signal) ?? 0) < 1000) return;
  lastForwarded.set(signal, now);
  if (server.exitCode === null && server.signalCode === null) server.kill(signal);
};
const signals = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'];
for (const signal of signals) process.on(signal, forward);

server.on('error', (error) => {
  console.error(`Could not start the server: ${error.message}`);
  process.exit(1);
});

server.on('exit', (code, signal) => {
  if (signal) {
    // Exit the way the server did, so a supervisor sees the same signal.
    for (const s of signals) process.removeAllListeners(s);
    process.kill(process.pid, signal);
    setTimeout(() => process.exit(128 + (constants.signals[signal] ?? 1)), 100).unref();
    return;
  }
  process.exit(code ?? 1);
});
