import { describe, expect, it } from 'vitest';
import { handle } from './handle';

describe('handles', () => {
  it('prefixes user names with @ and shows phone numbers as they are', () => {
    expect(handle('maria_client')).toBe('@maria_client');
    expect(handle('+79161234567')).toBe('+79161234567');
    expect(handle('79161234567')).toBe('79161234567');
    expect(handle('id123')).toBe('@id123');
  });
});
