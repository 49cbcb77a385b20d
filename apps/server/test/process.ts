import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SEED_ENV, seedDataDir } from './global-setup';

const root = resolve(import.meta.dirname, '../../..');

export interface ServerProcess {
  child: ChildProcess;
  base: string;
  /** Everything the process wrote so far: stdout (the JSON log) and stderr. */
  stdout(): string;
  stderr(): string;
  exited: Promise<[number | null, NodeJS.Signals | null]>;
  /** Kills it if still running and removes its DATA_DIR. */
  dispose(): void;
}

/**
 * `npm start`'s server entry (apps/server/src/main.ts) as a real process on 127.0.0.1 and a free port,
 * on a fresh embedded database (from the migrated test seed), with the given environment on top.
 */
export async function startServerProcess(env: Record<string, string> = {}): Promise<ServerProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'otklik-process-'));
  if (!env.DATABASE_URL) seedDataDir(dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: '0',
      APP_URL: 'http://127.0.0.1:3000',
      SECRET_KEY: 'process-test-secret-key-0123456789abcdef',
      ...(process.env[SEED_ENV] ? { PGLITE_SEED: process.env[SEED_ENV] } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const dispose = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const port = await new Promise<number>((resolvePort, reject) => {
      child.stdout!.on('data', (chunk) => {
        stdout += String(chunk);
        const match = /Otklik is running on http:\/\/localhost:(\d+)/.exec(stdout);
        if (match) resolvePort(Number(match[1]));
      });
      void exited.then(([code]) => reject(new Error(`server exited ${code}: ${stderr}`)));
    });
    return {
      child,
      base: `http://127.0.0.1:${port}`,
      stdout: () => stdout,
      stderr: () => stderr,
      exited,
      dispose,
    };
  } catch (error) {
    dispose();
    throw error;
  }
}
