import { useState } from 'react';
import { Button } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useNotification, type CrudFilter, type HttpError } from '@refinedev/core';
import { t } from '../../src/i18n';
import { downloadAuditCsv } from './api';

/** "Download CSV" of the events the list's filters select (up to the server's export limit). */
export function DownloadCsvButton({ filters }: { filters: CrudFilter[] }) {
  const { open } = useNotification();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      await downloadAuditCsv(filters);
    } catch (error) {
      open?.({ type: 'error', message: (error as HttpError).message || t('audit.errors.csv') });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button icon={<DownloadOutlined />} loading={busy} onClick={() => void download()}>
      {t('audit.downloadCsv')}
    </Button>
  );
}
