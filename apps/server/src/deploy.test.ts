import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { SEED_ENV } from '../test/global-setup';
import { createTestApp, type TestApp } from '../test/harness';
import { ENV_NAMES } from './lib/config';

// Docker and helm are not on this machine: the deployment files are checked for what can break silently
// — YAML that does not parse, a probe path the server does not answer, an environment variable the
// server does not read (a typo is ignored at run time), a migration command that does not exist.

const root = resolve(import.meta.dirname, '../../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const chart = 'deploy/helm/otklik';

/**
 * The chart's templates as YAML without helm: lines that are only a directive ({{- if }}, {{- end }},
 * {{- include … | nindent }}) are dropped, inline values become a placeholder. What remains must parse
 * and keep its structure.
 */
function renderTemplate(text: string) {
  const lines = text
    .split('\n')
    .filter((line) => !/^\s*\{\{.*\}\}\s*$/.test(line))
    .map((line) => line.replace(/\{\{-?.*?-?\}\}/g, 'X'));
  const docs = parseAllDocuments(lines.join('\n'));
  for (const doc of docs) expect(doc.errors.map(String)).toEqual([]);
  return docs.map((doc) => doc.toJS() as Record<string, unknown> | null).filter((doc) => doc !== null);
}

const templates = readdirSync(join(root, chart, 'templates')).filter((f) => f.endsWith('.yaml'));
const rendered = templates.flatMap((file) =>
  renderTemplate(read(`${chart}/templates/${file}`)).map((doc) => ({ file, doc })),
);
const byKind = (kind: string) => rendered.filter(({ doc }) => doc.kind === kind);
const values = parse(read(`${chart}/values.yaml`));
const compose = parse(read('docker-compose.yml'), { merge: true });
const dockerfile = read('Dockerfile');

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('Helm chart', () => {
  it('has every object a cluster deployment needs, each parsing as YAML', () => {
    expect(parse(read(`${chart}/Chart.yaml`))).toMatchObject({ apiVersion: 'v2', name: 'otklik' });
    for (const kind of [
      'Deployment',
      'Service',
      'Ingress',
      'HorizontalPodAutoscaler',
      'ConfigMap',
      'Secret',
      'PodDisruptionBudget',
      'Job',
    ])
      expect(byKind(kind).length, kind).toBeGreaterThan(0);
    const job = byKind('Job')[0]!.doc as { metadata: { annotations: Record<string, string> } };
    expect(job.metadata.annotations['helm.sh/hook']).toBe('pre-install,pre-upgrade');
  });

  it('probes the paths the server answers: readiness /readyz, liveness /livez, never the web page', async () => {
    const deployment = read(`${chart}/templates/deployment.yaml`);
    expect(deployment).toContain('path: {{ .Values.probes.readiness.path }}');
    expect(deployment).toContain('path: {{ .Values.probes.liveness.path }}');
    expect(values.probes.readiness.path).toBe('/readyz');
    expect(values.probes.liveness.path).toBe('/livez');
    for (const path of [
      values.probes.readiness.path,
      values.probes.liveness.path,
      values.probes.startup.path,
    ]) {
      const res = await t.app.inject({ url: path });
      expect(res.statusCode, path).toBe(200);
      expect(res.headers['content-type'], path).toMatch(/application\/json/);
    }
  });

  it('sets only environment variables the server reads, SECRET_KEY among the secrets', () => {
    const names = [...Object.keys(values.env), ...Object.keys(values.secretEnv)];
    expect(names.filter((name) => !ENV_NAMES.includes(name))).toEqual([]);
    expect(Object.keys(values.secretEnv)).toEqual(
      expect.arrayContaining(['SECRET_KEY', 'DATABASE_URL', 'REDIS_URL']),
    );
    // Secrets never sit in the ConfigMap.
    expect(
      Object.keys(values.env).filter(
        (name) => /SECRET|TOKEN|PASSWORD|_URL$/.test(name) && name !== 'APP_URL',
      ),
    ).toEqual([]);
  });

  it('gives the process longer to stop than the server takes to drain', () => {
    const drain = Number(values.env.SHUTDOWN_DELAY_S) + Number(values.env.SHUTDOWN_TIMEOUT_S);
    expect(values.terminationGracePeriodSeconds).toBeGreaterThan(drain);
  });
});

describe('docker-compose.yml', () => {
  it('runs two app nodes behind a proxy, PostgreSQL, Redis and a mail catcher', () => {
    const services = compose.services as Record<string, Record<string, unknown>>;
    expect(Object.keys(services)).toEqual(
      expect.arrayContaining(['app1', 'app2', 'proxy', 'postgres', 'redis', 'mailpit', 'migrate']),
    );
    const nginx = read('deploy/compose/nginx.conf');
    for (const node of ['app1', 'app2']) {
      const env = services[node]!.environment as Record<string, string>;
      expect(env.DATABASE_URL).toMatch(/^postgres:\/\/.+@postgres:5432\//);
      expect(env.REDIS_URL).toBe('redis://redis:6379');
      expect(env.SMTP_URL).toBe('smtp://mailpit:1025');
      expect(Object.keys(env).filter((name) => !ENV_NAMES.includes(name))).toEqual([]);
      expect(nginx).toContain(`server ${node}:3000`);
    }
    expect(nginx).toContain('proxy_set_header Upgrade $http_upgrade');
  });
});

describe('Dockerfile', () => {
  it('is multi-stage, runs as a non-root user with a /livez health check and DATA_DIR on a volume', () => {
    expect(dockerfile.match(/^FROM /gm)?.length).toBeGreaterThanOrEqual(3);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*\n?.*\/livez/m);
    expect(dockerfile).toMatch(/DATA_DIR=\/data/);
    expect(dockerfile).toMatch(/^VOLUME \["\/data"\]$/m);
    // Everything the runtime stage copies from the context exists.
    for (const [, sources] of dockerfile.matchAll(/^COPY (?!--from)(.+) \S+$/gm))
      for (const source of sources!.split(' ')) expect(existsSync(join(root, source)), source).toBe(true);
  });
});

describe('the migration command', () => {
  const command = ['node', '--import', 'tsx', 'scripts/migrate.ts'];

  it('is the one the chart, compose and package.json run', () => {
    expect(read(`${chart}/templates/migrate-job.yaml`)).toContain(
      `command: ${JSON.stringify(command).replaceAll(',', ', ')}`,
    );
    expect(compose.services.migrate.command).toEqual(command);
    expect(JSON.parse(read('package.json')).scripts['db:migrate']).toBe(command.join(' '));
    expect(dockerfile).toMatch(/^COPY scripts\/migrate\.ts /m);
  });

  it('migrates a database and exits 0', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'otklik-migrate-'));
    try {
      const result = spawnSync(command[0]!, command.slice(1), {
        cwd: root,
        env: {
          PATH: process.env.PATH ?? '',
          DATA_DIR: dataDir,
          ...(process.env[SEED_ENV] ? { PGLITE_SEED: process.env[SEED_ENV] } : {}),
        },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      expect(result.stdout).toBe('Migrations applied.\n');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
