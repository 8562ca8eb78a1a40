import { useEffect } from 'react';
import { documentTitle } from '../components/page-title';

/** Each public page sets its own <title> and meta description. */
export function usePageMeta(title: string | null, description: string) {
  useEffect(() => {
    document.title = documentTitle(title);
    let meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
    if (!meta) {
      meta = document.createElement('meta');
      meta.name = 'description';
      document.head.appendChild(meta);
    }
    meta.content = description;
  }, [title, description]);
}
