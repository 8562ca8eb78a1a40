/**
 * A device's page. Admin: every setting (secrets as '••••last4'), edit/delete, "Test connection" and the
 * interfaces. Technician: status, location and interfaces only (the API sends nothing else to them).
 */
import { Descriptions, Space } from 'antd';
import { DeleteButton, EditButton, ListButton, RefreshButton, Show } from '@refinedev/antd';
import { useShow, type BaseRecord } from '@refinedev/core';
import { renderField, type ResourceDecl } from '../../src/components/resource';
import { t } from '../../src/i18n';
import { DeviceInterfaces } from './components/DeviceInterfaces';
import { TestConnection } from './components/TestConnection';
import { routerDevicesResource, technicianDevicesResource } from './resource';
import { HeaderTitle } from '../../src/components/Text';

function DevicePage({ decl, manage }: { decl: ResourceDecl; manage: boolean }) {
  const { query, result: record } = useShow<BaseRecord>({ resource: decl.name, meta: decl.meta });
  const id = record?.id === undefined ? undefined : String(record.id);
  return (
    <Show
      // No back arrow: antd's page header nests its button in another (axe nested-interactive); the breadcrumb leads back.
      goBack={false}
      title={<HeaderTitle>{record?.name ? String(record.name) : t(decl.singularKey ?? decl.titleKey)}</HeaderTitle>}
      resource={decl.name}
      isLoading={query.isLoading}
      headerButtons={() => (
        <>
          <ListButton resource={decl.name} />
          {manage && <EditButton resource={decl.name} recordItemId={id} />}
          {manage && (
            <DeleteButton
              resource={decl.name}
              recordItemId={id}
              meta={decl.meta}
              confirmTitle={t('resource.confirmDelete')}
              successNotification={() => ({ type: 'success', message: t('devices.toast.deleted') })}
            />
          )}
          <RefreshButton resource={decl.name} recordItemId={id} />
        </>
      )}
    >
      {record && id && (
        <Space direction="vertical" size="large" style={{ width: '100%' }}>
          <Descriptions bordered column={1} size="small" data-testid="device-details">
            {(decl.fields ?? [])
              .filter((f) => f.show !== false)
              .map((f) => (
                <Descriptions.Item key={f.name} label={t(f.labelKey)}>
                  {renderField(f, record[f.name], record)}
                </Descriptions.Item>
              ))}
          </Descriptions>
          {manage && <TestConnection deviceId={id} />}
          <DeviceInterfaces deviceId={id} />
        </Space>
      )}
    </Show>
  );
}

export const DeviceShow = () => <DevicePage decl={routerDevicesResource} manage />;
export const TechnicianDeviceShow = () => <DevicePage decl={technicianDevicesResource} manage={false} />;
