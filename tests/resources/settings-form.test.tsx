import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { FakeApi, ok } from '../providers/support/fake-api';
import { SettingsPage } from '../../resources/settings/SettingsPage';
import { percentToBp, toFormValues } from '../../resources/settings/values';
import { renderScreen, toastText } from './support/render';

const settings = {
  company: {
    name: 'Acme Net',
    logo_url: null,
    address: '1 Main St',
    support_email: 'help@acme.test',
    support_phone: '123',
    social: { facebook: '', twitter: '', instagram: '', linkedin: '' },
  },
  currency: 'USD',
  tax_rate_bp: 750,
  achievements: [{ label: 'Customers', value: '10k' }],
  faq: [],
  coverage_areas: [],
  languages: { default: 'en' as const, offered: ['en' as const, 'es' as const] },
  billing: { invoice_prefix: 'INV-', invoice_next_number: 1, grace_days: 7, renewal_days_before: 7 },
  uploads: { ticket_mb: 25, installation_mb: 50, customer_daily_mb: 50 },
  smtp: {
    host: 'smtp.acme.test',
    port: 587,
    secure: false,
    user: 'mailer',
    from: 'no-reply@acme.test',
    password_set: true,
  },
  policies: { 'privacy-policy': '# Privacy', 'terms-condition': '', 'refund-policy': '' },
};

afterEach(cleanup);

