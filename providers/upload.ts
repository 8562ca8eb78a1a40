/**
 * POST files as multipart field "files" through the app's http client, reporting progress (0–100). No
 * time-out: a slow upload must not hit the 15 s limit of ordinary calls. Rejects with the http client's error
 * (its message: the server's, else fallbackMessage); resolves with the response's data array.
 */
import { httpClient } from './http-client';

export async function uploadFiles<T>(
  url: string,
  files: File[],
  fallbackMessage: string,
  onProgress?: (percent: number) => void,
): Promise<T[]> {
  const form = new FormData();
  for (const file of files) form.append('files', file, file.name);
  const res = await httpClient.post<{ data: T[] }>(url, form, {
    fallbackMessage,
    timeout: 0,
    onUploadProgress: (e) => onProgress?.(e.total ? Math.min(100, Math.round((e.loaded * 100) / e.total)) : 0),
  });
  return Array.isArray(res.data?.data) ? res.data.data : [];
}
