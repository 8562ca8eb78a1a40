import { ResourceForm } from '../../src/components/resource';
import { routerDevicesResource } from './index';

export const DeviceCreate = () => <ResourceForm decl={routerDevicesResource} action="create" />;
