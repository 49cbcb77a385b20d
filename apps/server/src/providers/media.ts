import { ConnectorError, type FetchedMedia } from './types';

// Downloading a network's file for the media proxy (modules/inbox/media.ts): bounded in size and time,
// every failure a ConnectorError the route can show.

export class MediaTooLarge extends ConnectorError {
  constructor(readonly maxBytes: number) {
    super('permanent', `The file is larger than ${maxBytes} bytes`);
  }
}

/** GET `url` and read at most `maxBytes` (a larger body is refused, not cut). */
export async function downloadMedia(
  fetchFn: typeof fetch,
  url: string,
  opts: { maxBytes: number; headers?: Record<string, string>; what: string },
): Promise<FetchedMedia> {
  let response: Response;
  try {
    response = await fetchFn(url, { headers: opts.headers, signal: AbortSignal.timeout(60_000) });
  } catch (error) {
    throw new ConnectorError('temporary', `${opts.what} is unreachable: ${(error as Error).message}`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new ConnectorError(
      response.status >= 500 ? 'temporary' : 'permanent',
      `${opts.what} answered ${response.status} for the file`,
    );
  }
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > opts.maxBytes) {
    await response.body?.cancel();
    throw new MediaTooLarge(opts.maxBytes);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.length;
    if (size > opts.maxBytes) throw new MediaTooLarge(opts.maxBytes);
    chunks.push(Buffer.from(chunk));
  }
  return { body: Buffer.concat(chunks), contentType: response.headers.get('content-type') };
}
