// No Docker engine is needed to check the deployment files: the Dockerfile goes through a Dockerfile linter and is
// read for what the README promises; compose.yaml is parsed and checked for its shape.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validate } from 'dockerfile-utils';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BACKUP_FILE } from '../app-server/cli/backup.ts';

const read = (file: string) => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');
const dockerfile = read('Dockerfile');
const lines = dockerfile
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));
const stages = dockerfile.split(/^FROM /m).slice(1);

interface Service {
  image?: string;
  build?: string;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: { test: string[] };
  ports?: string[];
  volumes?: string[];
  networks?: Record<string, { ipv4_address?: string } | null>;
}
const compose = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, Service> };

describe('Dockerfile', () => {
  it('passes the linter with no warning', () => {
    expect(validate(dockerfile).map((d) => `line ${d.range.start.line + 1}: ${d.message}`)).toEqual([]);
  });

  it('runs on a maintained Node LTS (22 or 24), in every stage', () => {
    const bases = lines.filter((l) => l.startsWith('FROM ')).map((l) => l.split(/\s+/)[1]!);
    expect(bases.length).toBeGreaterThanOrEqual(2);
    for (const base of bases) expect(base).toMatch(/^node:(22|24)[.-]/);
  });

  it('builds in one stage and runs from another, as a user that is not root', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const runtime = stages.at(-1)!;
    expect(runtime).toMatch(/^USER (?!root\b|0\b)\S+/m);
    expect(runtime).toMatch(/npm ci --omit=dev/);
  });

  it('installs the PostgreSQL client the backup command runs (pg_dump)', () => {
    expect(stages.at(-1)).toMatch(/apt-get install [^\n]*postgresql-client/);
  });

  it('checks its health on /api/ready', () => {
    expect(stages.at(-1)).toMatch(/^HEALTHCHECK [\s\S]*\/api\/ready/m);
  });

  it('copies only what exists in the repository', () => {
    const sources = lines
      .filter((l) => l.startsWith('COPY --from=build /app/'))
      .map((l) => l.split(/\s+/)[2]!.replace('/app/', ''));
    expect(sources.length).toBeGreaterThan(3);
    const built = new Set(['dist', 'web/dist']);
    for (const source of sources)
      if (!built.has(source)) expect(existsSync(new URL(`../${source}`, import.meta.url)), source).toBe(true);
  });
});

