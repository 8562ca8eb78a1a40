/**
 * A device's interfaces for its show page (admin and the technician's read-only view): the live status table,
 * re-read every 30 s. Links to the usage history only for those who may open it.
 */
import { Card } from 'antd';
import { canAccessRoute } from '../../contract/roles';
import { useAuthState } from '../../providers/auth-store';
import { t } from '../../src/i18n';
import { useInterfaces } from './api';
import { InterfacesTable } from './InterfacesTable';

export function DeviceInterfacesPanel({ deviceId }: { deviceId: string }) {
  const role = useAuthState((s) => s.user?.role);
  const interfaces = useInterfaces(deviceId);
  return (
    <Card size="small" title={t('traffic.interfacesTitle')} data-testid="device-interfaces">
      <InterfacesTable
        items={interfaces.data?.items ?? []}
        loading={interfaces.isLoading}
        showTrafficLinks={canAccessRoute(role, '/dashboard/nas/router/usage')}
      />
    </Card>
  );
}
