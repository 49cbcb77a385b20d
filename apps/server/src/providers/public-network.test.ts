import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCdn, type TestCdn } from '../../test/cdn';
import { downloadPublicMedia, MediaTooLarge } from './media';
import { assertPublicUrl, type MediaNetwork } from './public-network';
import { ConnectorError } from './types';

// Issue 11 items 1-2: which addresses a file link from a customer's message may make the server call,
// and downloading one (redirects, DNS answers, size, time) — real sockets on 127.0.0.1, DNS answered by
// an injected resolver (never the real one).

/** A resolver answering from a table; unknown names do not resolve. */
const dns = (table: Record<string, string[]>): MediaNetwork => ({
  resolve: async (hostname) => {
    const answers = table[hostname];
    if (!answers) throw new Error(`getaddrinfo ENOTFOUND ${hostname}`);
    return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  },
});
const NO_DNS = dns({});

async function verdict(url: string, opts: { network?: MediaNetwork; allowPrivate?: boolean } = {}) {
  try {
    await assertPublicUrl(url, { network: NO_DNS, ...opts });
    return 'allowed';
  } catch (error) {
    if (!(error instanceof ConnectorError)) throw error;
    return error.message;
  }
}

const verdicts = async (urls: string[], opts?: Parameters<typeof verdict>[1]) =>
  Object.fromEntries(await Promise.all(urls.map(async (url) => [url, await verdict(url, opts)])));
const allAllowed = (urls: string[]) => Object.fromEntries(urls.map((url) => [url, 'allowed']));
const privateOnes = (urls: Record<string, string>) =>
  Object.fromEntries(Object.entries(urls).map(([url, host]) => [url, `${host} is a private address`]));

