import { useEffect, useRef } from 'react';
import { Select, type RefSelectProps, type SelectProps } from 'antd';

/**
 * antd's Select for forms. A required Form.Item hands its control `aria-required`; rc-select copies it onto its
 * wrapper div as well as its combobox input, and ARIA allows it on the input only (axe aria-allowed-attr,
 * critical). rc-select's own way to keep a prop off the wrapper (`omitDomProps`) is overwritten by its Select,
 * so the prop is held back here and set on the combobox input itself.
 */
export function FormSelect<V = unknown>({
  'aria-required': required,
  ...props
}: SelectProps<V> & { 'aria-required'?: boolean | 'true' | 'false' }) {
  const ref = useRef<RefSelectProps>(null);
  useEffect(() => {
    const input = ref.current?.nativeElement?.querySelector('input[role="combobox"]');
    if (!input) return;
    if (required === true || required === 'true') input.setAttribute('aria-required', 'true');
    else input.removeAttribute('aria-required');
  });
  return <Select<V> ref={ref} {...props} />;
}
