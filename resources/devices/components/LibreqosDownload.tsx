import { useState } from 'react';
import { Button, Dropdown } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useNotification, type HttpError } from '@refinedev/core';
import { httpClient } from '../../../providers/http-client';
import { saveBlob } from '../../../src/components/saveBlob';
import { t } from '../../../src/i18n';

const FILES = [
  { key: 'shaped-devices.csv', name: 'ShapedDevices.csv', labelKey: 'devices.libreqos.shapedDevices' },
  { key: 'network.json', name: 'network.json', labelKey: 'devices.libreqos.network' },
] as const;

/**
 * "LibreQoS files" on the device list (issue 36): LibreQoS's ShapedDevices.csv and network.json built from the plans,
 * NAS devices and IP management, fetched through the authorised client and saved under LibreQoS's own file names.
 */
export function LibreqosDownload() {
  const { open } = useNotification();
  const [busy, setBusy] = useState(false);
  const download = async (key: string) => {
    const file = FILES.find((f) => f.key === key);
    if (!file) return;
    setBusy(true);
    try {
      const res = await httpClient.get<Blob>(`/exports/libreqos/${file.key}`, {
        responseType: 'blob',
        fallbackMessage: t('devices.libreqos.error'),
      });
      saveBlob(res.data, file.name);
    } catch (error) {
      open?.({ type: 'error', message: (error as HttpError).message || t('devices.libreqos.error') });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: FILES.map((f) => ({ key: f.key, label: t(f.labelKey) })),
        onClick: ({ key }) => void download(key),
      }}
    >
      <Button icon={<DownloadOutlined />} loading={busy}>
        {t('devices.libreqos.button')}
      </Button>
    </Dropdown>
  );
}
