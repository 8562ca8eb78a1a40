/**
 * The job's photos: thumbnails (authorised downloads) and two ways to add some on a phone: straight from the
 * back camera, or chosen from the gallery. Every photo is shrunk in the browser first (at most 1600 px, JPEG),
 * so it goes up quickly over a mobile connection; the upload shows its progress.
 */
import { CameraOutlined, PictureOutlined } from '@ant-design/icons';
import { Button, Card, Image, Progress, Space, Spin, Typography } from 'antd';
import { useNotification } from '@refinedev/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { InstallationDetail as Job, InstallationPhoto } from '../../contract/schemas/installation';
import { resizeImages } from '../../src/components/resizeImage';
import { t } from '../../src/i18n';
import { photoObjectUrl, uploadPhotos } from './api';
import { TOUCH, useIsPhone } from './ui';
import { SectionHeading } from '../../src/components/Text';

function PhotoThumb({ photo }: { photo: InstallationPhoto }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let url: string | null = null;
    let live = true;
    photoObjectUrl(photo)
      .then((u) => {
        url = u;
        if (live) setSrc(u);
      })
      .catch(() => {});
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [photo]);
  return src ? <Image width={120} src={src} alt={photo.name} /> : <Spin size="small" />;
}

export function JobPhotos({ job, readOnly }: { job: Job; readOnly: boolean }) {
  const phone = useIsPhone();
  const [progress, setProgress] = useState<number | null>(null);
  const { open } = useNotification();
  const queryClient = useQueryClient();
  const send = async (files: File[]) => {
    setProgress(0);
    try {
      await uploadPhotos(job.id, await resizeImages(files), setProgress);
      open?.({ type: 'success', message: t('installations.photos.uploaded') });
      void queryClient.invalidateQueries();
    } catch (error) {
      open?.({ type: 'error', message: (error as Error)?.message || t('installations.photos.failed') });
    } finally {
      setProgress(null);
    }
  };
  const big = { size: 'large' as const, block: phone, disabled: progress !== null, style: { minHeight: TOUCH } };
  return (
    <Card title={<SectionHeading>{t('installations.photos')}</SectionHeading>} size="small">
      <Space direction="vertical" style={{ width: '100%' }}>
        <Space wrap data-testid="installation-photos">
          {job.photos.length === 0 ? (
            <Typography.Text type="secondary">{t('installations.photos.none')}</Typography.Text>
          ) : (
            job.photos.map((p) => <PhotoThumb key={p.id} photo={p} />)
          )}
        </Space>
        {!readOnly && (
          <>
            <Space direction={phone ? 'vertical' : 'horizontal'} wrap style={{ width: '100%' }}>
              <FilePicker camera label={t('installations.photos.camera')} onFiles={send} testId="photo-camera-input">
                {(pick) => (
                  <Button {...big} type="primary" icon={<CameraOutlined aria-hidden />} onClick={pick}>
                    {t('installations.photos.camera')}
                  </Button>
                )}
              </FilePicker>
              <FilePicker label={t('installations.photos.upload')} onFiles={send} testId="photo-gallery-input">
                {(pick) => (
                  <Button {...big} icon={<PictureOutlined aria-hidden />} onClick={pick}>
                    {t('installations.photos.upload')}
                  </Button>
                )}
              </FilePicker>
            </Space>
            <Typography.Text type="secondary">{t('installations.photos.hint')}</Typography.Text>
            {progress !== null && (
              <Progress
                percent={progress}
                size="small"
                data-testid="photo-progress"
                aria-label={t('installations.photos.uploading')}
              />
            )}
          </>
        )}
      </Space>
    </Card>
  );
}

/**
 * A hidden file input opened by its button: images only; with `camera`, the phone opens its back camera
 * (capture="environment") instead of the gallery, one photo at a time.
 */
function FilePicker({
  camera = false,
  label,
  onFiles,
  testId,
  children,
}: {
  camera?: boolean;
  label: string;
  onFiles: (files: File[]) => void;
  testId: string;
  children: (pick: () => void) => ReactNode;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <div>
      <input
        ref={input}
        type="file"
        hidden
        accept="image/*"
        multiple={!camera}
        {...(camera ? { capture: 'environment' } : {})}
        aria-label={label}
        data-testid={testId}
        onChange={(e) => {
          const files = Array.from(e.target.files ?? []);
          e.target.value = ''; // the same photo may be chosen again
          if (files.length > 0) onFiles(files);
        }}
      />
      {children(() => input.current?.click())}
    </div>
  );
}
