/**
 * Issue 37: switching the language switches everything a person reads, messages from elsewhere included. The page's
 * lang and dir follow (Arabic right to left, its charts too); a message the server answers with, and a contract schema's
 * validation message, show in the reader's language when they are among the collected messages
 * (src/i18n/en/messages.ts); one built at run time ("10.0.0.7 is reserved") through the pattern it was built from
 * ("{0} is reserved"), its values kept as they came; a message no pattern matches stays as it came.
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
import { getLocale, PSEUDO_LOCALE, t, translateMessage } from '../../src/i18n';
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
    // A message made at run time that no collected pattern matches: shown as it came.
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

  it('shows a message the server built at run time in the language, its values as they came', async () => {
    await switchLanguage('es');
    // `${wanted} is reserved` in the server: one value.
    const error = toHttpError(
      serverRefusal({
        success: false,
        message: '10.0.0.7 is reserved',
        errors: [{ field: 'address', message: '10.0.9.9 is not inside 10.0.0.0/24' }],
      }),
    );
    expect(es['msgp.{0} is reserved']).toBe('{0} está reservada');
    expect(error.message).toBe('10.0.0.7 está reservada');
    expect(error.errors).toEqual({ address: '10.0.9.9 no está dentro de 10.0.0.0/24' });
    // Two values, each put where the language puts it; a value is not translated.
    expect(translateMessage('Cannot change the ticket status from open to closed')).toBe(
      'No se puede cambiar el estado del ticket de open a closed',
    );
    // A value with spaces and quotes, then a value that is a known message written into the pattern.
    expect(translateMessage('10.0.0.1 is the gateway of "Main office"')).toBe(
      '10.0.0.1 es la puerta de enlace de "Main office"',
    );
    expect(translateMessage('The backup failed: disk full')).toBe('El respaldo falló: disk full');
    // A choice between two fixed texts in the server (subscription / subscriptions) is a pattern each.
    expect(translateMessage('The network is in use by 3 subscriptions: release their addresses first')).toBe(
      'La red está en uso por 3 suscripciones: libere primero sus direcciones',
    );
    // The more specific pattern wins: the fixed 256 over the {1} one (same meaning, here the same words).
    expect(translateMessage('note must be at most 256 characters')).toBe('note debe tener como máximo 256 caracteres');

    // A fixed message wins over a pattern that also matches it ("{0} not found").
    expect(translateMessage('Plan not found')).toBe(es['msg.Plan not found']);
    expect(translateMessage('Widget not found')).toBe(es['msgp.{0} not found'].replace('{0}', 'Widget'));
    expect(es['msg.Plan not found']).not.toBe(es['msgp.{0} not found'].replace('{0}', 'Plan'));

    // Unknown: as it came; text around a pattern does not match it (the patterns are anchored).
    expect(translateMessage('Something odd happened to 10.0.0.7')).toBe('Something odd happened to 10.0.0.7');
    expect(translateMessage('Note: 10.0.0.7 is reserved for now')).toBe('Note: 10.0.0.7 is reserved for now');

    // The pseudo-locale marks it as it marks every message; English shows it as it came.
    await switchLanguage(PSEUDO_LOCALE);
    expect(translateMessage('10.0.0.7 is reserved')).toBe('⟦10.0.0.7 íš rḗšḗrvḗd⟧');
    await switchLanguage('en');
    expect(translateMessage('10.0.0.7 is reserved')).toBe('10.0.0.7 is reserved');
  });
});
