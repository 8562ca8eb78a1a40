/** The router picker of the configuration and backup screens; the choice lives in the URL (?device=). */
import { useSearchParams } from 'react-router';
import { DeviceSelect, type DevicePickerProps } from '../../src/components/DeviceSelect';
import { t } from '../../src/i18n';

export function useChosenDevice(): [string | undefined, (id: string) => void] {
  const [params, setParams] = useSearchParams();
  const id = params.get('device') ?? undefined;
  return [
    id,
    (next: string) =>
      setParams(
        (p) => {
          const q = new URLSearchParams(p);
          q.set('device', next);
          return q;
        },
        { replace: true },
      ),
  ];
}

export function RouterPicker(props: DevicePickerProps) {
  return (
    <DeviceSelect
      {...props}
      testId="router-picker"
      texts={{
        label: t('deviceBackups.device'),
        placeholder: t('deviceBackups.pickDevice'),
        empty: t('deviceBackups.noDevices'),
      }}
      option={(d) => ({ label: `${d.name} (${d.host})` })}
    />
  );
}
