import { z } from 'zod';

/**
 * Device interfaces (IF-MIB) and their traffic history. Rates are bits per second; totals are bytes.
 */
export const IF_OPER_STATUSES = [
  'up',
  'down',
  'testing',
  'unknown',
  'dormant',
  'notPresent',
  'lowerLayerDown',
] as const;
export type IfOperStatus = (typeof IF_OPER_STATUSES)[number];

export const deviceInterfaceSchema = z.object({
  id: z.string(),
  device_id: z.string(),
  if_index: z.number().int(),
  name: z.string(),
  alias: z.string(),
  oper_status: z.string(),
  admin_status: z.string(),
  /** ifHighSpeed, Mbit/s (0: unknown). */
  high_speed_mbps: z.number().int(),
  mac: z.string(),
  counter_bits: z.number().int(),
  last_seen_at: z.string(),
  /** The rate over the last polled interval; null before two polls, after a gap or a reset. */
  in_bps: z.number().nullable(),
  out_bps: z.number().nullable(),
  last_sample_at: z.string().nullable(),
});
export type DeviceInterface = z.infer<typeof deviceInterfaceSchema>;

export const deviceInterfaceListSchema = z.object({
  device: z.object({
    id: z.string(),
    name: z.string(),
    status: z.string(),
    status_changed_at: z.string().nullable(),
    last_seen_at: z.string().nullable(),
    last_error: z.string().nullable(),
  }),
  items: z.array(deviceInterfaceSchema),
});
export type DeviceInterfaceList = z.infer<typeof deviceInterfaceListSchema>;

export const TRAFFIC_RANGES = ['hour', 'day', 'week', 'month', 'custom'] as const;
export type TrafficRange = (typeof TRAFFIC_RANGES)[number];
export const TRAFFIC_RESOLUTIONS = ['raw', 'hourly', 'daily'] as const;
export type TrafficResolution = (typeof TRAFFIC_RESOLUTIONS)[number];

/** A custom range may span at most this many days. */
export const TRAFFIC_MAX_CUSTOM_DAYS = 3660;

const isoDate = z
  .string()
  .trim()
  .refine((v) => !Number.isNaN(Date.parse(v)), { message: 'Enter a date and time (ISO 8601)' });

export const trafficQuerySchema = z
  .object({
    range: z.enum(TRAFFIC_RANGES, { message: `Range must be one of ${TRAFFIC_RANGES.join(', ')}` }).default('day'),
    from: isoDate.optional(),
    to: isoDate.optional(),
  })
  .superRefine((q, ctx) => {
    if (q.range !== 'custom') return;
    if (!q.from) ctx.addIssue({ code: 'custom', path: ['from'], message: 'A custom range needs a start (from)' });
    if (!q.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'A custom range needs an end (to)' });
    if (q.from && q.to) {
      const span = Date.parse(q.to) - Date.parse(q.from);
      if (span <= 0)
        ctx.addIssue({ code: 'custom', path: ['to'], message: 'The end of the range must be after its start' });
      else if (span > TRAFFIC_MAX_CUSTOM_DAYS * 86_400_000) {
        ctx.addIssue({
          code: 'custom',
          path: ['to'],
          message: `A custom range may span at most ${TRAFFIC_MAX_CUSTOM_DAYS} days`,
        });
      }
    }
  });
export type TrafficQuery = z.input<typeof trafficQuerySchema>;

export const trafficPointSchema = z.object({
  /** End of the interval (raw) or start of the bucket (hourly, daily), ISO 8601. */
  t: z.string(),
  /** null: no rate for this point (missed polls, device restarted). */
  in_bps: z.number().nullable(),
  out_bps: z.number().nullable(),
});
export type TrafficPoint = z.infer<typeof trafficPointSchema>;

export const trafficSchema = z.object({
  interface: deviceInterfaceSchema,
  range: z.enum(TRAFFIC_RANGES),
  from: z.string(),
  to: z.string(),
  /** Where the series comes from: raw 5-minute samples, hourly or daily averages. */
  resolution: z.enum(TRAFFIC_RESOLUTIONS),
  points: z.array(trafficPointSchema),
  totals: z.object({ in_bytes: z.number(), out_bytes: z.number() }),
  /** Nearest-rank 95th percentile of the polled rates in the range (exact from raw samples, within 1% from roll-ups). */
  p95: z.object({ in_bps: z.number().nullable(), out_bps: z.number().nullable() }),
  max: z.object({ in_bps: z.number().nullable(), out_bps: z.number().nullable() }),
  avg: z.object({ in_bps: z.number().nullable(), out_bps: z.number().nullable() }),
  /** Where totals and percentiles come from (the finest data that still covers the range). */
  stats_resolution: z.enum(TRAFFIC_RESOLUTIONS),
});
export type Traffic = z.infer<typeof trafficSchema>;

export const devicePollResultSchema = z.object({
  device_id: z.string(),
  status: z.string(),
  interfaces: z.number().int(),
  samples: z.number().int(),
  error: z.string().nullable(),
  next_poll_at: z.string().nullable(),
});
export type DevicePollResult = z.infer<typeof devicePollResultSchema>;
