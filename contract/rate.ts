/**
 * Rates as people read them, without zod: the customer's home imports this, and importing it from
 * contract/schemas/plan.ts pulled the schemas chunk (22 KB on the wire) into the home's first view (bench:web).
 */

/** "10/2 Mbit/s" (or kbit/s below 1 Mbit/s). */
export function formatKbps(downloadKbps: number, uploadKbps: number): string {
  const mbit = (k: number) => String(Math.round(k / 100) / 10);
  return downloadKbps >= 1000 && uploadKbps >= 1000
    ? `${mbit(downloadKbps)}/${mbit(uploadKbps)} Mbit/s`
    : `${downloadKbps}/${uploadKbps} kbit/s`;
}
