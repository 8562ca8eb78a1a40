/** The searchable device picker of the device screens (traffic, configuration, backups); each screen gives its texts. */
import { Select, Space } from 'antd';
import type { ReactNode } from 'react';
import type { DeviceSummary } from '../../contract/schemas/device';

export interface DevicePickerProps {
  devices: DeviceSummary[];
  value?: string;
  onChange: (id: string) => void;
  loading?: boolean;
}

interface DeviceSelectProps extends DevicePickerProps {
  testId: string;
  /** Already translated: the select's aria-label, its placeholder and the text when no device matches. */
  texts: { label: string; placeholder: string; empty: string };
  /** An option's label (what is searched and shown once chosen) and hover title. */
  option: (device: DeviceSummary) => { label: string; title?: string };
  /** Shown after the label in the open list (e.g. the device's status). */
  extra?: (device: DeviceSummary) => ReactNode;
}

export function DeviceSelect({ devices, value, onChange, loading, testId, texts, option, extra }: DeviceSelectProps) {
  return (
    <Select
      data-testid={testId}
      aria-label={texts.label}
      style={{ minWidth: 280 }}
      placeholder={texts.placeholder}
      loading={loading}
      value={value}
      onChange={onChange}
      showSearch
      optionFilterProp="label"
      notFoundContent={texts.empty}
      options={devices.map((d) => ({ value: d.id, ...option(d) }))}
      optionRender={
        extra
          ? (o) => {
              const d = devices.find((x) => x.id === o.value);
              return (
                <Space>
                  {o.label}
                  {d ? extra(d) : null}
                </Space>
              );
            }
          : undefined
      }
    />
  );
}
