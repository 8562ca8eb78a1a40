import { EnvironmentOutlined, PhoneOutlined } from '@ant-design/icons';
import { Grid, Tag } from 'antd';
import type { CSSProperties } from 'react';
import type { InstallationStatus } from '../../contract/schemas/installation';
import { t } from '../../src/i18n';
import { formatDateTime, formatTime } from '../../src/components/dates';

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

/** "24 Nov 2026, 09:00–11:00" (local time, the reader's format), or "—". */
export function formatSlot(start: string | null, end: string | null): string {
  if (!start) return '—';
  return end ? `${formatDateTime(start)}–${formatTime(end)}` : formatDateTime(start);
}

/** "09:00–11:00": the slot's times only, for a list that is already headed by its day. */
export function formatTimes(start: string | null, end: string | null): string {
  if (!start) return t('installations.unscheduled');
  return end ? `${formatTime(start)}–${formatTime(end)}` : formatTime(start);
}

export const detailPath = (id: string) => `/dashboard/installation/${id}`;

/**
 * Google Maps' universal search link: a browser opens the map, a phone with the maps app installed opens the
 * app (Android and iOS both hand this address to it).
 */
export const mapsUrl = (address: string) =>
  `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(address)}`;

/** tel: with the number as dialled: spaces, dots, dashes and brackets dropped, a leading + kept. */
export const telUrl = (phone: string) => `tel:${phone.replace(/[^\d+#*,;]/g, '')}`;

/** The smallest comfortable touch target (WCAG 2.5.5, Apple's and Google's guidelines: 44–48 px). */
export const TOUCH = 44;

/** Below antd's sm breakpoint (576 px): a phone held upright. */
export function useIsPhone(): boolean {
  const screens = Grid.useBreakpoint();
  return !screens.sm;
}

const tapLink: CSSProperties = {
  display: 'flex',
  alignItems: 'center',
  gap: 8,
  minHeight: TOUCH,
  overflowWrap: 'anywhere',
};

/** The job's address as a maps link (a new tab, or the maps app on a phone), a full-height touch target. */
export function MapsLink({ address }: { address: string }) {
  return (
    <a
      href={mapsUrl(address)}
      target="_blank"
      rel="noopener noreferrer"
      style={tapLink}
      data-testid="maps-link"
      aria-label={t('installations.openMap', { address })}
    >
      <EnvironmentOutlined aria-hidden />
      <span>{address}</span>
    </a>
  );
}

/** The contact's phone as a tel: link (the phone offers to call), a full-height touch target. */
export function TelLink({ phone }: { phone: string }) {
  return (
    <a href={telUrl(phone)} style={tapLink} data-testid="tel-link" aria-label={t('installations.call', { phone })}>
      <PhoneOutlined aria-hidden />
      <span>{phone}</span>
    </a>
  );
}
