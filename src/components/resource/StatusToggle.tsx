import { Switch } from 'antd';
import { useUpdate, type BaseRecord } from '@refinedev/core';
import { t } from '../../i18n';
import type { ToggleDef } from './types';

/**
 * Switches a two-valued field in the row (spec §4: active ↔ inactive). Sends a body of only that field, which
 * the data provider recognises as a toggle (its own spec §8 error text).
 */
export function StatusToggle({ resource, record, toggle, meta }: { resource: string; record: BaseRecord; toggle: ToggleDef; meta?: Record<string, unknown> }) {
  const update = useUpdate();
  const isOn = record[toggle.field] === toggle.on;
  return (
    <Switch
      size="small"
      checked={isOn}
      loading={(update as unknown as { isPending?: boolean; mutation?: { isPending: boolean } }).mutation?.isPending ?? (update as unknown as { isPending?: boolean }).isPending}
      aria-label={t(toggle.labelKey)}
      onChange={() => {
        const next = isOn ? toggle.off : toggle.on;
        update.mutate({
          resource,
          id: record.id!,
          values: { [toggle.field]: next },
          meta,
          mutationMode: 'pessimistic',
          successNotification: () => ({
            type: 'success',
            message: t(next === toggle.on ? toggle.onMessageKey : toggle.offMessageKey),
          }),
        });
      }}
    />
  );
}
