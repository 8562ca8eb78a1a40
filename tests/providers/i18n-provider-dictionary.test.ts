import { describe, expect, it } from 'vitest';
import { i18nProvider } from '../../providers/i18n-provider';

describe('i18n provider over the app dictionaries', () => {
  it('translates spec texts, interpolates {name} params and falls back to the default, then the key', () => {
    expect(i18nProvider.translate('errors.plans.list')).toBe('Failed to fetch plans');
    expect(i18nProvider.translate('app.loading.title', { name: 'ISP Portal' })).toBe('Loading ISP Portal...');
    expect(i18nProvider.translate('buttons.save', {}, 'Save')).toBe('Save');
    expect(i18nProvider.translate('buttons.undo', 'Undo')).toBe('Undo');
    expect(i18nProvider.translate('no.such.key')).toBe('no.such.key');
    expect(i18nProvider.getLocale()).toBe('en');
  });
});
