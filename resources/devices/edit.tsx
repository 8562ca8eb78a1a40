import { ResourceForm } from '../../src/components/resource';
import { routerDevicesResource } from './index';

export const DeviceEdit = () => <ResourceForm decl={routerDevicesResource} action="edit" />;
