import { Alert } from 'antd';
import { ResourceForm } from '../../src/components/resource';
import { t } from '../../src/i18n';
import { useRole } from '../subscriptions/SubscriptionActions';
import { networkFormFields } from './fields';
import { ipNetworksResource } from './resource';
import { canManageNetworks } from './ui';

/** The declaration with its form fields (they load with this page, not with the shell). */
const decl = { ...ipNetworksResource, fields: networkFormFields };

/** Create or edit a network (admin, technicians); the server's field errors (overlap, gateway…) land on their fields. */
function NetworkForm({ action }: { action: 'create' | 'edit' }) {
  const role = useRole();
  if (!canManageNetworks(role)) return <Alert type="info" showIcon message={t('ipam.readOnly')} />;
  return <ResourceForm decl={decl} action={action} />;
}

export const NetworkCreate = () => <NetworkForm action="create" />;
export const NetworkEdit = () => <NetworkForm action="edit" />;
