/**
 * Hands a Blob to the browser as a file download. Authorised downloads are fetched through the http client
 * (the bearer token a plain link would not carry) and saved with this.
 */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  try {
    const a = document.createElement('a');
    a.href = url;
    a.download = fileName;
    document.body.appendChild(a);
    a.click();
    a.remove();
  } finally {
    // Revoked a moment later: some browsers start reading the URL only after click() returns.
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
}
