// A small MIME reader for the mails our own server sends (nodemailer): headers with RFC 2047 encoded
// words, quoted-printable or base64 bodies, multipart/alternative and attachments. Not a general parser.

export interface MailAttachment {
  filename: string | null;
  contentType: string;
  content: Buffer;
}

export interface ParsedMail {
  /** Header values by lower-case name; the first occurrence wins. */
  headers: Record<string, string>;
  from: string;
  /** Lower-case addresses from the envelope (RCPT TO) and the To/Cc headers. */
  to: string[];
  subject: string;
  /** The text/plain body ('' when there is none). */
  text: string;
  /** The text/html body, or null. */
  html: string | null;
  attachments: MailAttachment[];
  raw: string;
  receivedAt: Date;
}

interface Part {
  headers: Record<string, string>;
  /** Body bytes as a latin1 string (one char per byte). */
  body: string;
}

export function parseMail(raw: Buffer, envelope: { from?: string; to?: string[] } = {}): ParsedMail {
  const root = splitPart(raw.toString('latin1'));
  let text: string | null = null;
  let html: string | null = null;
  const attachments: MailAttachment[] = [];

  const visit = (part: Part) => {
    const contentType = parseHeaderParams(part.headers['content-type'] ?? 'text/plain; charset=utf-8');
    const disposition = parseHeaderParams(part.headers['content-disposition'] ?? '');
    if (contentType.value.startsWith('multipart/') && contentType.params.boundary) {
      for (const child of splitMultipart(part.body, contentType.params.boundary)) visit(child);
      return;
    }
    const bytes = decodeTransfer(part.body, part.headers['content-transfer-encoding'] ?? '7bit');
    const isAttachment = disposition.value === 'attachment' || Boolean(disposition.params.filename);
    if (!isAttachment && contentType.value === 'text/plain' && text === null) {
      text = decodeCharset(bytes, contentType.params.charset);
    } else if (!isAttachment && contentType.value === 'text/html' && html === null) {
      html = decodeCharset(bytes, contentType.params.charset);
    } else {
      const filename = disposition.params.filename ?? contentType.params.name ?? null;
      attachments.push({
        filename: filename === null ? null : decodeHeader(filename),
        contentType: contentType.value,
        content: bytes,
      });
    }
  };
  visit(root);

  const headers = Object.fromEntries(
    Object.entries(root.headers).map(([name, value]) => [name, decodeHeader(value)]),
  );
  const headerAddresses = [headers.to, headers.cc]
    .filter(Boolean)
    .flatMap((value) => extractAddresses(value));
  const to = [
    ...new Set([...(envelope.to ?? []), ...headerAddresses].map((address) => address.toLowerCase())),
  ];

  return {
    headers,
    from: envelope.from ?? extractAddresses(headers.from ?? '')[0] ?? '',
    to,
    subject: headers.subject ?? '',
    text: text ?? '',
    html,
    attachments,
    raw: Buffer.from(raw).toString('utf8'),
    receivedAt: new Date(),
  };
}

/** Every http(s) link in the mail: text body first, then the HTML body's hrefs and text. */
export function findLinks(mail: ParsedMail): string[] {
  const sources = [mail.text, (mail.html ?? '').replace(/&amp;/g, '&')];
  const links: string[] = [];
  for (const source of sources) {
    for (const match of source.matchAll(/https?:\/\/[^\s"'<>]+/g)) {
      const link = match[0].replace(/[.,;:!?)\]]+$/, '');
      if (!links.includes(link)) links.push(link);
    }
  }
  return links;
}

/**
 * The first link in the mail whose path starts with pathPrefix (e.g. '/confirm_email/'), as an absolute
 * URL. Throws, listing the links it saw, when there is none.
 */
