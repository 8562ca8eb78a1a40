import { useEffect } from 'react';
import { t } from '../i18n';

/** Each public page sets its own <title> and meta description. */
export function usePageMeta(title: string | null, description: string) {
  useEffect(() => {
    const name = t('app.name');
    document.title = title ? `${title} | ${name}` : name;
    let meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
    if (!meta) {
      meta = document.createElement('meta');
      meta.name = 'description';
      document.head.appendChild(meta);
    }
    meta.content = description;
  }, [title, description]);
}
