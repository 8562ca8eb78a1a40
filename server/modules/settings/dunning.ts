/**
 * The dunning settings (issue 38) as stored under the `dunning` key: read leniently (a value written by an older
 * version, or edited by hand, falls back field by field to the defaults and is put in order), and updated from a
 * checked PUT /settings section (fields not sent are kept).
 */
import {
  DUNNING_MAX_STEPS,
  DUNNING_OFFSET_MAX,
  DUNNING_OFFSET_MIN,
  LATE_FEE_TYPES,
  type DunningSettings,
  type SettingsUpdateParsed,
} from '../../../contract/schemas/settings';
import { defaultSettings } from './defaults';

const int = (v: unknown, min: number, max: number, fallback: number) =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? v : fallback;
const isRecord = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

/** Step offsets in range, each once, sorted. */
function sortedSteps(steps: ReadonlyArray<{ offset_days: number }>): DunningSettings['steps'] {
  const offsets = new Set(
    steps
      .map((s) => s.offset_days)
      .filter((o) => Number.isInteger(o) && o >= DUNNING_OFFSET_MIN && o <= DUNNING_OFFSET_MAX),
  );
  return [...offsets]
    .sort((a, b) => a - b)
    .slice(0, DUNNING_MAX_STEPS)
    .map((offset_days) => ({ offset_days }));
}

/** The stored value as the dunning settings (defaults for what is missing or out of range). */
export function storedDunning(value: unknown): DunningSettings {
  const d = defaultSettings().dunning;
  if (!isRecord(value)) return d;
  const fee = isRecord(value.late_fee) ? value.late_fee : {};
  const steps = Array.isArray(value.steps)
    ? sortedSteps(value.steps.filter(isRecord).map((s) => ({ offset_days: s.offset_days as number })))
    : d.steps;
  return {
    enabled: typeof value.enabled === 'boolean' ? value.enabled : d.enabled,
    steps,
    late_fee: {
      type: (LATE_FEE_TYPES as readonly unknown[]).includes(fee.type)
        ? (fee.type as DunningSettings['late_fee']['type'])
        : d.late_fee.type,
      amount: int(fee.amount, 0, 100_000_000, d.late_fee.amount),
      percent_bp: int(fee.percent_bp, 0, 10_000, d.late_fee.percent_bp),
      after_days: int(fee.after_days, 1, 90, d.late_fee.after_days),
    },
  };
}

/** The stored settings with a checked update applied (steps sorted; a late fee's fields not sent are kept). */
export function updatedDunning(
  current: DunningSettings,
  input: NonNullable<SettingsUpdateParsed['dunning']>,
): DunningSettings {
  return {
    enabled: input.enabled ?? current.enabled,
    steps: input.steps ? sortedSteps(input.steps) : current.steps,
    late_fee: input.late_fee
      ? {
          type: input.late_fee.type,
          amount: input.late_fee.amount ?? current.late_fee.amount,
          percent_bp: input.late_fee.percent_bp ?? current.late_fee.percent_bp,
          after_days: input.late_fee.after_days ?? current.late_fee.after_days,
        }
      : current.late_fee,
  };
}
