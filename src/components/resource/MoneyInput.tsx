import { useEffect, useState } from 'react';
import { Input } from 'antd';
import { toMajorString, toMinorUnits } from '../../../contract/money';

export interface MoneyInputProps {
  /** Integer minor units (the form's and the API's value). */
  value?: number | null;
  onChange?: (minor: number | null) => void;
  currency?: string;
  id?: string;
  placeholder?: string;
}

/** Not-a-number marker for text that is no amount: the field's rules reject it. */
export const INVALID_AMOUNT = Number.NaN;

/**
 * Major units in the input ("39.99"), integer minor units in the form (3999). The typed text is parsed as a
 * string (contract/money), so no float drift; the text is kept while it still means the same amount.
 */
export function MoneyInput({ value, onChange, currency = 'USD', id, placeholder }: MoneyInputProps) {
  const shown = (minor: number | null | undefined) =>
    typeof minor === 'number' && Number.isFinite(minor) ? toMajorString(minor, currency) : '';
  const [text, setText] = useState(() => shown(value));

  // biome-ignore lint/correctness/useExhaustiveDependencies: only an outside change of the value resyncs the text, never the typing itself
  useEffect(() => {
    const current = text.trim() === '' ? null : toMinorUnits(text, currency);
    const same = current === value || (current === null && (value === undefined || Number.isNaN(value)));
    if (!same) setText(shown(value));
  }, [value, currency]);

  return (
    <Input
      id={id}
      inputMode="decimal"
      prefix={currency}
      placeholder={placeholder}
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        const trimmed = e.target.value.trim();
        onChange?.(trimmed === '' ? null : (toMinorUnits(trimmed, currency) ?? INVALID_AMOUNT));
      }}
    />
  );
}
