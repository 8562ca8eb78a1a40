import '../../i18n/auth-texts';
import type { Rule } from 'antd/es/form';
import { PASSWORD_MIN_LENGTH } from '../../../contract/product';
import { t } from '../../i18n';

export const required = (fieldKey: string): Rule => ({
  required: true,
  message: t('auth.validation.required', { field: t(fieldKey) }),
});
export const emailRules: Rule[] = [
  required('auth.fields.email'),
  { type: 'email', message: t('auth.validation.email') },
];
export const newPasswordRules: Rule[] = [
  required('auth.fields.password'),
  { min: PASSWORD_MIN_LENGTH, message: t('auth.validation.passwordMin', { min: PASSWORD_MIN_LENGTH }) },
];
export const confirmRules = (field: string): Rule[] => [
  required('auth.fields.confirmPassword'),
  ({ getFieldValue }) => ({
    validator: (_, value) =>
      !value || getFieldValue(field) === value
        ? Promise.resolve()
        : Promise.reject(new Error(t('auth.validation.passwordMatch'))),
  }),
];
