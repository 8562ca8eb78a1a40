/**
 * A network's address map: one /24 block at a time (a /16 is 256 pages, never 65 536 cells), each address a cell
 * with its colour, its letter and an accessible name saying its state and holder; pointing at or selecting a cell
 * shows who holds it (customer and subscription links, session start, quarantine end, note).
 */
import { useMemo, useRef, useState } from 'react';
import { Alert, Card, Descriptions, Flex, Pagination, Space, Spin, Typography } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { formatIp, parseIp, parsePrefix } from '../../contract/ip';
import type { IpNetwork } from '../../contract/schemas/ipam';
import { DateCell, useViewport } from '../../src/components/resource';
import { t } from '../../src/i18n';
import { useAddressMap, type AddressMap as MapData } from './api';
import { CELL_STATES, STATE_LETTER, StateSwatch, useSwatches, type CellState } from './ui';

const BLOCK_BITS = 8n;
const VISUALLY_HIDDEN = {
  position: 'absolute',
  width: 1,
  height: 1,
  margin: -1,
  padding: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
} as const;

interface Cell {
  address: string;
  state: CellState;
  subscriptionId?: string | null;
  userId?: string | null;
  customer?: string | null;
  username?: string;
  since?: string;
  until?: string | null;
  note?: string | null;
}

/** The blocks of a network: /24s of a larger IPv4 network, else the network itself. */
export function blocksOf(network: IpNetwork) {
  const p = parsePrefix(network.cidr);
  if (p?.family !== 4) return null;
  const count = p.length >= 24 ? 1n : 1n << BigInt(24 - p.length);
  const block = (i: number) => {
    if (p.length >= 24) return { start: p.start, end: p.end };
    const start = p.start + (BigInt(i) << BLOCK_BITS);
    return { start, end: start + 255n };
  };
  return { prefix: p, count: Number(count), block };
}

export function cellsOf(network: IpNetwork, start: bigint, end: bigint, map: MapData | undefined): Cell[] {
  const p = parsePrefix(network.cidr)!;
  const assigned = new Map((map?.items ?? []).map((i) => [i.address, i]));
  const dynamic = new Map((map?.dynamic ?? []).map((d) => [d.address, d]));
  const reserved = network.reserved_ranges.map((r) => ({
    from: parseIp(r.from)?.value ?? 0n,
    to: parseIp(r.to)?.value ?? -1n,
    note: r.note ?? null,
  }));
  const cells: Cell[] = [];
  for (let v = start; v <= end; v++) {
    const address = formatIp(4, v);
    const a = assigned.get(address);
    const d = dynamic.get(address);
    const range = reserved.find((r) => r.from <= v && v <= r.to);
    let cell: Cell;
    if (p.length <= 30 && v === p.start) cell = { address, state: 'network' };
    else if (p.length <= 30 && v === p.end) cell = { address, state: 'broadcast' };
    else if (network.gateway === address) cell = { address, state: 'gateway' };
    else if (a)
      cell = {
        address,
        state: a.state,
        subscriptionId: a.subscription_id,
        userId: a.user_id,
        customer: a.customer_name,
        until: a.quarantine_until,
        note: a.note,
      };
    else if (range) cell = { address, state: 'reserved', note: range.note };
    else if (d)
      cell = {
        address,
        state: 'dynamic',
        subscriptionId: d.subscription_id,
        userId: d.user_id,
        customer: d.customer_name,
        username: d.username,
        since: d.started_at,
      };
    else cell = { address, state: 'free' };
    cells.push(cell);
  }
  return cells;
}

function cellLabel(c: Cell) {
  const state = t(`ipam.state.${c.state}`);
  return c.customer
    ? t('ipam.map.cellHeld', { address: c.address, state, customer: c.customer })
    : t('ipam.map.cell', { address: c.address, state });
}

function Legend({ network }: { network: IpNetwork }) {
  const c = network.counts;
  const counts: Partial<Record<CellState, string>> = {
    free: Number(c.free).toLocaleString('en-US'),
    static: c.static.toLocaleString('en-US'),
    dynamic: (c.dynamic ?? 0).toLocaleString('en-US'),
    reserved: c.reserved.toLocaleString('en-US'),
    quarantined: c.quarantined.toLocaleString('en-US'),
  };
  return (
    <div>
      <Typography.Text strong id="ipam-legend">
        {t('ipam.map.legend')}
      </Typography.Text>
      <ul
        aria-labelledby="ipam-legend"
        style={{ listStyle: 'none', padding: 0, margin: '8px 0 0', display: 'flex', flexWrap: 'wrap', gap: '8px 16px' }}
        data-testid="map-legend"
      >
        {CELL_STATES.map((s) => (
          <li key={s} style={{ display: 'flex', alignItems: 'center', gap: 6 }}>
            <StateSwatch state={s} />
            <span>{t(`ipam.state.${s}`)}</span>
            {counts[s] !== undefined && <Typography.Text type="secondary">({counts[s]})</Typography.Text>}
          </li>
        ))}
      </ul>
    </div>
  );
}

