/** Sizes and times as the backup screens show them. */
import { formatDateTime } from '../../src/components/dates';

/** Bytes in B, KB, MB, GB or TB (1024-based, one decimal): backup archives, configurations, the database's size. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}

export const formatTime = (iso: string | null | undefined) => formatDateTime(iso);
