/** Interfaces and usage history of network devices (issue 7): the two screens and the interfaces panel. */
export { InterfacesPage } from './InterfacesPage';
export { UsagePage } from './UsagePage';
export { DeviceInterfacesPanel } from './DeviceInterfacesPanel';
