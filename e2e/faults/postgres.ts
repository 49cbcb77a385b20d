// A private PostgreSQL cluster for one faults file: initdb in a temporary folder, a server on a free
// port on 127.0.0.1, which the test may stop (`immediate`: as a crash or a kill of the server) and start
// again at will without disturbing anyone else's database. Needs Debian's postgresql binaries
// (/usr/lib/postgresql/<version>/bin). initdb refuses to run as root: as root the cluster belongs to the
// `postgres` system user (runuser).
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../harness/app';

const binRoot = '/usr/lib/postgresql';

/** The newest installed server's bin folder, or null when there is none. */
export function postgresBin(): string | null {
  if (!existsSync(binRoot)) return null;
  const versions = readdirSync(binRoot)
    .filter((v) => existsSync(join(binRoot, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(binRoot, versions[0], 'bin') : null;
}

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:<port>/otklik */
  url: string;
  port: number;
  /** Stops the server: `immediate` = no shutdown checkpoint, clients cut (a crash); `fast` = clean. */
  stop(mode?: 'immediate' | 'fast'): void;
  start(): void;
  /** Stops it for good and removes its folder. */
  destroy(): void;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBin();
  if (!bin) throw new Error(`no PostgreSQL server binaries under ${binRoot}`);
  const root = mkdtempSync(join(tmpdir(), 'otklik-faults-pg-'));
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? Number(execFileSync('id', ['-u', 'postgres']).toString().trim()) : undefined;
  if (owner !== undefined) {
    chownSync(root, owner, Number(execFileSync('id', ['-g', 'postgres']).toString().trim()));
    chmodSync(root, 0o700);
  }
  const run = (tool: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args], { stdio: 'pipe' })
      : execFileSync(join(bin, tool), args, { stdio: 'pipe' });
  const data = join(root, 'data');
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  const options = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c max_connections=60`;
  const pgCtl = (args: string[]) => run('pg_ctl', ['-D', data, '-l', join(root, 'log'), ...args]);
  const start = () => {
    pgCtl(['-w', '-t', '60', '-o', options, 'start']);
  };
  start();
  run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', 'otklik']);
  let destroyed = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/otklik`,
    port,
    stop: (mode = 'immediate') => {
      pgCtl(['-w', '-t', '60', '-m', mode, 'stop']);
    },
    start,
    destroy: () => {
      if (destroyed) return;
      destroyed = true;
      try {
        pgCtl(['-w', '-t', '30', '-m', 'immediate', 'stop']);
      } catch {
        // already stopped
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}
