import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';

/** A URL-safe random token with `bytes` bytes of entropy. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function hmacSha256(key: string | Buffer, value: string | Buffer): string {
  return createHmac('sha256', key).update(value).digest('hex');
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** AES-256-GCM with a key derived from the instance secret; output `v1.<iv>.<tag>.<ciphertext>` base64url. */
export class Sealer {
  private readonly key: Buffer;
  constructor(secret: string) {
    this.key = createHash('sha256').update(`otklik:seal:${secret}`).digest();
  }
  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [
      'v1',
      iv.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
      data.toString('base64url'),
    ].join('.');
  }
  open(sealed: string): string {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('Unsupported sealed value');
    const decipher = createDecipheriv('aes-256-gcm', this.key, canonical(iv));
    decipher.setAuthTag(canonical(tag));
    return Buffer.concat([decipher.update(canonical(data)), decipher.final()]).toString('utf8');
  }
}

/**
 * base64url as `seal` writes it, nothing else: Node's decoder ignores stray trailing characters, so
 * without this check `value` and `value + 'x'` would open alike (a sealed state or token must have
 * exactly one spelling).
 */
function canonical(part: string): Buffer {
  const bytes = Buffer.from(part, 'base64url');
  if (bytes.toString('base64url') !== part) throw new Error('Malformed sealed value');
  return bytes;
}