describe('which addresses a file link may reach', () => {
  it('IPv4: public hosts yes; loopback, private, CGNAT, link-local, unspecified, multicast, reserved no', async () => {
    const publicOnes = ['http://8.8.8.8/a.jpg', 'https://87.240.190.78/b.jpg', 'http://1.1.1.1:8080/c'];
    expect(await verdicts(publicOnes)).toEqual(allAllowed(publicOnes));
    const refused = {
      'http://127.0.0.1/a': '127.0.0.1',
      'http://127.9.9.9/a': '127.9.9.9',
      'http://10.1.2.3/a': '10.1.2.3',
      'http://172.16.5.4/a': '172.16.5.4',
      'http://192.168.1.1/a': '192.168.1.1',
      'http://100.64.0.1/a': '100.64.0.1',
      'http://169.254.169.254/latest/meta-data/': '169.254.169.254',
      'http://0.0.0.0/a': '0.0.0.0',
      'http://224.0.0.1/a': '224.0.0.1',
      'http://255.255.255.255/a': '255.255.255.255',
      'http://192.0.2.1/a': '192.0.2.1',
    };
    expect(await verdicts(Object.keys(refused))).toEqual(privateOnes(refused));
    expect(await verdict('file:///etc/passwd')).toBe('Not a web address: file:///etc/passwd');
    expect(await verdict('ftp://8.8.8.8/a')).toBe('Not a web address: ftp://8.8.8.8/a');
  });

  it('IPv6 and IPv4 inside IPv6 (mapped, NAT64) are judged by the address they reach', async () => {
    const publicOnes = [
      'http://[2a00:1450:4010:c05::8a]/a',
      'http://[::ffff:8.8.8.8]/a',
      'http://[64:ff9b::808:808]/a',
    ];
    expect(await verdicts(publicOnes)).toEqual(allAllowed(publicOnes));
    const refused = {
      'http://[::1]/a': '::1',
      'http://[::]/a': '::',
      'http://[fe80::1]/a': 'fe80::1',
      'http://[fd12:3456::1]/a': 'fd12:3456::1',
      'http://[ff02::1]/a': 'ff02::1',
      'http://[::ffff:127.0.0.1]/a': '::ffff:7f00:1',
      'http://[::ffff:10.0.0.1]/a': '::ffff:a00:1',
      'http://[::ffff:169.254.169.254]/a': '::ffff:a9fe:a9fe',
      'http://[64:ff9b::127.0.0.1]/a': '64:ff9b::7f00:1',
      'http://[::127.0.0.1]/a': '::7f00:1',
      'http://[2002:7f00:1::1]/a': '2002:7f00:1::1',
      'http://[2001:db8::1]/a': '2001:db8::1',
    };
    expect(await verdicts(Object.keys(refused))).toEqual(privateOnes(refused));
  });

  it('decimal, octal and hex IPv4 spellings are judged by the address they mean', async () => {
    // 134744072 = 0x08080808 = 010.010.010.010 = 8.8.8.8
    const publicOnes = [
      'http://134744072/a',
      'http://0x08080808/a',
      'http://010.010.010.010/a',
      'http://8.526344/a',
    ];
    expect(await verdicts(publicOnes)).toEqual(allAllowed(publicOnes));
    const refused = {
      'http://2130706433/a': '127.0.0.1',
      'http://0x7f000001/a': '127.0.0.1',
      'http://0177.0.0.1/a': '127.0.0.1',
      'http://0x7f.1/a': '127.0.0.1',
      'http://017700000001/a': '127.0.0.1',
      'http://127.1/a': '127.0.0.1',
      'http://0/a': '0.0.0.0',
      'http://0xa9fea9fe/a': '169.254.169.254',
      'http://012.0.0.1/a': '10.0.0.1',
    };
    expect(await verdicts(Object.keys(refused))).toEqual(privateOnes(refused));
  });

  it('names are refused when any address they resolve to is not public', async () => {
    const network = dns({
      'cdn.example': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
      'intranet.example': ['10.0.0.5'],
      'half.example': ['93.184.215.14', '127.0.0.1'],
      'six.example': ['::1'],
      'mapped.example': ['::ffff:7f00:1'],
      'metadata.example': ['169.254.169.254'],
      'nothing.example': [],
    });
    expect(await verdict('https://cdn.example/a.jpg', { network })).toBe('allowed');
    expect(
      await verdict('https://CDN.example./a.jpg', { network: dns({ 'cdn.example.': ['8.8.8.8'] }) }),
    ).toBe('allowed');
    const refused = {
      'http://intranet.example/a': 'intranet.example',
      'http://half.example/a': 'half.example',
      'http://six.example/a': 'six.example',
      'http://mapped.example/a': 'mapped.example',
      'http://metadata.example/a': 'metadata.example',
    };
    expect(await verdicts(Object.keys(refused), { network })).toEqual(privateOnes(refused));
    expect(await verdict('http://nothing.example/a', { network })).toBe('nothing.example cannot be resolved');
    expect(await verdict('http://unknown.example/a', { network })).toBe(
      'unknown.example cannot be resolved: getaddrinfo ENOTFOUND unknown.example',
    );
  });

  it("MEDIA_FETCH_PRIVATE (the operator's opt-in) opens the private ranges, never link-local or unspecified", async () => {
    const opened = [
      'http://127.0.0.1/a',
      'http://10.0.0.1/a',
      'http://[fd00::1]/a',
      'http://[::ffff:192.168.0.1]/a',
    ];
    expect(await verdicts(opened, { allowPrivate: true })).toEqual(allAllowed(opened));
    const refused = {
      'http://169.254.169.254/a': '169.254.169.254',
      'http://[fe80::1]/a': 'fe80::1',
      'http://0.0.0.0/a': '0.0.0.0',
      'http://[::ffff:169.254.169.254]/a': '::ffff:a9fe:a9fe',
    };
    expect(await verdicts(Object.keys(refused), { allowPrivate: true })).toEqual(privateOnes(refused));
  });
});

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]);
let cdn: TestCdn;
let internal: Server;
let internalUrl: string;
let internalHits = 0;
beforeAll(async () => {
  cdn = await startCdn();
  internal = createServer((_req, res) => {
    internalHits += 1;
    res.writeHead(200, { 'content-type': 'text/plain' }).end('internal secret');
  });
  await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
  internalUrl = `http://127.0.0.1:${(internal.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await cdn.close();
  await new Promise<void>((resolve) => internal.close(() => resolve()));
});

const redirect = (location: string, status = 302) =>
  ((_req, res) => res.writeHead(status, { location }).end()) as Parameters<TestCdn['route']>[2];

async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ConnectorError) return { kind: error.kind, message: error.message, error };
    throw error;
  }
  throw new Error('the download succeeded');
}

describe('downloading a file link', () => {
  it('fetches a public host over HTTPS, checking its certificate for the name', async () => {
    cdn.route('cdn.example', '/photo.jpg', JPEG, 'image/jpeg');
    const file = await downloadPublicMedia('https://cdn.example/photo.jpg?expires=1', {
      network: cdn.network,
      maxBytes: 1024,
      what: 'cdn.example',
    });
    expect(file.body.equals(JPEG)).toBe(true);
    expect(file.contentType).toBe('image/jpeg');
    // Without the test CDN's certificate trusted, the same address is refused: TLS is verified.
    const untrusted = await failure(
      downloadPublicMedia('https://cdn.example/photo.jpg', {
        network: { ...cdn.network, ca: undefined },
        maxBytes: 1024,
        what: 'cdn.example',
      }),
    );
    expect(untrusted).toMatchObject({ kind: 'temporary' });
    expect(untrusted.message).toMatch(/^cdn\.example is unreachable: .*certificate/);
  });

  it('does not follow a redirect into the private network, however it is spelt', async () => {
    const port = new URL(internalUrl).port;
    const network: MediaNetwork = {
      ...cdn.network,
      resolve: async (hostname) =>
        hostname === 'intranet.example'
          ? [{ address: '127.0.0.1', family: 4 }]
          : cdn.network.resolve(hostname),
    };
    const targets = {
      [`${internalUrl}/admin`]: '127.0.0.1 is a private address',
      [`http://2130706433:${port}/admin`]: '127.0.0.1 is a private address',
      [`http://[::ffff:127.0.0.1]:${port}/admin`]: '::ffff:7f00:1 is a private address',
      [`http://intranet.example:${port}/admin`]: 'intranet.example is a private address',
      'file:///etc/passwd': 'Not a web address: file:///etc/passwd',
    };
    const outcomes: Record<string, string> = {};
    const statuses = [301, 302, 303, 307, 308];
    for (const [i, target] of Object.keys(targets).entries()) {
      cdn.route('cdn.example', `/moved-${i}.jpg`, redirect(target, statuses[i]));
      const f = await failure(
        downloadPublicMedia(`https://cdn.example/moved-${i}.jpg`, {
          network,
          maxBytes: 1024,
          what: 'cdn.example',
        }),
      );
      outcomes[target] = f.message;
      expect(f.kind).toBe('permanent');
    }
    expect(outcomes).toEqual(targets);
    expect(internalHits).toBe(0);
  });

  it('follows redirects between public hosts, at most five', async () => {
    cdn.route('i.max.ru', '/p/1.jpg', JPEG, 'image/jpeg');
    cdn.route('cdn.example', '/short', redirect('https://i.max.ru/p/1.jpg'));
    const file = await downloadPublicMedia('http://cdn.example/short', {
      network: cdn.network,
      maxBytes: 1024,
      what: 'cdn.example',
    });
    expect(file.body.equals(JPEG)).toBe(true);

    cdn.route('cdn.example', '/loop', redirect('/loop'));
    const before = cdn.hitsOf('cdn.example', '/loop');
    const loop = await failure(
      downloadPublicMedia('https://cdn.example/loop', {
        network: cdn.network,
        maxBytes: 1024,
        what: 'cdn.example',
      }),
    );
    expect(loop).toMatchObject({ kind: 'permanent', message: 'cdn.example redirected more than 5 times' });
    expect(cdn.hitsOf('cdn.example', '/loop') - before).toBe(6);
  });

  it('tries the next checked address when one does not answer (an IPv6 answer on an IPv4-only host)', async () => {
    cdn.route('cdn.example', '/two.jpg', JPEG, 'image/jpeg');
    const spare = createServer();
    await new Promise<void>((resolve) => spare.listen(0, '127.0.0.1', resolve));
    const closed = (spare.address() as AddressInfo).port;
    await new Promise<void>((resolve) => spare.close(() => resolve()));
    const network: MediaNetwork = {
      ...cdn.network,
      resolve: async () => [
        { address: '2606:2800:21f:cb07::1', family: 6 },
        { address: '93.184.215.14', family: 4 },
      ],
      dial: (address, port) =>
        address.includes(':') ? { host: '127.0.0.1', port: closed } : cdn.network.dial!(address, port),
    };
    const file = await downloadPublicMedia('https://cdn.example/two.jpg', {
      network,
      maxBytes: 1024,
      what: 'cdn.example',
    });
    expect(file.body.equals(JPEG)).toBe(true);
  });

  it('resolves a name once per connection and connects to that very answer (no DNS rebinding)', async () => {
    cdn.route('cdn.example', '/rebind.jpg', JPEG, 'image/jpeg');
    // Public for the first question, the server's own address for every later one.
    let asked = 0;
    const network: MediaNetwork = {
      ...cdn.network,
      resolve: async (hostname) => {
        asked += 1;
        return asked === 1 ? cdn.network.resolve(hostname) : [{ address: '127.0.0.1', family: 4 }];
      },
    };
    const file = await downloadPublicMedia('https://cdn.example/rebind.jpg', {
      network,
      maxBytes: 1024,
      what: 'cdn.example',
    });
    expect(file.body.equals(JPEG)).toBe(true);
    expect(asked).toBe(1);
    const again = await failure(
      downloadPublicMedia('https://cdn.example/rebind.jpg', { network, maxBytes: 1024, what: 'cdn.example' }),
    );
    expect(again).toMatchObject({ kind: 'permanent', message: 'cdn.example is a private address' });
  });

  it('refuses a body over the limit, declared or not, and gives up after the time limit', async () => {
    const big = Buffer.alloc(4096, 1);
    cdn.route('cdn.example', '/big.bin', big);
    cdn.route('cdn.example', '/chunked.bin', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      for (let i = 0; i < 8; i++) res.write(Buffer.alloc(512, i));
      res.end();
    });
    for (const path of ['/big.bin', '/chunked.bin']) {
      const error = await downloadPublicMedia(`https://cdn.example${path}`, {
        network: cdn.network,
        maxBytes: 1024,
        what: 'cdn.example',
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MediaTooLarge);
    }

    cdn.route('cdn.example', '/stalls.jpg', (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      res.write(JPEG.subarray(0, 4));
    });
    const stalled = await failure(
      downloadPublicMedia('https://cdn.example/stalls.jpg', {
        network: cdn.network,
        maxBytes: 1024,
        what: 'cdn.example',
        timeoutMs: 300,
      }),
    );
    expect(stalled.kind).toBe('temporary');
    expect(stalled.message).toMatch(/^cdn\.example broke off the file: /);
  });
});
