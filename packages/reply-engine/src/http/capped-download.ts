import type { CancelableRequest, Response } from 'got';

/**
 * Cancels a got call once its answer passes `maxBytes` (declared or received), so memory stays
 * bounded whatever the server sends (a huge answer, an endless stream). Returns whether it did:
 * the caller then reports the size, not got's cancellation.
 */
export function capDownload(call: CancelableRequest<Response<string>>, maxBytes: number): () => boolean {
  let tooLarge = false;
  void call.on('downloadProgress', ({ transferred, total }) => {
    if (tooLarge || (transferred <= maxBytes && (total ?? 0) <= maxBytes)) return;
    tooLarge = true;
    call.cancel();
  });
  return () => tooLarge;
}
