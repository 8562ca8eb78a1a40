import { z } from 'zod';

/** The fields every uploaded file's metadata ends with (ticket attachments, installation photos). */
export const uploadedFileFields = {
  size: z.number().int(),
  content_type: z.string(),
  uploaded_by: z.string().uuid(),
  uploaded_by_name: z.string(),
  created_at: z.string(),
  /** Path of the authorised download (under /api). */
  download_url: z.string(),
};