export function extractLink(mail: ParsedMail, pathPrefix: string): string {
  const links = findLinks(mail);
  for (const link of links) {
    try {
      const url = new URL(link);
      if (`${url.pathname}${url.search}`.startsWith(pathPrefix)) return url.href;
    } catch {
      // not a URL after all
    }
  }
  throw new Error(
    `No link starting with ${pathPrefix} in the mail "${mail.subject}" to ${mail.to.join(', ')}; links: ${
      links.length > 0 ? links.join(' ') : 'none'
    }`,
  );
}

function splitPart(source: string): Part {
  const match = /\r?\n\r?\n/.exec(source);
  const head = match ? source.slice(0, match.index) : source;
  const body = match ? source.slice(match.index + match[0].length) : '';
  const headers: Record<string, string> = {};
  // Unfold continuation lines, then split "Name: value".
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!(name in headers)) headers[name] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

function splitMultipart(body: string, boundary: string): Part[] {
  const delimiter = `--${boundary}`;
  const parts: Part[] = [];
  const lines = body.split(/\r?\n/);
  let current: string[] | null = null;
  for (const line of lines) {
    if (line === delimiter || line === `${delimiter}--`) {
      if (current) parts.push(splitPart(current.join('\r\n')));
      current = line === delimiter ? [] : null;
      if (current === null) break;
    } else if (current) {
      current.push(line);
    }
  }
  return parts;
}

function parseHeaderParams(value: string): { value: string; params: Record<string, string> } {
  const [first = '', ...rest] = value.split(';');
  const params: Record<string, string> = {};
  for (const piece of rest) {
    const equals = piece.indexOf('=');
    if (equals <= 0) continue;
    const key = piece.slice(0, equals).trim().toLowerCase();
    params[key] = piece
      .slice(equals + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
  }
  return { value: first.trim().toLowerCase(), params };
}

function decodeTransfer(body: string, encoding: string): Buffer {
  switch (encoding.trim().toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64');
    case 'quoted-printable':
      return Buffer.from(
        body
          .replace(/[ \t]+(?=\r?\n)/g, '')
          .replace(/=\r?\n/g, '')
          .replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
        'latin1',
      );
    default:
      return Buffer.from(body, 'latin1');
  }
}

function decodeCharset(bytes: Buffer, charset = 'utf-8'): string {
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return bytes.toString('utf8');
  }
}

const encodedWord = /=\?([^?\s]+)\?([bBqQ])\?([^?\s]*)\?=/g;

/** Decodes RFC 2047 encoded words; adjacent words of one charset are joined before decoding. */
export function decodeHeader(value: string): string {
  // Whitespace between two encoded words is not part of the text.
  const joined = value.replace(/(\?=)\s+(?==\?)/g, '$1');
  let result = '';
  let last = 0;
  let pending: { charset: string; bytes: Buffer[] } | null = null;
  const flush = () => {
    if (pending) result += decodeCharset(Buffer.concat(pending.bytes), pending.charset);
    pending = null;
  };
  for (const match of joined.matchAll(encodedWord)) {
    const [whole, charsetLabel, encoding, payload] = match;
    const index = match.index ?? 0;
    if (index > last) {
      flush();
      result += Buffer.from(joined.slice(last, index), 'latin1').toString('utf8');
    }
    const charset = charsetLabel.split('*')[0].toLowerCase();
    const bytes =
      encoding.toLowerCase() === 'b'
        ? Buffer.from(payload, 'base64')
        : decodeTransfer(payload.replace(/_/g, ' '), 'quoted-printable');
    const open = pending as { charset: string; bytes: Buffer[] } | null;
    if (open && open.charset === charset) {
      open.bytes.push(bytes);
    } else {
      flush();
      pending = { charset, bytes: [bytes] };
    }
    last = index + whole.length;
  }
  flush();
  if (last < joined.length) result += Buffer.from(joined.slice(last), 'latin1').toString('utf8');
  return result;
}

function extractAddresses(value: string): string[] {
  return [...value.matchAll(/[^\s<>,;"']+@[^\s<>,;"']+/g)].map((match) => match[0]);
}
