/**
 * A device's interfaces with their live status (the interfaces screen and the device's show page, readable
 * by the technician): name and description, operational and admin status tags, speed, MAC, the rate over the
 * last polled interval, and for admins a link to the interface's usage history.
 */
import { Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { Link } from 'react-router';
import type { DeviceInterface } from '../../contract/schemas/traffic';
import { DateCell } from '../../src/components/resource/cells';
import { t } from '../../src/i18n';
import { formatBps, formatSpeed, NO_VALUE } from './format';

const STATUS_COLOR: Record<string, string> = {
  up: 'green',
  down: 'red',
  lowerLayerDown: 'orange',
  dormant: 'blue',
  testing: 'gold',
};

export function InterfaceStatusTag({ status }: { status: string }) {
  return (
    <Tag color={STATUS_COLOR[status] ?? 'default'} data-status={status}>
      {t(`traffic.status.${status}`, undefined, status)}
    </Tag>
  );
}

export const usageLink = (deviceId: string, interfaceId: string) =>
  `/dashboard/nas/router/usage?device=${encodeURIComponent(deviceId)}&interface=${encodeURIComponent(interfaceId)}`;

export function InterfacesTable({
  items,
  loading,
  showTrafficLinks,
}: {
  items: DeviceInterface[];
  loading?: boolean;
  showTrafficLinks?: boolean;
}) {
  const columns: ColumnsType<DeviceInterface> = [
    { key: 'if_index', dataIndex: 'if_index', title: t('traffic.col.index'), width: 80 },
    {
      key: 'name',
      dataIndex: 'name',
      title: t('traffic.col.name'),
      render: (name: string, r) => (
        <>
          <Typography.Text strong>{name}</Typography.Text>
          {r.alias ? (
            <div>
              <Typography.Text type="secondary">{r.alias}</Typography.Text>
            </div>
          ) : null}
          {/* Under the name rather than in a last column: on a phone that column lay beyond the screen's edge. */}
          {showTrafficLinks ? (
            <div>
              <Link to={usageLink(r.device_id, r.id)}>{t('traffic.viewTraffic')}</Link>
            </div>
          ) : null}
        </>
      ),
    },
    {
      key: 'oper_status',
      dataIndex: 'oper_status',
      title: t('traffic.col.oper'),
      render: (s: string) => <InterfaceStatusTag status={s} />,
    },
    {
      key: 'admin_status',
      dataIndex: 'admin_status',
      title: t('traffic.col.admin'),
      render: (s: string) => <InterfaceStatusTag status={s} />,
    },
    {
      key: 'speed',
      dataIndex: 'high_speed_mbps',
      title: t('traffic.col.speed'),
      render: (v: number) => formatSpeed(v),
    },
    {
      key: 'mac',
      dataIndex: 'mac',
      title: t('traffic.col.mac'),
      render: (v: string) => (v ? <Typography.Text code>{v}</Typography.Text> : NO_VALUE),
    },
    { key: 'in', dataIndex: 'in_bps', title: t('traffic.col.in'), render: (v: number | null) => formatBps(v) },
    { key: 'out', dataIndex: 'out_bps', title: t('traffic.col.out'), render: (v: number | null) => formatBps(v) },
    {
      key: 'last_seen_at',
      dataIndex: 'last_seen_at',
      title: t('traffic.col.lastSeen'),
      render: (v: string) => <DateCell value={v} />,
    },
  ];
  return (
    <Table<DeviceInterface>
      rowKey="id"
      size="small"
      columns={columns}
      dataSource={items}
      loading={loading}
      pagination={false}
      locale={{ emptyText: t('traffic.noInterfaces') }}
      data-testid="interfaces-table"
      scroll={{ x: true }}
    />
  );
}
