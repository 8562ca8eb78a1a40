/** fontkit (pdfkit's font engine) ships no types: the part server/lib/pdf-text.ts uses to know a font's characters. */
declare module 'fontkit' {
  interface Font {
    hasGlyphForCodePoint(codePoint: number): boolean;
  }
  export function create(buffer: Buffer): Font;
}
