/**
 * The interfaces panel of a device's show page (admin and technician): the interfaces work's live table
 * (resources/traffic). Kept as this slot so the show page does not depend on how interfaces are drawn.
 */
import { DeviceInterfacesPanel } from '../../traffic/DeviceInterfacesPanel';

export function DeviceInterfaces({ deviceId }: { deviceId: string }) {
  return <DeviceInterfacesPanel deviceId={deviceId} />;
}
