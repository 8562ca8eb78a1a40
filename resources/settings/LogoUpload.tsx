import { useState } from 'react';
import { Button, Form, Image, Space, Upload } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useNotification } from '@refinedev/core';
import { API_BASE } from '../../contract/product';
import { getToken } from '../../providers/session';
import { t } from '../../src/i18n';

const TYPES = ['image/png', 'image/jpeg', 'image/webp'];
const MAX_BYTES = 1024 * 1024;

/** Logo upload (multipart "file" to /api/settings/logo) with a preview of the stored logo. */
export function LogoUpload() {
  const form = Form.useFormInstance();
  const logo = Form.useWatch(['company', 'logo_url'], form) as string | null | undefined;
  const [version, setVersion] = useState(0);
  const { open } = useNotification();
  return (
    <Form.Item label={t('settings.company.logo')} extra={t('settings.company.logoHint')}>
      <Space align="center">
        {logo && (
          <Image
            src={`${logo}${logo.includes('?') ? '&' : '?'}v=${version}`}
            alt={t('settings.company.logo')}
            height={48}
            preview={false}
          />
        )}
        <Upload
          name="file"
          accept={TYPES.join(',')}
          action={`${API_BASE}/settings/logo`}
          headers={{ Authorization: `Bearer ${getToken() ?? ''}` }}
          showUploadList={false}
          beforeUpload={(file) => {
            const fits = TYPES.includes(file.type) && file.size <= MAX_BYTES;
            if (!fits) open?.({ type: 'error', message: t('settings.company.logoTooBig') });
            return fits || Upload.LIST_IGNORE;
          }}
          onChange={({ file }) => {
            if (file.status === 'done') {
              const data = (
                file.response as { data?: { logo_url?: string; company?: { logo_url?: string } } } | undefined
              )?.data;
              form.setFieldValue(['company', 'logo_url'], data?.logo_url ?? data?.company?.logo_url ?? logo ?? null);
              setVersion((v) => v + 1);
              open?.({ type: 'success', message: t('settings.company.logoUploaded') });
            } else if (file.status === 'error') {
              const message = (file.response as { message?: string } | undefined)?.message;
              open?.({ type: 'error', message: message || t('settings.company.logoFailed') });
            }
          }}
        >
          <Button icon={<UploadOutlined />}>{t('settings.company.uploadLogo')}</Button>
        </Upload>
      </Space>
    </Form.Item>
  );
}
