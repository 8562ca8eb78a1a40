/**
 * Issue 37: switching the language switches everything a person reads, messages from elsewhere included. The page's
 * lang and dir follow (Arabic right to left, its charts too); a message the server answers with, and a contract schema's
 * validation message, show in the reader's language when they are among the collected messages
 * (src/i18n/en/messages.ts); one built at run time stays as it came.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AxiosError, type AxiosResponse } from 'axios';
import { afterAll, describe, expect, it } from 'vitest';
import { registerBodySchema } from '../../contract/schemas/auth';
import { formatMoney } from '../../contract/money';
import { toHttpError } from '../../providers/http-error';
import { xScaleDirection, yAxisDirection } from '../../src/components/chart-direction';
import { zodRules } from '../../src/components/resource';
import { getLocale, t, translateMessage } from '../../src/i18n';
import { switchLanguage } from '../../src/i18n/language';

const es = JSON.parse(readFileSync(join(__dirname, '../../src/i18n/locales/es.json'), 'utf8')) as Record<
  string,
  string
>;

function serverRefusal(body: unknown): AxiosError {
  const response = { status: 400, data: body, statusText: '', headers: {}, config: {} } as AxiosResponse;
  return new AxiosError('Request failed', 'ERR_BAD_REQUEST', undefined, undefined, response);
}

describe('switching the language', () => {
  afterAll(() => switchLanguage('en'));

  it('changes the texts, the page direction, server and validation messages, and money', async () => {
    await switchLanguage('es');
    expect(getLocale()).toBe('es');
    expect([document.documentElement.lang, document.documentElement.dir]).toEqual(['es', 'ltr']);
    expect(t('app.language')).toBe('Idioma');

    // The server's refusal (English on the wire) as the reader sees it.
    const error = toHttpError(
      serverRefusal({
        success: false,
        message: 'Invalid email or password',
        errors: [{ field: 'email', message: 'Enter a valid e-mail address' }],
      }),
    );
    expect(error.message).toBe(es['msg.Invalid email or password']);
    expect(error.message).not.toBe('Invalid email or password');
    expect(error.errors).toEqual({ email: es['msg.Enter a valid e-mail address'] });
    // A message made at run time has no translation: shown as it came.
    expect(translateMessage('Plan 42 was changed by someone else')).toBe('Plan 42 was changed by someone else');

    // A form rule from the contract's schema refuses in Spanish.
    const [, check] = zodRules(registerBodySchema.shape.email, { labelKey: 'auth.fields.email' });
    await expect(
      (check as { validator: (rule: unknown, value: unknown) => Promise<void> }).validator({}, 'not-an-address'),
    ).rejects.toThrow(es['msg.Enter a valid e-mail address']);

    // Money in the reader's locale: Spanish separators.
    expect(formatMoney(123456, 'EUR')).toMatch(/1\.?234,56/);

    await switchLanguage('ar');
    expect([document.documentElement.lang, document.documentElement.dir]).toEqual(['ar', 'rtl']);
    expect(formatMoney(123456, 'USD')).toMatch(/1,?234\.56|1٬?234٫56/);
    // Charts read from the right: the x axis reversed, the value axis on the right.
    expect([xScaleDirection(), yAxisDirection()]).toEqual([{ range: [1, 0] }, { position: 'right' }]);

    await switchLanguage('en');
    expect([document.documentElement.lang, document.documentElement.dir]).toEqual(['en', 'ltr']);
    expect([xScaleDirection(), yAxisDirection()]).toEqual([{}, {}]);
    expect(toHttpError(serverRefusal({ success: false, message: 'Invalid email or password' })).message).toBe(
      'Invalid email or password',
    );
  });
});