function Holder({ cell }: { cell: Cell | null }) {
  if (!cell) return <Typography.Text type="secondary">{t('ipam.map.pick')}</Typography.Text>;
  return (
    <Descriptions size="small" column={1} bordered data-testid="address-holder" title={cell.address}>
      <Descriptions.Item label={t('ipam.map.state')}>
        <Space>
          <StateSwatch state={cell.state} />
          {t(`ipam.state.${cell.state}`)}
        </Space>
      </Descriptions.Item>
      {cell.customer && (
        <Descriptions.Item label={t('ipam.map.customer')}>
          {cell.userId ? (
            <Link to={`/dashboard/user/${encodeURIComponent(cell.userId)}`}>{cell.customer}</Link>
          ) : (
            cell.customer
          )}
        </Descriptions.Item>
      )}
      {cell.subscriptionId && (
        <Descriptions.Item label={t('ipam.map.subscription')}>
          <Link to={`/dashboard/subscription/${encodeURIComponent(cell.subscriptionId)}`}>
            {t('ipam.map.openSubscription')}
          </Link>
        </Descriptions.Item>
      )}
      {cell.username && (
        <Descriptions.Item label={t('ipam.map.login')}>
          <Typography.Text code>{cell.username}</Typography.Text>
        </Descriptions.Item>
      )}
      {cell.since && (
        <Descriptions.Item label={t('ipam.map.since')}>
          <DateCell value={cell.since} />
        </Descriptions.Item>
      )}
      {cell.until && (
        <Descriptions.Item label={t('ipam.map.until')}>
          <DateCell value={cell.until} />
        </Descriptions.Item>
      )}
      {cell.note && <Descriptions.Item label={t('ipam.map.note')}>{cell.note}</Descriptions.Item>}
    </Descriptions>
  );
}

export function AddressMap({ network }: { network: IpNetwork }) {
  const blocks = useMemo(() => blocksOf(network), [network]);
  const [params, setParams] = useSearchParams();
  const { narrow } = useViewport();
  const swatches = useSwatches();
  const index = Math.min(Math.max(0, Number(params.get('block') ?? 1) - 1 || 0), (blocks?.count ?? 1) - 1);
  const range = blocks?.block(index);
  const from = range ? formatIp(4, range.start) : '';
  const to = range ? formatIp(4, range.end) : '';
  const { map, isLoading, error } = useAddressMap(network.id, range ? { from, to } : null);
  const [selected, setSelected] = useState<Cell | null>(null);
  const holderRef = useRef<HTMLDivElement>(null);
  // On a phone the holder sits below 32 rows of cells: a tap brings it into view.
  const pick = (c: Cell) => {
    setSelected(c);
    if (narrow)
      requestAnimationFrame(() => holderRef.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' }));
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: range is a new object each render; its bounds are what the cells depend on
  const cells = useMemo(
    () => (range && map ? cellsOf(map.network, range.start, range.end, map) : []),
    [map, range?.start, range?.end],
  );

  if (!blocks) {
    return (
      <Card title={t('ipam.map.title')}>
        <Alert type="info" showIcon message={t('ipam.map.ipv6')} />
      </Card>
    );
  }
  const columns = narrow ? 8 : 16;
  return (
    <Card title={t('ipam.map.title')}>
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        <Legend network={map?.network ?? network} />
        {blocks.count > 1 && (
          <Flex wrap gap={8} align="center">
            <Typography.Text strong>{t('ipam.map.block', { block: `${from}/24` })}</Typography.Text>
            <Pagination
              simple={narrow}
              size="small"
              current={index + 1}
              total={blocks.count}
              pageSize={1}
              showSizeChanger={false}
              showQuickJumper={!narrow}
              showTotal={(total) => t('ipam.map.blockOf', { n: String(index + 1), total: String(total) })}
              onChange={(page) => {
                setSelected(null);
                const next = new URLSearchParams(params);
                next.set('block', String(page));
                setParams(next, { replace: true });
              }}
            />
          </Flex>
        )}
        {error ? (
          <Alert type="error" showIcon message={error} />
        ) : isLoading ? (
          <Spin />
        ) : (
          // biome-ignore lint/a11y/useSemanticElements: a group of address cells, not of form controls, which <fieldset> is for
          <div
            role="group"
            aria-label={t('ipam.map.grid', { from, to })}
            data-testid="address-grid"
            style={{ display: 'grid', gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`, gap: 3 }}
          >
            {cells.map((c) => {
              const s = swatches[c.state];
              const octet = c.address.split('.')[3];
              const isSelected = selected?.address === c.address;
              return (
                <button
                  key={c.address}
                  type="button"
                  aria-pressed={isSelected}
                  data-state={c.state}
                  data-address={c.address}
                  onClick={() => pick(c)}
                  onMouseEnter={() => setSelected(c)}
                  onFocus={() => setSelected(c)}
                  style={{
                    position: 'relative',
                    background: s.bg,
                    color: s.fg,
                    border: `1px solid ${s.border}`,
                    borderRadius: 3,
                    padding: '2px 0',
                    minWidth: 0,
                    font: 'inherit',
                    fontSize: 12,
                    lineHeight: 1.2,
                    cursor: 'pointer',
                    fontVariantNumeric: 'tabular-nums',
                    outline: isSelected ? `2px solid ${swatches.network.bg}` : undefined,
                    outlineOffset: 1,
                  }}
                >
                  {/* Its name is the whole sentence (address, state, holder); the octet and letter are what the eye reads. */}
                  <span aria-hidden style={{ display: 'block' }}>
                    {octet}
                  </span>
                  <span aria-hidden style={{ display: 'block', fontWeight: 700, fontSize: 10, minHeight: 12 }}>
                    {STATE_LETTER[c.state]}
                  </span>
                  <span style={VISUALLY_HIDDEN}>{cellLabel(c)}</span>
                </button>
              );
            })}
          </div>
        )}
        <div ref={holderRef}>
          <Holder cell={selected} />
        </div>
      </Space>
    </Card>
  );
}
