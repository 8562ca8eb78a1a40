/** Settings used when nothing is stored yet, and the demo content written on a fresh database. */
import { LANGUAGE_CODES, type LanguageCode } from '../../../contract/languages';
import type { ContentTranslation, DunningSettings, PolicyType } from '../../../contract/schemas/settings';
import { DEFAULT_UPLOAD_QUOTAS, type UploadQuotas } from '../../lib/upload-quotas';

export interface CompanySettings {
  name: string;
  address: string;
  support_email: string;
  support_phone: string;
  social: { facebook: string; twitter: string; instagram: string; linkedin: string };
}

export interface StoredSmtp {
  host: string;
  port: number;
  secure: boolean;
  user: string;
  from: string;
  /** Sealed with the SecretBox; null: no password. */
  password: string | null;
}

export interface StoredLogo {
  /** File name under DATA_DIR/uploads. */
  file: string;
  content_type: string;
}

/** Everything the settings table holds, one key per section (policies as policy:<type>). */
export interface StoredSettings {
  company: CompanySettings;
  logo: StoredLogo | null;
  currency: string;
  tax_rate_bp: number;
  achievements: Array<{ label: string; value: string }>;
  faq: Array<{ question: string; answer: string }>;
  /** The about page's text; '' shows the portal's own (translated) text. */
  about: string;
  coverage_areas: Array<{ name: string; postcode: string; note: string }>;
  billing: {
    invoice_prefix: string;
    invoice_next_number: number;
    grace_days: number;
    renewal_days_before: number;
    /** Autopay (issue 21): a failed automatic payment is tried again this many days after the first attempt. */
    autopay_retry_days: number[];
  };
  /** Issue 38: the dunning schedule and late fee (docs/dunning.md); off until the admin turns it on. */
  dunning: DunningSettings;
  smtp: StoredSmtp;
  /** Upload quotas in MB (issue 32): per ticket, per installation, per customer in 24 hours. */
  uploads: UploadQuotas;
  policies: Record<PolicyType, { markdown: string; updated_at: string | null }>;
  /** Issue 37: the languages offered to customers, and the default for a visitor whose browser asks for none of them. */
  languages: { default: LanguageCode; offered: LanguageCode[] };
  /**
   * Issue 37: the ISP's time zone (IANA name) the e-mails, PDFs and the web app write moments in; null: none (the
   * server writes UTC, the web app the reader's own). Stored as its own key; '' in the table is "none".
   */
  time_zone: string | null;
  /**
   * Issue 37: the content (achievements, faq, about, policies) in other languages than the default, each field
   * optional (a missing one falls back to the default language's, the fields above); and when it last changed.
   */
  content_translations: Partial<Record<LanguageCode, ContentTranslation>>;
  content_translations_updated_at: string | null;
}

const policy = (title: string, body: string) => ({ markdown: `# ${title}\n\n${body}`, updated_at: null });

export function defaultSettings(): StoredSettings {
  return {
    company: {
      name: 'ISP Portal',
      address: '1 Fiber Way, Springfield',
      support_email: 'support@isp.local',
      support_phone: '+1 555 0100',
      social: { facebook: '', twitter: '', instagram: '', linkedin: '' },
    },
    logo: null,
    currency: 'USD',
    tax_rate_bp: 0,
    achievements: [
      { label: 'Happy customers', value: '12,000+' },
      { label: 'Network uptime', value: '99.9%' },
      { label: 'Years of service', value: '10' },
      { label: 'Support', value: '24/7' },
    ],
    faq: [
      {
        question: 'How long does installation take?',
        answer:
          'Most installations are completed within 3 working days of your order. A technician will call you to book a time.',
      },
      {
        question: 'Is there a data cap?',
        answer: 'Most of our plans are unlimited. Plans with a data cap show it clearly on the plans page.',
      },
      {
        question: 'Can I change my plan later?',
        answer:
          'Yes. You can upgrade at any time from your dashboard; the new speed applies from the next billing period.',
      },
      {
        question: 'How do I pay?',
        answer: 'Invoices are issued each billing period and can be paid online by card or bank transfer.',
      },
    ],
    about: '',
    content_translations: {},
    content_translations_updated_at: null,
    coverage_areas: [
      { name: 'Springfield Downtown', postcode: '10001', note: 'Fiber to the home' },
      { name: 'Springfield North', postcode: '10002', note: 'Fiber to the home' },
      { name: 'Shelbyville', postcode: '10010', note: 'Fixed wireless; fiber coming soon' },
    ],
    billing: {
      invoice_prefix: 'INV-',
      invoice_next_number: 1,
      grace_days: 7,
      renewal_days_before: 7,
      autopay_retry_days: [1, 3, 5],
    },
    dunning: {
      enabled: false,
      steps: [{ offset_days: -3 }, { offset_days: 0 }, { offset_days: 3 }, { offset_days: 7 }],
      late_fee: { type: 'none', amount: 0, percent_bp: 0, after_days: 7 },
    },
    smtp: { host: '', port: 587, secure: false, user: '', from: '', password: null },
    uploads: { ...DEFAULT_UPLOAD_QUOTAS },
    languages: { default: 'en', offered: [...LANGUAGE_CODES] },
    time_zone: null,
    policies: {
      'privacy-policy': policy(
        'Privacy Policy',
        'We collect only the information needed to provide and bill your internet service: your name, contact details, service address and usage records.\n\n## How we use your data\n\n- To install, operate and support your connection\n- To send invoices and service notices\n- To meet our legal obligations\n\nWe never sell your personal data. Contact us to see, correct or delete what we hold about you.',
      ),
      'terms-condition': policy(
        'Terms and Conditions',
        'By subscribing to a plan you agree to these terms.\n\n## Service\n\nWe aim for continuous service but cannot guarantee it will be uninterrupted. Planned maintenance is announced in advance.\n\n## Payment\n\nInvoices are due at the start of each billing period. Service may be suspended when an invoice stays unpaid after the grace period.\n\n## Fair use\n\nThe connection must not be used for unlawful activity or to harm the network.',
      ),
      'refund-policy': policy(
        'Refund Policy',
        'If you cancel within 14 days of installation you receive a full refund of your first payment, less the setup fee.\n\nAfter that, cancellations take effect at the end of the current billing period and are not refunded pro rata.\n\nTo request a refund, contact our support team.',
      ),
    },
  };
}
