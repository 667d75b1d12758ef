import { randomUUID } from 'node:crypto';
import { UUID_BYTES, uuidText, writeUuidBytes } from './request-uuid-bytes';

describe('request UUID bytes', () => {
  it('turns a lower-case UUID into its 16 bytes and back, exactly', () => {
    const target = new Uint8Array(3 * UUID_BYTES);
    for (let i = 0; i < 500; i++) {
      const id = randomUUID();
      expect(writeUuidBytes(id, target, UUID_BYTES)).toBe(true);
      expect(Buffer.from(target.subarray(UUID_BYTES, 2 * UUID_BYTES)).toString('hex')).toBe(id.replaceAll('-', ''));
      expect(uuidText(target, UUID_BYTES)).toBe(id);
    }
    expect(writeUuidBytes('00000000-0000-0000-0000-000000000000', target, 0)).toBe(true);
    expect(uuidText(target, 0)).toBe('00000000-0000-0000-0000-000000000000');
    expect(writeUuidBytes('ffffffff-ffff-ffff-ffff-ffffffffffff', target, 0)).toBe(true);
    expect(uuidText(target, 0)).toBe('ffffffff-ffff-ffff-ffff-ffffffffffff');
  });

  it.each([
    ['upper case', '0F1E2D3C-4B5A-4978-8695-A4B3C2D1E0F0'],
    ['no dashes', '0f1e2d3c4b5a49788695a4b3c2d1e0f00000'],
    ['a dash moved', '0f1e2d3c4-b5a-4978-8695-a4b3c2d1e0f0'],
    ['too short', '0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f'],
    ['too long', '0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f00'],
    ['braces', '{f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f}'],
    ['a letter past f', '0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0fg'],
    ['a character past ASCII', '0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0fé'],
    ['a short id', 'r1'],
    ['empty', ''],
  ])('refuses an id that would not come back the same: %s', (_, id) => {
    expect(writeUuidBytes(id, new Uint8Array(UUID_BYTES), 0)).toBe(false);
  });
});
