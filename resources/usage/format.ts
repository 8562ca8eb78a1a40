/** Bytes in decimal units, as plans state their data caps (1 GB = 10^9 bytes): 1_500_000_000 → "1.5 GB". */
export function formatUsageBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];
  let value = bytes;
  let i = 0;
  while (value >= 1000 && i < units.length - 1) {
    value /= 1000;
    i++;
  }
  return `${i === 0 ? value : Number(value.toFixed(value >= 100 ? 0 : value >= 10 ? 1 : 2))} ${units[i]}`;
}
