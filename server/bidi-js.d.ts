/** bidi-js ships no types: the part of its API server/lib/pdf-text.ts uses (the Unicode Bidirectional Algorithm). */
declare module 'bidi-js' {
  interface EmbeddingLevels {
    paragraphs: Array<{ start: number; end: number; level: number }>;
    levels: Uint8Array;
  }
  interface Bidi {
    getEmbeddingLevels(text: string, direction?: 'ltr' | 'rtl' | 'auto'): EmbeddingLevels;
    getMirroredCharacter(char: string): string | null;
  }
  export default function bidiFactory(): Bidi;
}
