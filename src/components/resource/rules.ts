import type { Rule } from 'antd/es/form';
import type { ZodType } from 'zod';
import { t, translateMessage } from '../../i18n';
import type { FieldDef } from './types';

function blank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/**
 * antd rules from the contract's zod schema of one field: the value is checked by the same schema the server
 * uses, and the schema's own message is shown. A blank value counts as absent, so a required field says
 * "… is required" and an optional one passes.
 */
export function zodRules(schema: ZodType | undefined, field: Pick<FieldDef, 'labelKey'>): Rule[] {
  if (!schema) return [];
  const required = !schema.safeParse(undefined).success;
  return [
    { required, message: t('resource.required', { field: t(field.labelKey) }) },
    {
      validator: async (_rule, value: unknown) => {
        if (blank(value)) return;
        if (typeof value === 'number' && Number.isNaN(value)) throw new Error(t('resource.invalidAmount'));
        const result = schema.safeParse(value);
        if (!result.success) {
          const message = result.error.issues[0]?.message;
          // The contract's message in the reader's language (issue 37).
          throw new Error(message ? translateMessage(message) : t('resource.invalid'));
        }
      },
    },
  ];
}
