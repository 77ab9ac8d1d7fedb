import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import { inject } from 'vitest';
import { DocsSiteClient } from '../../../src/docs-site.js';

/** The WordPress under test (see global-setup.ts). */
export const site = inject('wordpress');

/**
 * Whether the WordPress under test is at least `version` (`'6.9'`): the suite runs against 6.1, 6.8
 * and 7.1, and a few answers differ between releases.
 */
export function atLeast(version: string): boolean {
  const have = site.version.split('.').map(Number);
  const want = version.split('.').map(Number);
  for (let i = 0; i < want.length; i++) {
    const a = have[i] ?? 0;
    const b = want[i] ?? 0;
    if (a !== b) return a > b;
  }
  return true;
}

/** A client for the site, authenticated with the administrator's application password by default. */
export function makeClient(
  options: { applicationPassword?: string; anonymous?: boolean } = {},
): DocsSiteClient {
  return new DocsSiteClient({
    baseUrl: site.baseUrl,
    restRoot: site.restRoot,
    contentNamespace: 'wp/v2',
    ...(options.anonymous
      ? {}
      : {
          auth: {
            username: site.username,
            applicationPassword: options.applicationPassword ?? site.applicationPassword,
          },
        }),
  });
}

/** A token no other test uses, to find exactly what one test created (`search` matches titles). */
export function uniqueToken(prefix: string): string {
  return `${prefix}${randomBytes(6).toString('hex')}`;
}

/**
 * A valid RGB PNG of the given size (a colour gradient), made here so the suite needs no fixture files.
 * Large enough sizes (over 150×150) make WordPress generate a thumbnail sub-size.
 */
export function makePng(width: number, height: number): Buffer {
  const row = 1 + width * 3;
  const raw = Buffer.alloc(row * height);
  for (let y = 0; y < height; y++) {
    raw[y * row] = 0; // filter type "none"
    for (let x = 0; x < width; x++) {
      const o = y * row + 1 + x * 3;
      raw[o] = (x * 255) / Math.max(1, width - 1);
      raw[o + 1] = (y * 255) / Math.max(1, height - 1);
      raw[o + 2] = 128;
    }
  }
  const chunk = (type: string, data: Buffer): Buffer => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'ascii');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