describe('compose.yaml', () => {
  const { services } = compose;
  const apps = Object.entries(services)
    .filter(([, s]) => s.build !== undefined)
    .map(([name, s]) => ({ name, ...s }));

  it('runs PostgreSQL, two app servers from this image and a proxy', () => {
    expect(services.postgres?.image).toMatch(/^postgres:\d+/);
    expect(services.postgres?.healthcheck?.test).toContain('pg_isready');
    expect(apps.map((a) => a.name)).toEqual(['app1', 'app2']);
    expect(services.proxy?.ports).toEqual(['80:80', '443:443', '443:443/udp']);
  });

  it('gives every app server the same database, SECRET_KEY and TRUST_PROXY, and starts them after PostgreSQL is healthy', () => {
    const [first, second] = apps;
    for (const name of ['DATABASE_URL', 'SECRET_KEY', 'TRUST_PROXY'] as const) {
      expect(first!.environment?.[name], name).toBeTruthy();
      expect(second!.environment?.[name], name).toBe(first!.environment?.[name]);
    }
    expect(first!.environment!.DATABASE_URL).toMatch(/@postgres:5432\//);
    expect(first!.environment!.SECRET_KEY).toMatch(/^\$\{SECRET_KEY:\?/); // compose refuses to start without it
    for (const app of apps) expect(app.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
  });

  it("backs PostgreSQL up with its own image's pg_dump, keeping BACKUP_KEEP_DAYS, where the app servers' doctor looks", () => {
    const backup = services.backup as Service & { command: string[] };
    expect(backup.image).toBe(services.postgres?.image);
    expect(backup.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(backup.volumes).toEqual(['backups:/backups']);
    expect(backup.command.join('\n')).toMatch(/pg_dump --format=custom/);
    for (const app of apps) {
      expect(app.environment?.BACKUP_DIR).toBe('/backups');
      expect(app.volumes).toContain('backups:/backups:ro');
    }
  });

  it('runs a backup service script that writes a dump doctor recognises, owner-only, and deletes the old ones', () => {
    // The script as the container's shell gets it (compose turns $$ into $), on a scratch directory, with pg_dump
    // and sleep stubbed: pg_dump writes its --file, sleep ends the loop after one round.
    const backup = services.backup as Service & { command: string[]; environment: Record<string, string> };
    const dir = mkdtempSync(join(tmpdir(), 'escrow-backup-service-'));
    try {
      const bin = join(dir, 'bin');
      const backups = join(dir, 'backups');
      mkdirSync(bin);
      mkdirSync(backups);
      writeFileSync(
        join(bin, 'pg_dump'),
        '#!/bin/sh\nfor a in "$@"; do case "$a" in --file=*) echo dump > "${a#--file=}";; esac; done\n',
        { mode: 0o755 },
      );
      writeFileSync(join(bin, 'sleep'), '#!/bin/sh\nkill -TERM $PPID\n', { mode: 0o755 });
      const old = join(backups, 'escrow-postgres-20200101-000000.dump');
      const recent = join(backups, 'escrow-postgres-20990101-000000.dump');
      writeFileSync(old, 'old');
      writeFileSync(recent, 'recent');
      utimesSync(old, new Date('2020-01-01'), new Date('2020-01-01'));
      const script = backup.command.join('\n').replaceAll('$$', '$').replaceAll('/backups', backups);
      spawnSync('/bin/sh', ['-c', script], {
        env: { PATH: `${bin}:/usr/bin:/bin`, BACKUP_INTERVAL_HOURS: '24', BACKUP_KEEP_DAYS: '14' },
      });
      const files = readdirSync(backups).sort();
      expect(files).toHaveLength(2);
      expect(files).toContain('escrow-postgres-20990101-000000.dump');
      const made = files.find((f) => f !== 'escrow-postgres-20990101-000000.dump')!;
      expect(made).toMatch(BACKUP_FILE);
      expect(statSync(join(backups, made)).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("trusts exactly the proxy: TRUST_PROXY is the proxy's fixed address", () => {
    const proxyAddress = Object.values(services.proxy?.networks ?? {})[0]?.ipv4_address;
    expect(proxyAddress).toBeTruthy();
    expect(apps[0]!.environment!.TRUST_PROXY).toBe(proxyAddress);
  });

  it('has the proxy spread requests over both app servers, checking /api/ready', () => {
    const caddyfile = read('deploy/Caddyfile');
    const mounted = services.proxy?.volumes?.find((v) => v.startsWith('./deploy/Caddyfile:'));
    expect(mounted).toBeTruthy();
    expect(caddyfile).toMatch(/reverse_proxy app1:3000 app2:3000/);
    expect(caddyfile).toMatch(/health_uri \/api\/ready/);
  });

  it("serves HTTPS for SITE_ADDRESS and keeps Caddy's certificates in volumes", () => {
    expect(read('deploy/Caddyfile')).toMatch(/^\{\$SITE_ADDRESS:localhost\} \{$/m);
    expect(services.proxy?.environment?.SITE_ADDRESS).toBe('${SITE_ADDRESS:-localhost}');
    expect(services.proxy?.volumes).toEqual(expect.arrayContaining(['caddy-data:/data', 'caddy-config:/config']));
    expect(apps[0]!.environment!.PUBLIC_URL).toBe('https://${SITE_ADDRESS:-localhost}');
  });

  it('has the proxy compress text answers (zstd, gzip)', () => {
    expect(read('deploy/Caddyfile')).toMatch(/^\s*encode zstd gzip$/m);
  });
});
