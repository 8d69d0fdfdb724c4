// Saving what the page made (curves, loss tables, checkpoints) as a file, from the page's own origin.

export function downloadBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // The browser resolves the blob URL asynchronously after the click, and revoking it before then cancels the
  // download without an error; a minute is ample, and the blob is freed after it.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export function downloadText(text: string, filename: string, type: string): void {
  downloadBlob(new Blob([text], { type }), filename);
}
