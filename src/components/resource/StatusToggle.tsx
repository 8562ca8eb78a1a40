import { useState } from 'react';
import { Modal, Switch, Typography } from 'antd';
import { useCan, useUpdate, type BaseRecord } from '@refinedev/core';
import { t } from '../../i18n';
import type { ToggleDef } from './types';

/**
 * Switches a two-valued field in the row (spec §4: active ↔ inactive). Sends a body of only that field, which
 * the data provider recognises as a toggle (its own spec §8 error text). Switching off asks first when the
 * declaration says it stops something (selling a plan, taking payments), naming the record; switching on never
 * asks. When the record cannot be switched off as it stands (`offBlocked`, e.g. the default payment gateway),
 * the dialog shows what to do instead and the switch stays on. A role that may not edit the resource (the role
 * matrix's update endpoint) sees the switch's state but cannot switch it.
 */
export function StatusToggle({
  resource,
  record,
  toggle,
  meta,
}: {
  resource: string;
  record: BaseRecord;
  toggle: ToggleDef;
  meta?: Record<string, unknown>;
}) {
  const update = useUpdate();
  const { data: access } = useCan({ resource, action: 'edit', params: { id: record.id } });
  const mayEdit = access?.can === true;
  const [asking, setAsking] = useState(false);
  const isOn = record[toggle.field] === toggle.on;
  const pending =
    (update as unknown as { isPending?: boolean; mutation?: { isPending: boolean } }).mutation?.isPending ??
    (update as unknown as { isPending?: boolean }).isPending;
  const confirm = toggle.confirmOff;
  const name = String(record[confirm?.nameField ?? 'name'] ?? '');
  const close = () => setAsking(false);
  const blocked = asking ? toggle.offBlocked?.({ record, close }) : null;

  const switchTo = (next: string | boolean) =>
    update.mutate(
      {
        resource,
        id: record.id!,
        values: { [toggle.field]: next },
        meta,
        mutationMode: 'pessimistic',
        successNotification: () => ({
          type: 'success',
          message: t(next === toggle.on ? toggle.onMessageKey : toggle.offMessageKey),
        }),
      },
      { onSettled: close },
    );

  return (
    <>
      <Switch
        size="small"
        checked={isOn}
        loading={pending}
        disabled={!mayEdit}
        aria-label={t(toggle.labelKey)}
        onChange={() => {
          if (isOn && confirm) setAsking(true);
          else switchTo(isOn ? toggle.off : toggle.on);
        }}
      />
      {confirm && (
        <Modal
          open={asking}
          title={t(confirm.titleKey, { name })}
          okText={t(confirm.okKey, { name })}
          cancelText={t(blocked ? 'resource.keepOn' : 'resource.cancel')}
          okButtonProps={{ danger: true, loading: pending, style: blocked ? { display: 'none' } : undefined }}
          cancelButtonProps={{ autoFocus: true }}
          onOk={() => switchTo(toggle.off)}
          onCancel={close}
          destroyOnHidden
        >
          {blocked ??
            (confirm.contentKey ? (
              <Typography.Paragraph>{t(confirm.contentKey, { name })}</Typography.Paragraph>
            ) : null)}
        </Modal>
      )}
    </>
  );
}
