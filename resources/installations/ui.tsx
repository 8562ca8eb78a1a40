import { Tag } from 'antd';
import dayjs from 'dayjs';
import type { InstallationStatus } from '../../contract/schemas/installation';
import { t } from '../../src/i18n';

export const STATUS_COLORS: Record<InstallationStatus, string> = {
  requested: 'default',
  scheduled: 'blue',
  en_route: 'cyan',
  in_progress: 'gold',
  completed: 'green',
  failed: 'red',
  cancelled: 'default',
};

export function InstallationStatusTag({ status }: { status: InstallationStatus }) {
  return <Tag color={STATUS_COLORS[status]}>{t(`installations.status.${status}`)}</Tag>;
}

/** "24 Nov 2026 09:00–11:00" (local time), or "—". */
export function formatSlot(start: string | null, end: string | null): string {
  if (!start) return '—';
  const s = dayjs(start);
  return end ? `${s.format('D MMM YYYY HH:mm')}–${dayjs(end).format('HH:mm')}` : s.format('D MMM YYYY HH:mm');
}

export const detailPath = (id: string) => `/dashboard/installation/${id}`;
