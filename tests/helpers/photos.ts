import type { Page } from 'playwright-core';

/**
 * A photo-like picture drawn by the page's own canvas (a gradient with a few shapes: it compresses as a photo
 * does), encoded as a phone's camera or gallery would hand it over, for upload tests.
 */
export async function drawnPhoto(
  page: Page,
  width: number,
  height: number,
  type: 'image/png' | 'image/jpeg',
): Promise<Buffer> {
  const base64 = await page.evaluate(
    async ({ width, height, type }) => {
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      const g = canvas.getContext('2d')!;
      const fill = g.createLinearGradient(0, 0, width, height);
      fill.addColorStop(0, '#2a6f97');
      fill.addColorStop(1, '#f4a261');
      g.fillStyle = fill;
      g.fillRect(0, 0, width, height);
      g.fillStyle = '#264653';
      for (let k = 0; k < 12; k++)
        g.fillRect((width / 15) * k + width / 30, height * (0.15 + 0.04 * k), width / 20, height * 0.45);
      const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), type, 0.9));
      const bytes = new Uint8Array(await blob.arrayBuffer());
      let text = '';
      for (let k = 0; k < bytes.length; k += 0x8000) text += String.fromCharCode(...bytes.subarray(k, k + 0x8000));
      return btoa(text);
    },
    { width, height, type },
  );
  return Buffer.from(base64, 'base64');
}
