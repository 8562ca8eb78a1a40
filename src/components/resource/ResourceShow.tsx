import { Descriptions } from 'antd';
import { DeleteButton, EditButton, ListButton, RefreshButton, Show } from '@refinedev/antd';
import { useShow, type BaseRecord } from '@refinedev/core';
import { t } from '../../i18n';
import { HeaderTitle } from '../Text';
import { renderField } from './cells';
import type { ResourceDecl } from './types';

/** The fields that name a record, in the order they are looked for. */
const NAMING_FIELDS = ['number', 'name', 'title', 'subject', 'code', 'cidr', 'email'];

/** "Invoice INV-0001": the resource's singular and the record's number or name, when it has one. */
export function recordTitle(decl: ResourceDecl, record: BaseRecord | undefined): string {
  const singular = t(decl.singularKey ?? decl.titleKey);
  const field = NAMING_FIELDS.find((f) => typeof record?.[f] === 'string' && record[f]);
  return field ? `${singular} ${String(record![field])}` : singular;
}

/** One record of a declared resource as a list of labelled, formatted values. */
export function ResourceShow({ decl }: { decl: ResourceDecl }) {
  const { query, result } = useShow<BaseRecord>({ resource: decl.name, meta: decl.meta });
  const record = result;
  const actions = decl.actions ?? ['show', 'edit', 'delete'];
  return (
    <Show
      // No back arrow: antd's page header nests its button in another (axe nested-interactive); the breadcrumb leads back.
      goBack={false}
      title={<HeaderTitle>{recordTitle(decl, record)}</HeaderTitle>}
      resource={decl.name}
      isLoading={query.isLoading}
      headerButtons={() => (
        <>
          <ListButton resource={decl.name} />
          {actions.includes('edit') && <EditButton resource={decl.name} recordItemId={record?.id} />}
          {actions.includes('delete') && (
            <DeleteButton
              resource={decl.name}
              recordItemId={record?.id}
              meta={decl.meta}
              confirmTitle={t('resource.confirmDelete')}
              successNotification={() => ({
                type: 'success',
                message: t(decl.messages?.deleted ?? 'resource.deleted'),
              })}
            />
          )}
          <RefreshButton resource={decl.name} recordItemId={record?.id} />
        </>
      )}
    >
      {record && (
        <Descriptions bordered column={1} size="small">
          {(decl.fields ?? [])
            .filter((f) => f.show !== false)
            .map((f) => (
              <Descriptions.Item key={f.name} label={t(f.labelKey)}>
                {renderField(f, record[f.name], record)}
              </Descriptions.Item>
            ))}
        </Descriptions>
      )}
      {record && decl.showExtra?.(record)}
    </Show>
  );
}