describe('settings screen', () => {
  it('never pre-fills the SMTP password, only says whether one is set', async () => {
    const api = new FakeApi().on('GET /settings', ok(settings));
    renderScreen(api, '/dashboard/settings', [{ path: '/dashboard/settings', element: <SettingsPage /> }]);
    expect(await screen.findByTestId('smtp-password-state')).toBeTruthy();
    expect(screen.getByTestId('smtp-password-state').textContent).toBe('set');
    const password = document.querySelector<HTMLInputElement>('input[type="password"]')!;
    expect(password.value).toBe('');
    expect(toFormValues(settings).smtp).not.toHaveProperty('password_set');
  });

  it('saves with PUT /settings: tax rate in basis points, an untouched password kept as "", and says "Settings saved"', async () => {
    const api = new FakeApi().on('GET /settings', ok(settings)).on('PUT /settings', ok(settings, 'Settings saved'));
    renderScreen(api, '/dashboard/settings', [{ path: '/dashboard/settings', element: <SettingsPage /> }]);
    await screen.findByTestId('smtp-password-state');
    fireEvent.change(screen.getByLabelText('Tax rate (%)'), { target: { value: '8.25' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(api.count('PUT /settings')).toBe(1));
    const body = api.last('PUT /settings')!.body as {
      tax_rate_bp: number;
      smtp: { password: string };
      company: object;
      achievements: unknown;
    };
    expect(body.tax_rate_bp).toBe(825);
    expect(body.smtp.password).toBe('');
    expect(body.company).not.toHaveProperty('logo_url');
    expect(body.achievements).toEqual([{ label: 'Customers', value: '10k' }]);
    await waitFor(() => expect(toastText()).toContain('Settings saved'));
  });

  it('the upload quotas are set on the Policies tab: shown in MB, sent with the rest, out of range refused', async () => {
    const api = new FakeApi().on('GET /settings', ok(settings)).on('PUT /settings', ok(settings, 'Settings saved'));
    renderScreen(api, '/dashboard/settings', [{ path: '/dashboard/settings', element: <SettingsPage /> }]);
    await screen.findByTestId('smtp-password-state');
    const perTicket = screen.getByLabelText('Attachments per ticket') as HTMLInputElement;
    expect(perTicket.value).toBe('25');
    fireEvent.change(perTicket, { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(document.querySelector('.ant-form-item-explain-error')?.textContent).toBeTruthy());
    expect(document.querySelector('.ant-form-item-explain-error')!.textContent).toBe(
      'The quota per ticket must be between 1 and 10240 MB',
    );
    expect(api.count('PUT /settings')).toBe(0);
    fireEvent.change(perTicket, { target: { value: '10' } });
    fireEvent.change(screen.getByLabelText('Uploads per customer a day'), { target: { value: '100' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(api.count('PUT /settings')).toBe(1));
    expect((api.last('PUT /settings')!.body as Record<string, unknown>).uploads).toEqual({
      ticket_mb: 10,
      installation_mb: 50,
      customer_daily_mb: 100,
    });
  });

  it('the Languages tab sets the offered languages and the default: a default not offered is refused, nothing sent', async () => {
    const api = new FakeApi().on('GET /settings', ok(settings)).on('PUT /settings', ok(settings, 'Settings saved'));
    renderScreen(api, '/dashboard/settings', [{ path: '/dashboard/settings', element: <SettingsPage /> }]);
    await screen.findByTestId('smtp-password-state');
    fireEvent.click(screen.getByRole('tab', { name: 'Languages' }));
    const offered = (name: string) => screen.getByRole('checkbox', { name }) as HTMLInputElement;
    expect(offered('English').checked).toBe(true);
    expect(offered('Español').checked).toBe(true);
    expect(offered('العربية').checked).toBe(false);
    fireEvent.click(offered('العربية'));
    fireEvent.click(screen.getByRole('radio', { name: 'Français' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() =>
      expect(screen.getByText('The default language must be one of the offered languages')).toBeTruthy(),
    );
    expect(api.count('PUT /settings')).toBe(0);
    fireEvent.click(screen.getByRole('radio', { name: 'العربية' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(api.count('PUT /settings')).toBe(1));
    expect((api.last('PUT /settings')!.body as Record<string, unknown>).languages).toEqual({
      default: 'ar',
      offered: ['en', 'es', 'ar'],
    });
  });

  it('the Languages tab sets the ISP’s time zone from a searchable list, or none (the reader’s own) (issue 37)', async () => {
    const api = new FakeApi().on('GET /settings', ok(settings)).on('PUT /settings', ok(settings, 'Settings saved'));
    renderScreen(api, '/dashboard/settings', [{ path: '/dashboard/settings', element: <SettingsPage /> }]);
    await screen.findByTestId('smtp-password-state');
    fireEvent.click(screen.getByRole('tab', { name: 'Languages' }));
    const zone = screen.getByRole('combobox', { name: 'Time zone' });
    // None stored: the reader's own.
    expect(zone.closest('.ant-select')!.querySelector('.ant-select-selection-item')!.textContent).toBe(
      'The reader’s own (browser)',
    );
    fireEvent.mouseDown(zone);
    fireEvent.change(zone, { target: { value: 'mexico city' } });
    fireEvent.click(
      (await screen.findAllByText('America/Mexico City', { selector: '.ant-select-item-option-content' })).pop()!,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(api.count('PUT /settings')).toBe(1));
    expect((api.last('PUT /settings')!.body as Record<string, unknown>).time_zone).toBe('America/Mexico_City');

    fireEvent.mouseDown(zone);
    fireEvent.click(
      (
        await screen.findAllByText('The reader’s own (browser)', { selector: '.ant-select-item-option-content' })
      ).pop()!,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(api.count('PUT /settings')).toBe(2));
    expect((api.last('PUT /settings')!.body as Record<string, unknown>).time_zone).toBeNull();
  });

  it('shows a stored time zone, one missing from the browser’s list too, and sends it back as it is', async () => {
    for (const [stored, label] of [
      ['Asia/Tokyo', 'Asia/Tokyo'],
      ['Nowhere/Not_Listed', 'Nowhere/Not Listed'],
    ]) {
      const api = new FakeApi()
        .on('GET /settings', ok({ ...settings, time_zone: stored }))
        .on('PUT /settings', ok(settings, 'Settings saved'));
      renderScreen(api, '/dashboard/settings', [{ path: '/dashboard/settings', element: <SettingsPage /> }]);
      await screen.findByTestId('smtp-password-state');
      fireEvent.click(screen.getByRole('tab', { name: 'Languages' }));
      const zone = screen.getByRole('combobox', { name: 'Time zone' });
      expect(zone.closest('.ant-select')!.querySelector('.ant-select-selection-item')!.textContent).toBe(label);
      fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
      await waitFor(() => expect(api.count('PUT /settings')).toBe(1));
      expect((api.last('PUT /settings')!.body as Record<string, unknown>).time_zone).toBe(stored);
      cleanup();
    }
  });

  it('edits the content per offered language: the picker shows the default text as placeholders and sends each language (issue 37)', async () => {
    const withContent = {
      ...settings,
      faq: [{ question: 'How do I pay?', answer: 'By card.' }],
      about: 'We are a local provider.',
      content_translations: {
        es: { faq: [{ question: '¿Cómo pago?', answer: 'Con tarjeta.' }] },
        fr: { about: 'Ancien texte, le français n’est plus proposé' },
      },
    };
    const api = new FakeApi()
      .on('GET /settings', ok(withContent))
      .on('PUT /settings', ok(withContent, 'Settings saved'));
    renderScreen(api, '/dashboard/settings', [{ path: '/dashboard/settings', element: <SettingsPage /> }]);
    await screen.findByTestId('smtp-password-state');
    fireEvent.click(screen.getByRole('tab', { name: 'Site content' }));
    const content = screen.getByRole('tabpanel', { name: 'Site content' });
    const picker = (name: string) => within(content).getByRole('radio', { name }) as HTMLInputElement;
    expect(picker('English (default)').checked).toBe(true);
    expect(within(content).queryByRole('radio', { name: 'Français' })).toBeNull();
    expect((within(content).getByDisplayValue('How do I pay?') as HTMLElement).closest('[hidden]')).toBeNull();

    fireEvent.click(picker('Español'));
    // (antd marks the picked button on its label; jsdom leaves the input's own checked behind.)
    await waitFor(() => expect(picker('Español').closest('label')!.className).toContain('checked'));
    expect(within(content).getByDisplayValue('¿Cómo pago?').closest('[hidden]')).toBeNull();
    expect(within(content).getByDisplayValue('How do I pay?').closest('[hidden]')).not.toBeNull();
    // No Spanish achievements yet: the English ones are offered as a start.
    fireEvent.click(within(content).getByRole('button', { name: /Start from the English entries/ }));
    const spanishAbout = within(content)
      .getAllByLabelText('About text')
      .find((el) => !el.closest('[hidden]')) as HTMLTextAreaElement;
    expect(spanishAbout.placeholder).toBe('We are a local provider.');
    fireEvent.change(spanishAbout, { target: { value: 'Somos un proveedor local.' } });

    fireEvent.click(screen.getByRole('tab', { name: 'Policies' }));
    const policies = screen.getByRole('tabpanel', { name: 'Policies' });
    // The same language is picked on every tab.
    expect(within(policies).getByRole('radio', { name: 'Español' }).closest('label')!.className).toContain('checked');
    const privacy = within(policies)
      .getAllByLabelText('Privacy policy (Markdown)')
      .find((el) => !el.closest('[hidden]')) as HTMLTextAreaElement;
    expect(privacy.placeholder).toBe('# Privacy');
    fireEvent.change(privacy, { target: { value: '# Privacidad' } });

    // A Spanish entry left half done while English is shown: the save shows Spanish with the field's message.
    fireEvent.click(within(policies).getByRole('radio', { name: 'English (default)' }));
    fireEvent.click(screen.getByRole('tab', { name: 'Site content' }));
    // Every list's Add, shown or not: English achievements, English FAQ, Spanish achievements, Spanish FAQ, coverage.
    fireEvent.click(within(content).getAllByRole('button', { name: /Add/, hidden: true })[3]);
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(picker('Español').closest('label')!.className).toContain('checked'));
    expect((await within(content).findAllByText('Question is required')).some((el) => !el.closest('[hidden]'))).toBe(
      true,
    );
    expect(api.count('PUT /settings')).toBe(0);
    const faqRemove = within(content)
      .getAllByRole('button', { name: 'Remove' })
      .filter((el) => !el.closest('[hidden]'));
    fireEvent.click(faqRemove[faqRemove.length - 1]);

    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(api.count('PUT /settings')).toBe(1));
    const body = api.last('PUT /settings')!.body as Record<string, unknown>;
    expect(body.about).toBe('We are a local provider.');
    expect(body.faq).toEqual([{ question: 'How do I pay?', answer: 'By card.' }]);
    // Spanish only: French is not offered any more (the server keeps its stored text), English is the default.
    expect(body.content_translations).toEqual({
      es: {
        achievements: [{ label: 'Customers', value: '10k' }],
        faq: [{ question: '¿Cómo pago?', answer: 'Con tarjeta.' }],
        about: 'Somos un proveedor local.',
        policies: expect.objectContaining({ 'privacy-policy': '# Privacidad' }),
      },
    });
  }, 60_000);

  it('converts percentages to basis points exactly', () => {
    expect(percentToBp('7.5')).toBe(750);
    expect(percentToBp('0.07')).toBe(7);
    expect(percentToBp('abc')).toBeNull();
  });
});
