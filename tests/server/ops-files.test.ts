/**
 * Issue 18, ops files: the alert rules (ops/prometheus-alerts.yml) and the Grafana dashboard (ops/grafana-dashboard.json)
 * only use metrics the portal really exports (scraped from a test app), the rules have the shape Prometheus loads
 * (groups → rules with alert, expr, severity and a summary; names unique), and the systemd unit stops the server
 * with SIGTERM and gives it time to drain. Prometheus' own promtool is not in Debian's packages without the whole
 * server, so the rules are checked this way rather than by `promtool check rules`.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { bearer, createTestApp, type TestApp } from '../helpers/server';

const ROOT = new URL('../..', import.meta.url).pathname;
const read = (file: string) => readFileSync(`${ROOT}ops/${file}`, 'utf8');
const TOKEN = 'ops-files-token-0123456789';

let t: TestApp;
let exported: Set<string>;
beforeAll(async () => {
  t = await createTestApp({ config: { metricsToken: TOKEN } });
  const text = (await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(TOKEN) })).body;
  exported = new Set([...text.matchAll(/^# TYPE (\S+) \S+$/gm)].map((m) => m[1]));
});
afterAll(() => t?.close());

/** The portal's metric names an expression uses (a histogram's _bucket/_count/_sum are its own name). */
const metricsIn = (expr: string) =>
  [...expr.matchAll(/\b(isp_[a-z0-9_]+)/g)].map((m) => m[1].replace(/_(bucket|count|sum)$/, ''));

describe('ops files', () => {
  it('the alert rules have the shape Prometheus loads and use only exported metrics', () => {
    const rules = parse(read('prometheus-alerts.yml')) as {
      groups: Array<{ name: string; rules: Array<Record<string, unknown>> }>;
    };
    expect(rules.groups.length).toBeGreaterThan(0);
    const names = new Set<string>();
    for (const group of rules.groups) {
      expect(typeof group.name).toBe('string');
      for (const rule of group.rules) {
        expect(typeof rule.alert, JSON.stringify(rule)).toBe('string');
        expect(names.has(rule.alert as string), `duplicate ${rule.alert}`).toBe(false);
        names.add(rule.alert as string);
        expect(typeof rule.expr).toBe('string');
        expect(['warning', 'critical']).toContain((rule.labels as { severity?: string }).severity);
        expect(typeof (rule.annotations as { summary?: string }).summary).toBe('string');
        if (rule.for !== undefined) expect(rule.for).toMatch(/^\d+[smh]$/);
        for (const metric of metricsIn(rule.expr as string))
          expect(exported.has(metric), `${rule.alert}: ${metric} is not exported`).toBe(true);
      }
    }
    // What an on-call ISP wants to be woken for.
    for (const wanted of [
      'RadiusRejectSpike',
      'BillingRunFailed',
      'BillingRunMissing',
      'BackupFailed',
      'HighErrorRate',
      'JobBacklog',
    ]) {
      expect(
        [...names].some((n) => n.includes(wanted)),
        wanted,
      ).toBe(true);
    }
  });

  it('the Grafana dashboard parses and its panels query exported metrics', () => {
    const dashboard = JSON.parse(read('grafana-dashboard.json')) as {
      panels: Array<{ title: string; targets: Array<{ expr: string }> }>;
    };
    expect(dashboard.panels.length).toBeGreaterThanOrEqual(10);
    const titles = dashboard.panels.map((p) => p.title).join(' | ');
    for (const topic of ['API requests', 'latency', 'RADIUS', 'billing', 'Jobs', 'Mail'])
      expect(titles.toLowerCase()).toContain(topic.toLowerCase());
    for (const panel of dashboard.panels) {
      expect(panel.targets.length).toBeGreaterThan(0);
      for (const target of panel.targets)
        for (const metric of metricsIn(target.expr))
          expect(exported.has(metric), `${panel.title}: ${metric}`).toBe(true);
    }
  });

  it('the systemd unit runs the compiled server with node and stops it with SIGTERM, giving the drain its time', () => {
    const unit = read('isp-portal.service');
    expect(unit).toMatch(/^ExecStart=\/usr\/bin\/node --enable-source-maps build\/server\/server\.mjs$/m);
    expect(unit).toMatch(/^KillSignal=SIGTERM$/m);
    const stop = Number(/^TimeoutStopSec=(\d+)$/m.exec(unit)?.[1]);
    expect(stop).toBeGreaterThan(t.config.shutdownDrainSeconds + t.config.shutdownTimeoutSeconds);
    expect(read('nginx.conf')).toContain('location = /metrics { return 404; }');
  });
});
