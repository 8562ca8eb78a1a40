import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import type { Plan } from '../../contract/schemas/plan';
import type { PublicSettings } from '../../contract/schemas/settings';
import { siteApi } from '../../src/site/api';
import { Markdown } from '../../src/site/markdown';
import { ContactForm } from '../../src/site/pages/ContactForm';
import { PlanCards } from '../../src/site/pages/PlanCards';
import { CoverageCheck } from '../../src/site/pages/Sections';
import { ToastProvider } from '../../src/site/Toasts';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const settings: PublicSettings = {
  company: {
    name: 'Riverside Fibre',
    logo_url: null,
    address: '1 Main St',
    support_email: 'help@example.net',
    support_phone: '+1 555 0100',
    social: { facebook: '', twitter: '', instagram: '', linkedin: '' },
  },
  currency: 'USD',
  tax_rate_bp: 0,
  achievements: [],
  faq: [],
  coverage_areas: [
    { name: 'Springfield', postcode: '12345', note: 'fibre' },
    { name: 'Shelbyville', postcode: '', note: '' },
  ],
  languages: { default: 'en', offered: ['en', 'es', 'fr', 'id', 'ar'] },
};

const plan = (over: Partial<Plan>): Plan => ({
  id: crypto.randomUUID(),
  name: 'Home',
  slug: 'home',
  description: null,
  download_mbps: 100,
  upload_mbps: 20,
  data_cap_gb: null,
  price: 3999,
  setup_fee: 0,
  currency: 'USD',
  billing_cycle: 'monthly',
  features: [],
  is_featured: false,
  sort_order: 0,
  status: 'active',
  created_at: '',
  updated_at: '',
  ...over,
});

describe('policy Markdown', () => {
  it('renders headings, lists, emphasis and links', () => {
    const { container } = render(
      <Markdown source={'# Privacy\n\nWe keep **little** data.\n\n- one\n- two\n\nSee [our page](/about).'} />,
    );
    expect(container.querySelector('h2')?.textContent).toBe('Privacy');
    expect(container.querySelector('strong')?.textContent).toBe('little');
    expect(container.querySelectorAll('li')).toHaveLength(2);
    expect(container.querySelector('a')?.getAttribute('href')).toBe('/about');
  });

  it('never turns policy text into markup or script', () => {
    const { container } = render(
      <Markdown source={'<script>alert(1)</script> <img src=x onerror=alert(1)>\n\n[click](javascript:alert(1))'} />,
    );
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('a')).toBeNull();
    expect(container.textContent).toContain('<script>alert(1)</script>');
  });
});

describe('coverage check', () => {
  it('finds an area by name or postcode and says so when it is not served', () => {
    render(<CoverageCheck settings={settings} />);
    const input = screen.getByPlaceholderText('e.g. Springfield or 12345');
    fireEvent.change(input, { target: { value: '123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Check' }));
    expect(screen.getByTestId('coverage-result').textContent).toBe('Good news: we serve Springfield (12345).');
    fireEvent.change(input, { target: { value: 'Capital City' } });
    fireEvent.click(screen.getByRole('button', { name: 'Check' }));
    expect(screen.getByTestId('coverage-result').textContent).toContain('We do not serve "Capital City" yet');
  });
});

describe('contact form', () => {
  it('names each missing field and sends nothing', () => {
    const submit = vi.spyOn(siteApi, 'submitContact');
    render(
      <ToastProvider>
        <ContactForm />
      </ToastProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Send message' }));
    expect(screen.getByText('Name is required')).toBeTruthy();
    expect(screen.getByText('E-mail is required')).toBeTruthy();
    expect(screen.getByText('Subject is required')).toBeTruthy();
    expect(screen.getByText('Message is required')).toBeTruthy();
    expect(submit).not.toHaveBeenCalled();
  });

  it('sends the message, shows the success toast and clears the form', async () => {
    const submit = vi.spyOn(siteApi, 'submitContact').mockResolvedValue('Contact form submitted successfully');
    render(
      <ToastProvider>
        <ContactForm />
      </ToastProvider>,
    );
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Pat Visitor' } });
    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: 'pat@example.net' } });
    fireEvent.change(screen.getByLabelText('Subject'), { target: { value: 'Coverage' } });
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'Do you serve Elm Street yet?' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send message' }));
    await waitFor(() =>
      expect(screen.getByTestId('toast-success').textContent).toContain('Contact form submitted successfully'),
    );
    expect(submit).toHaveBeenCalledWith(
      expect.objectContaining({ name: 'Pat Visitor', email: 'pat@example.net', website: '' }),
    );
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('');
  });

  it('shows the server message in a red toast when sending fails', async () => {
    vi.spyOn(siteApi, 'submitContact').mockRejectedValue(
      Object.assign(new Error('Too many requests. Please try again later.'), { statusCode: 429 }),
    );
    render(
      <ToastProvider>
        <ContactForm />
      </ToastProvider>,
    );
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Pat Visitor' } });
    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: 'pat@example.net' } });
    fireEvent.change(screen.getByLabelText('Subject'), { target: { value: 'Coverage' } });
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'Do you serve Elm Street yet?' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send message' }));
    await waitFor(() => expect(screen.getByTestId('toast-error').textContent).toContain('Too many requests'));
  });
});

describe('plan cards', () => {
  it('shows prices from minor units, highlights the featured plan and links Subscribe to registration', async () => {
    const featured = plan({ name: 'Home 100', is_featured: true, price: 3999, setup_fee: 4900 });
    vi.spyOn(siteApi, 'activePlans').mockResolvedValue([
      plan({ name: 'Basic 25', price: 1999, data_cap_gb: 500 }),
      featured,
    ]);
    render(
      <MemoryRouter>
        <PlanCards />
      </MemoryRouter>,
    );
    const cards = await screen.findAllByTestId('plan-card');
    expect(cards).toHaveLength(2);
    expect(cards[0].textContent).toContain('$19.99');
    expect(cards[0].textContent).toContain('500 GB data per month');
    expect(cards[1].className).toContain('featured');
    expect(cards[1].textContent).toContain('Most popular');
    expect(cards[1].textContent).toContain('Setup fee $49.00');
    expect(cards[1].querySelector('a')?.getAttribute('href')).toBe(`/register?plan=${featured.id}`);
  });

  it('says so when there are no plans or they cannot be loaded', async () => {
    vi.spyOn(siteApi, 'activePlans').mockRejectedValue(new Error('Network error'));
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    render(
      <MemoryRouter>
        <PlanCards />
      </MemoryRouter>,
    );
    expect(await screen.findByText('Plans could not be loaded. Please try again later.')).toBeTruthy();
  });
});
