import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../..');

/** Runs `npm start`'s server entry with the given environment and returns how it ended. */
function start(env: Record<string, string>) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'otklik-main-')),
      PORT: '0',
      ...env,
    },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, stderr: result.stderr.trim() };
}

describe('start-up failures print one clear line and exit non-zero', () => {
  it('an unreachable DATABASE_URL', () => {
    const { status, stderr } = start({ DATABASE_URL: 'postgres://otklik:hunter2@127.0.0.1:1/otklik' });
    expect(status).toBe(1);
    expect(stderr.split('\n')).toHaveLength(1);
    expect(stderr).toMatch(
      /^Otklik could not start: Cannot connect to DATABASE_URL \(postgres:\/\/otklik:\*\*\*@127\.0\.0\.1:1\/otklik\)/,
    );
    expect(stderr).not.toContain('hunter2');
  });

  it('a DATABASE_URL that is not a PostgreSQL address', () => {
    const { status, stderr } = start({ DATABASE_URL: 'mysql://localhost/x' });
    expect(status).toBe(1);
    expect(stderr).toBe(
      'Otklik could not start: Invalid configuration: DATABASE_URL must start with postgres:// or postgresql://',
    );
  });

  it('a bad PORT', () => {
    const { status, stderr } = start({ PORT: 'abc' });
    expect(status).toBe(1);
    expect(stderr.split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/Invalid configuration: PORT/);
  });
});
