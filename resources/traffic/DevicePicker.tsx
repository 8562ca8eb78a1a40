/** The device picker of the interfaces and usage screens (status shown next to each name). */
import { Tag } from 'antd';
import { DeviceSelect, type DevicePickerProps } from '../../src/components/DeviceSelect';
import { t } from '../../src/i18n';

const DEVICE_COLOR: Record<string, string> = { up: 'green', down: 'red', unknown: 'default' };

export function DeviceStatusTag({ status }: { status: string }) {
  return <Tag color={DEVICE_COLOR[status] ?? 'default'}>{t(`traffic.status.${status}`, undefined, status)}</Tag>;
}

export function DevicePicker(props: DevicePickerProps) {
  return (
    <DeviceSelect
      {...props}
      testId="device-picker"
      texts={{ label: t('traffic.device'), placeholder: t('traffic.pickDevice'), empty: t('traffic.noDevices') }}
      option={(d) => ({ label: d.name, title: `${d.name} (${d.host})` })}
      extra={(d) => <DeviceStatusTag status={d.status} />}
    />
  );
}
