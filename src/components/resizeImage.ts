/**
 * Shrinks a photo in the browser before it is uploaded: a phone camera's 12-megapixel picture (4–8 MB) becomes
 * a JPEG of at most 1600 px on its longer side (a few hundred KB), so it goes up quickly over a mobile network
 * and stays within the server's 10 MB per file. Whatever cannot or need not be shrunk is passed through as it
 * came: non-images, GIFs (they may be animated), SVGs, images already small enough, and anything the browser
 * cannot decode (the server then judges it as before).
 */

/** The longer side of a stored photo, in pixels: enough to read a serial number or a meter. */
export const MAX_IMAGE_SIDE = 1600;
export const JPEG_QUALITY = 0.85;

/** Formats worth redrawing: photos. GIF and SVG are left alone (animation, vectors). */
const REDRAWN = /^image\/(jpeg|png|webp|bmp|heic|heif|avif)$/i;

/** The size that fits within maxSide on the longer side, keeping the aspect ratio; null if it fits already. */
export function fitWithin(
  width: number,
  height: number,
  maxSide = MAX_IMAGE_SIDE,
): { width: number; height: number } | null {
  const longer = Math.max(width, height);
  if (longer <= maxSide) return null;
  const scale = maxSide / longer;
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** "IMG_0042.HEIC" → "IMG_0042.jpg"; a name without an extension gets one. */
export function jpegName(name: string): string {
  const base = name.replace(/\.[^./\\]+$/, '') || 'photo';
  return `${base}.jpg`;
}

/**
 * The file as a JPEG whose longer side is at most maxSide, or the file itself when it is not a photo, already
 * fits, or cannot be decoded here. The picture is turned upright from its EXIF orientation first (the canvas
 * export drops EXIF, so an upright copy is the only way to keep it the right way up).
 */
export async function resizeImage(file: File, maxSide = MAX_IMAGE_SIDE, quality = JPEG_QUALITY): Promise<File> {
  if (!REDRAWN.test(file.type) || typeof createImageBitmap !== 'function' || typeof document === 'undefined')
    return file;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    return file; // not decodable here (a damaged file, HEIC on a browser without it): the server decides
  }
  try {
    const size = fitWithin(bitmap.width, bitmap.height, maxSide);
    if (!size) return file;
    const canvas = document.createElement('canvas');
    canvas.width = size.width;
    canvas.height = size.height;
    const context = canvas.getContext('2d');
    if (!context) return file;
    // JPEG has no transparency: a transparent PNG would otherwise turn black.
    context.fillStyle = '#fff';
    context.fillRect(0, 0, size.width, size.height);
    context.imageSmoothingEnabled = true;
    context.imageSmoothingQuality = 'high';
    context.drawImage(bitmap, 0, 0, size.width, size.height);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', quality));
    if (!blob) return file;
    return new File([blob], jpegName(file.name), { type: 'image/jpeg', lastModified: file.lastModified });
  } finally {
    bitmap.close();
  }
}

/** Every file through resizeImage, in order; one at a time, as a phone holds few decoded 12-megapixel images. */
export async function resizeImages(files: File[], maxSide = MAX_IMAGE_SIDE, quality = JPEG_QUALITY): Promise<File[]> {
  const out: File[] = [];
  for (const file of files) out.push(await resizeImage(file, maxSide, quality));
  return out;
}
