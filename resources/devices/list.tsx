import { ResourceList } from '../../src/components/resource';
import { routerDevicesResource, technicianDevicesResource } from './index';

/** Admin: every device with status, location and last seen; create, edit, delete. */
export const DeviceList = () => <ResourceList decl={routerDevicesResource} />;

/** Technician: the same list read-only (no create, edit or delete). */
export const TechnicianDeviceList = () => <ResourceList decl={technicianDevicesResource} />;
