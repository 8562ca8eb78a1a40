import '../../i18n/site';
import { useState, type FormEvent } from 'react';
import type { ContactInput } from '../../../contract/schemas/contact';
import { t } from '../../i18n';
import { siteApi } from '../api';
import { useToast } from '../Toasts';

type Values = Required<Omit<ContactInput, 'phone' | 'website'>> & { phone: string; website: string };
const EMPTY: Values = { name: '', email: '', phone: '', subject: '', message: '', website: '' };

function validate(v: Values): Partial<Record<keyof Values, string>> {
  const errors: Partial<Record<keyof Values, string>> = {};
  const need = (key: keyof Values, label: string, min: number) => {
    if (!v[key].trim()) errors[key] = t('site.contact.required', { field: t(label) });
    else if (v[key].trim().length < min) errors[key] = t('site.contact.tooShort', { field: t(label) });
  };
  need('name', 'site.contact.name', 2);
  need('subject', 'site.contact.subject', 2);
  need('message', 'site.contact.message', 10);
  if (!v.email.trim()) errors.email = t('site.contact.required', { field: t('site.contact.email') });
  else if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.email.trim())) errors.email = t('site.contact.invalidEmail');
  return errors;
}

export function ContactForm() {
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<keyof Values, string>>>({});
  const [sending, setSending] = useState(false);
  const toast = useToast();

  const field = (key: keyof Values, label: string, type = 'text', multiline = false) => (
    // biome-ignore lint/a11y/noLabelWithoutControl: the label wraps its <input> or <textarea>, chosen by a condition the rule does not follow
    <label className="site-field">
      <span>{t(label)}</span>
      {multiline ? (
        <textarea
          name={key}
          rows={5}
          value={values[key]}
          aria-invalid={!!errors[key]}
          onChange={(e) => setValues({ ...values, [key]: e.target.value })}
        />
      ) : (
        <input
          name={key}
          type={type}
          value={values[key]}
          aria-invalid={!!errors[key]}
          onChange={(e) => setValues({ ...values, [key]: e.target.value })}
        />
      )}
      {errors[key] && <em className="site-error">{errors[key]}</em>}
    </label>
  );

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = validate(values);
    setErrors(found);
    if (Object.keys(found).length) return;
    setSending(true);
    try {
      const message = await siteApi.submitContact({ ...values, phone: values.phone.trim() || undefined });
      toast('success', message || t('site.contact.success'));
      setValues(EMPTY);
    } catch (err) {
      const apiErrors = (err as { errors?: Record<string, string> }).errors;
      if (apiErrors) setErrors(apiErrors as typeof errors);
      toast('error', (err as Error).message || t('site.contact.failed'));
    } finally {
      setSending(false);
    }
  }

  return (
    <form className="site-form" onSubmit={submit} noValidate data-testid="contact-form">
      {field('name', 'site.contact.name')}
      {field('email', 'site.contact.email', 'email')}
      {field('phone', 'site.contact.phone', 'tel')}
      {field('subject', 'site.contact.subject')}
      {field('message', 'site.contact.message', 'text', true)}
      {/* Honeypot: hidden from people, filled by bots; the server drops such messages. */}
      <label className="site-honeypot" aria-hidden="true">
        {t('site.contact.website')}
        <input
          name="website"
          tabIndex={-1}
          autoComplete="off"
          value={values.website}
          onChange={(e) => setValues({ ...values, website: e.target.value })}
        />
      </label>
      <button className="site-button" type="submit" disabled={sending}>
        {sending ? t('site.contact.sending') : t('site.contact.submit')}
      </button>
    </form>
  );
}
