import { describe, expect, it } from 'vitest';
import { pickerModuleHandler, pickerScript } from '../../src/picker.js';

describe('pickerModuleHandler', () => {
  it('serves the module as JavaScript with an ETag and cache headers, 304 on a match', async () => {
    const handler = pickerModuleHandler();
    const response = await handler(new Request('https://shop.example/assets/institution-picker.js'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const body = await response.text();
    expect(body).toBe(pickerScript());
    expect(body).toMatch(/customElements\.define\(['"]institution-picker['"]/);
    // Nothing that a strict CSP would block: no inline style attribute, no eval.
    expect(body).not.toMatch(/\.style\s*=|setAttribute\('style'|eval\(|new Function/);
    const etag = response.headers.get('etag')!;
    const again = await handler(
      new Request('https://shop.example/assets/institution-picker.js', {
        headers: { 'if-none-match': etag },
      }),
    );
    expect(again.status).toBe(304);
    expect((await handler(new Request('https://shop.example/x', { method: 'POST', body: '' }))).status).toBe(
      405,
    );
    const long = pickerModuleHandler({ maxAgeSeconds: 31_536_000, immutable: true });
    expect((await long(new Request('https://shop.example/x'))).headers.get('cache-control')).toBe(
      'public, max-age=31536000, immutable',
    );
    expect(() => pickerModuleHandler({ maxAgeSeconds: -1 })).toThrow(/maxAgeSeconds/);
  });
});
