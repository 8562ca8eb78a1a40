/**
 * The IP screens' shared pieces: an address state's colours (light and dark, each text on its own fill at 7:1 or
 * more) and letter, so the state never rests on colour alone; the used/free bar; the purpose tag; who may change.
 */
import { Tag, Tooltip } from 'antd';
import { canCallEndpoint, type Role } from '../../contract/roles';
import type { IpNetwork, IpNetworkPurpose } from '../../contract/schemas/ipam';
import { useColorMode } from '../../src/layout/theme';
import { t } from '../../src/i18n';

export const CELL_STATES = [
  'free',
  'static',
  'dynamic',
  'reserved',
  'quarantined',
  'gateway',
  'network',
  'broadcast',
] as const;
export type CellState = (typeof CELL_STATES)[number];

/** The letter a cell carries besides its colour (free cells carry none). */
export const STATE_LETTER: Record<CellState, string> = {
  free: '',
  static: 'S',
  dynamic: 'D',
  reserved: 'R',
  quarantined: 'Q',
  gateway: 'G',
  network: 'N',
  broadcast: 'B',
};

interface Swatch {
  bg: string;
  fg: string;
  border: string;
}
const LIGHT: Record<CellState, Swatch> = {
  free: { bg: '#ffffff', fg: '#262626', border: '#8c8c8c' },
  static: { bg: '#bae0ff', fg: '#002c8c', border: '#4096ff' },
  dynamic: { bg: '#d9f7be', fg: '#135200', border: '#52c41a' },
  reserved: { bg: '#d9d9d9', fg: '#1f1f1f', border: '#8c8c8c' },
  quarantined: { bg: '#ffe7ba', fg: '#612500', border: '#fa8c16' },
  gateway: { bg: '#efdbff', fg: '#22075e', border: '#9254de' },
  network: { bg: '#434343', fg: '#ffffff', border: '#262626' },
  broadcast: { bg: '#434343', fg: '#ffffff', border: '#262626' },
};
const DARK: Record<CellState, Swatch> = {
  free: { bg: '#141414', fg: '#d9d9d9', border: '#595959' },
  static: { bg: '#003eb3', fg: '#ffffff', border: '#69b1ff' },
  dynamic: { bg: '#135200', fg: '#f6ffed', border: '#73d13d' },
  reserved: { bg: '#434343', fg: '#f5f5f5', border: '#8c8c8c' },
  quarantined: { bg: '#873800', fg: '#fff7e6', border: '#ffa940' },
  gateway: { bg: '#391085', fg: '#f9f0ff', border: '#b37feb' },
  network: { bg: '#d9d9d9', fg: '#141414', border: '#f0f0f0' },
  broadcast: { bg: '#d9d9d9', fg: '#141414', border: '#f0f0f0' },
};

export function useSwatches(): Record<CellState, Swatch> {
  return useColorMode().mode === 'dark' ? DARK : LIGHT;
}

/** A legend's square: the state's colour with its letter. */
export function StateSwatch({ state }: { state: CellState }) {
  const s = useSwatches()[state];
  return (
    <span
      aria-hidden
      style={{
        display: 'inline-flex',
        alignItems: 'center',
        justifyContent: 'center',
        width: 20,
        height: 20,
        borderRadius: 3,
        background: s.bg,
        color: s.fg,
        border: `1px solid ${s.border}`,
        fontSize: 11,
        fontWeight: 600,
        flex: 'none',
      }}
    >
      {STATE_LETTER[state]}
    </span>
  );
}

const PURPOSE_COLORS: Record<IpNetworkPurpose, string> = {
  static: 'blue',
  pool: 'green',
  walled_garden: 'orange',
  ipv6_delegation: 'purple',
};
export function PurposeTag({ purpose }: { purpose: IpNetworkPurpose }) {
  return <Tag color={PURPOSE_COLORS[purpose]}>{t(`ipam.purpose.${purpose}`)}</Tag>;
}

/** Used = static + dynamic + reserved (with the gateway and reserved ranges) + quarantined; free = what is left. */
export function usage(network: IpNetwork) {
  const c = network.counts;
  const used = c.static + (c.dynamic ?? 0) + c.reserved + c.quarantined;
  const size = Number(network.size);
  const free = Number(c.free);
  return { used, free, size, percent: size > 0 ? Math.min(100, Math.round((used / size) * 1000) / 10) : 0 };
}

const fmt = (n: number) => n.toLocaleString('en-US');

/** The used/free bar of a network (IPv4; an IPv6 prefix is too large for one). Segments by state, each labelled. */
export function UsageBar({ network }: { network: IpNetwork }) {
  const swatches = useSwatches();
  if (network.family === 6) return <span>{t('ipam.usage.ipv6')}</span>;
  const u = usage(network);
  const c = network.counts;
  const parts: Array<[CellState, number]> = [
    ['static', c.static],
    ['dynamic', c.dynamic ?? 0],
    ['reserved', c.reserved],
    ['quarantined', c.quarantined],
  ];
  const label = t('ipam.usage.label', {
    used: fmt(u.used),
    size: fmt(u.size),
    percent: String(u.percent),
    free: fmt(u.free),
  });
  const detail = parts
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${t(`ipam.state.${s}`)}: ${fmt(n)}`)
    .join(' · ');
  return (
    <Tooltip title={detail || undefined}>
      <div style={{ minWidth: 80, maxWidth: 260 }} data-testid="usage-bar">
        <div
          role="img"
          aria-label={detail ? `${label}. ${detail}` : label}
          style={{
            display: 'flex',
            height: 10,
            borderRadius: 5,
            overflow: 'hidden',
            border: `1px solid ${swatches.free.border}`,
            background: swatches.free.bg,
          }}
        >
          {u.size > 0 &&
            parts.map(([s, n]) =>
              n > 0 ? (
                <span
                  key={s}
                  style={{ width: `${Math.max(1, (n / u.size) * 100)}%`, background: swatches[s].border }}
                />
              ) : null,
            )}
        </div>
        <div style={{ fontSize: 12 }}>{t('ipam.usage.short', { used: fmt(u.used), free: fmt(u.free) })}</div>
      </div>
    </Tooltip>
  );
}

/** Who may change networks and addresses: the API's audience (support reads only). */
export const canManageNetworks = (role: Role | null | undefined) => canCallEndpoint(role, 'POST', '/ipam/networks');
