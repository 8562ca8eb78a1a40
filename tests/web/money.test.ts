import { describe, expect, it } from 'vitest';
import { formatMoney, toMajorString, toMinorUnits } from '../../contract/money';

describe('money in minor units', () => {
  it('converts typed amounts exactly, without float drift', () => {
    expect(toMinorUnits('39.99')).toBe(3999);
    expect(toMinorUnits('0.29')).toBe(29);
    expect(toMinorUnits('1.005')).toBeNull();
    expect(toMinorUnits('1.50')).toBe(150);
    expect(toMinorUnits('1,5')).toBe(150);
    expect(toMinorUnits('12')).toBe(1200);
    expect(toMinorUnits('abc')).toBeNull();
    expect(toMinorUnits('500', 'JPY')).toBe(500);
    expect(toMinorUnits('1.234', 'KWD')).toBe(1234);
  });

  it('shows minor units back as amounts', () => {
    expect(toMajorString(3999)).toBe('39.99');
    expect(toMajorString(5)).toBe('0.05');
    expect(toMajorString(-150)).toBe('-1.50');
    expect(formatMoney(3999, 'USD', 'en-US')).toBe('$39.99');
    expect(formatMoney(500, 'JPY', 'en-US')).toBe('¥500');
  });
});
