/**
 * `npm run simulate` — the network simulator beside a running portal (issue 16): a simulated MikroTik NAS on
 * loopback that registers itself as a device through the portal's API, answers SNMP, dials every active
 * customer in over RADIUS (PAP), reports accounting, and obeys Disconnect and CoA requests. SIGTERM or SIGINT
 * ends every session with a Stop and exits.
 *
 * Environment (the portal's own variables are read the same way, so one .env serves both):
 *   PORTAL_URL           the portal's address. Default http://127.0.0.1:$PORT (3000).
 *   SIMULATE_TOKEN       an API token (isp_…) with the admin role; or
 *   SIMULATE_EMAIL / SIMULATE_PASSWORD  an administrator's sign-in. Default the demo admin (admin@isp.local).
 *   RADIUS_HOST, RADIUS_AUTH_PORT, RADIUS_ACCT_PORT  where the portal's RADIUS listens (127.0.0.1, 1812, 1813).
 *   RADIUS_COA_PORT      the port the portal sends Disconnect/CoA-Requests to; the simulator listens there (3799).
 *   SIMULATE_HOST        the simulated NAS's loopback address (127.0.0.1).
 *   SIMULATE_MAX_PPS     at most this many RADIUS packets per second (50).
 *   SIMULATE_INTERIM_SECONDS  report usage at least this often, whatever the portal asks (60).
 */
import { passwordAuth } from '../server/simulator/portal-link';
import { startSimulator, type RunningSimulator } from '../server/simulator';

const env = process.env;
if (env.NODE_ENV === 'production') {
  console.error(
    'The network simulator does not run with NODE_ENV=production: it would book simulated usage on real customers.',
  );
  process.exit(1);
}
const number = (name: string, fallback: number) => {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) {
    console.error(`${name} must be a positive number`);
    process.exit(1);
  }
  return n;
};

const portalUrl = env.PORTAL_URL ?? `http://127.0.0.1:${env.PORT ?? 3000}`;
const auth = env.SIMULATE_TOKEN
  ? async () => env.SIMULATE_TOKEN!
  : passwordAuth(portalUrl, env.SIMULATE_EMAIL ?? 'admin@isp.local', env.SIMULATE_PASSWORD ?? 'Password123!');

const line = (level: string) => (obj: object, msg: string) => {
  const fields = Object.entries(obj)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${v instanceof Error ? v.message : typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
    .join(' ');
  const out = `${new Date().toISOString()} ${level} ${msg}${fields ? ` ${fields}` : ''}`;
  if (level === 'ERROR' || level === 'WARN') console.error(out);
  else console.log(out);
};
const log = { info: line('INFO'), warn: line('WARN'), error: line('ERROR'), debug: () => {} };

let simulator: RunningSimulator;
try {
  simulator = await startSimulator({
    portalUrl,
    auth,
    radius: {
      host: env.RADIUS_HOST ?? '127.0.0.1',
      authPort: number('RADIUS_AUTH_PORT', 1812),
      acctPort: number('RADIUS_ACCT_PORT', 1813),
      coaPort: number('RADIUS_COA_PORT', 3799),
    },
    host: env.SIMULATE_HOST ?? '127.0.0.1',
    maxPacketsPerSecond: number('SIMULATE_MAX_PPS', 50),
    nas: { maxInterimSeconds: number('SIMULATE_INTERIM_SECONDS', 60) },
    log,
  });
} catch (error) {
  const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code;
  console.error(
    `The network simulator could not start: ${(error as Error).message}${cause === 'ECONNREFUSED' ? ` (is the portal running at ${portalUrl}?)` : ''}`,
  );
  process.exit(1);
}

// One status line a minute: who is online and what was sent.
let lastPackets = 0;
const status = setInterval(() => {
  const s = simulator.nas.stats();
  log.info({ ...s, packetsPerSecond: ((s.packetsSent - lastPackets) / 60).toFixed(1) }, 'network simulator');
  lastPackets = s.packetsSent;
}, 60_000);

let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) process.exit(1);
  stopping = true;
  clearInterval(status);
  log.info({ signal }, 'stopping the network simulator');
  await simulator.stop();
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
