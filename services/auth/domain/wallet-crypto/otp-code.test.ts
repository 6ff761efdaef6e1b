import { expectFailure } from './expect-failure.fixture';
import { DEFAULT_OTP_ALPHABET, generateOtpCode, otpCodesMatch } from './otp-code';

describe('OTP codes', () => {
  it('defaults to six decimal digits', () => {
    for (let i = 0; i < 50; i += 1) expect(generateOtpCode()).toMatch(/^[0-9]{6}$/);
    expect(DEFAULT_OTP_ALPHABET).toBe('0123456789');
  });

  it('honours the configured length and alphabet, using every character', () => {
    const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
    const seen = new Set<string>();
    for (let i = 0; i < 100; i += 1) {
      const code = generateOtpCode({ length: 8, alphabet });
      expect(code).toHaveLength(8);
      for (const ch of code) {
        expect(alphabet).toContain(ch);
        seen.add(ch);
      }
    }
    expect(seen.size).toBe(alphabet.length);
  });

  it('is roughly uniform for an alphabet that does not divide 256', () => {
    const alphabet = 'abc';
    const counts: Record<string, number> = { a: 0, b: 0, c: 0 };
    for (let i = 0; i < 100; i += 1) for (const ch of generateOtpCode({ length: 60, alphabet })) counts[ch] += 1;
    // 6000 draws: 2000 expected per character, standard deviation about 37.
    for (const n of Object.values(counts)) expect(Math.abs(n - 2000)).toBeLessThan(250);
  });

  it('refuses unusable options', () => {
    expectFailure(() => generateOtpCode({ length: 0 }), 'INVALID_ARGUMENT');
    expectFailure(() => generateOtpCode({ length: 65 }), 'INVALID_ARGUMENT');
    expectFailure(() => generateOtpCode({ length: 2.5 }), 'INVALID_ARGUMENT');
    expectFailure(() => generateOtpCode({ alphabet: '7' }), 'INVALID_ARGUMENT');
    expectFailure(() => generateOtpCode({ alphabet: 'aab' }), 'INVALID_ARGUMENT');
  });

  it('compares codes exactly', () => {
    expect(otpCodesMatch('482913', '482913')).toBe(true);
    expect(otpCodesMatch('482914', '482913')).toBe(false);
    expect(otpCodesMatch('48291', '482913')).toBe(false);
    expect(otpCodesMatch('4829130', '482913')).toBe(false);
    expect(otpCodesMatch('', '482913')).toBe(false);
  });
});
