// The enquiry form (spec §2 /contact; data contract `enquiries`): labelled fields with inline validation messages,
// a honeypot field hidden from people and assistive technology, a minimum fill time, and success/error toasts.
// supabase-js is loaded only when the form is sent (features/contact/api).
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { useToast } from '@/components/ui/toast';
import { enquiryRow, sendEnquiry } from './api';
import { ENQUIRY_KINDS, MIN_FILL_MS, validateEnquiry, type EnquiryErrors, type EnquiryInput, type EnquiryKind } from './validate-enquiry';

const EMPTY = { name: '', email: '', phone: '', company: '', message: '' };
const FIELD_ORDER: (keyof EnquiryInput)[] = ['name', 'email', 'phone', 'company', 'message'];

function sourcePage(): string {
  try {
    const ref = document.referrer ? new URL(document.referrer) : null;
    if (ref && ref.origin === window.location.origin) return ref.pathname;
  } catch {
    /* not a URL: fall through */
  }
  return '/contact';
}

export function EnquiryForm({ initialKind }: { initialKind: EnquiryKind }) {
  const { toast } = useToast();
  // Starts as the prerendered HTML does ('contact'); the kind from the address is applied after hydration, so the
  // select shows it on a direct load as well as after client-side navigation.
  const [kind, setKind] = useState<EnquiryKind>('contact');
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<EnquiryErrors>({});
  const [sending, setSending] = useState(false);
  const shownAt = useRef(0);
  const honeypot = useRef<HTMLInputElement>(null);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => setKind(initialKind), [initialKind]);
  useEffect(() => {
    shownAt.current = Date.now();
  }, []);

  const update = (field: keyof typeof EMPTY) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [field]: e.target.value }));
    if (errors[field]) setErrors((er) => ({ ...er, [field]: undefined }));
  };

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const input: EnquiryInput = { kind, ...values };
    const found = validateEnquiry(input);
    setErrors(found);
    const first = FIELD_ORDER.find((f) => found[f]);
    if (first) {
      formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    if (honeypot.current?.value) {
      // Filled by a bot: acknowledge without storing anything.
      setValues(EMPTY);
      toast({ title: 'Thank you for your enquiry', description: 'We will be in touch within one working day.' });
      return;
    }
    if (Date.now() - shownAt.current < MIN_FILL_MS) {
      toast({ title: 'Please check your details', description: 'That was very quick. Please review the form and send it again.', variant: 'destructive' });
      shownAt.current = Date.now() - MIN_FILL_MS + 1000;
      return;
    }
    setSending(true);
    try {
      await sendEnquiry(enquiryRow(input, sourcePage()));
      setValues(EMPTY);
      toast({ title: 'Thank you for your enquiry', description: 'We will be in touch within one working day.' });
    } catch {
      toast({
        title: 'Your enquiry could not be sent',
        description: 'Please try again later, or e-mail or call us instead.',
        variant: 'destructive',
      });
    } finally {
      setSending(false);
    }
  }

  const describe = (field: keyof EnquiryInput) => (errors[field] ? `${field}-error` : undefined);
  const fieldError = (field: keyof EnquiryInput) =>
    errors[field] ? (
      <p id={`${field}-error`} className="field__error">
        {errors[field]}
      </p>
    ) : null;

  return (
    <form ref={formRef} className="enquiry-form" noValidate onSubmit={onSubmit} aria-describedby="enquiry-required">
      <p id="enquiry-required" className="field__hint">
        Fields marked * are required.
      </p>
      <div className="field">
        <label htmlFor="enquiry-kind">What can we help with?</label>
        <select id="enquiry-kind" name="kind" value={kind} onChange={(e) => setKind(e.target.value as EnquiryKind)}>
          {ENQUIRY_KINDS.map((k) => (
            <option key={k.value} value={k.value}>
              {k.label}
            </option>
          ))}
        </select>
      </div>
      <div className="field-row">
        <div className="field">
          <label htmlFor="enquiry-name">Name *</label>
          <input id="enquiry-name" name="name" autoComplete="name" required value={values.name} onChange={update('name')} aria-invalid={Boolean(errors.name)} aria-describedby={describe('name')} />
          {fieldError('name')}
        </div>
        <div className="field">
          <label htmlFor="enquiry-email">E-mail *</label>
          <input id="enquiry-email" name="email" type="email" autoComplete="email" required value={values.email} onChange={update('email')} aria-invalid={Boolean(errors.email)} aria-describedby={describe('email')} />
          {fieldError('email')}
        </div>
      </div>
      <div className="field-row">
        <div className="field">
          <label htmlFor="enquiry-phone">Phone</label>
          <input id="enquiry-phone" name="phone" type="tel" autoComplete="tel" value={values.phone} onChange={update('phone')} aria-invalid={Boolean(errors.phone)} aria-describedby={describe('phone')} />
          {fieldError('phone')}
        </div>
        <div className="field">
          <label htmlFor="enquiry-company">Company</label>
          <input id="enquiry-company" name="company" autoComplete="organization" value={values.company} onChange={update('company')} aria-invalid={Boolean(errors.company)} aria-describedby={describe('company')} />
          {fieldError('company')}
        </div>
      </div>
      <div className="field">
        <label htmlFor="enquiry-message">Message *</label>
        <textarea id="enquiry-message" name="message" rows={6} required value={values.message} onChange={update('message')} aria-invalid={Boolean(errors.message)} aria-describedby={describe('message')} />
        {fieldError('message')}
      </div>
      <div className="enquiry-form__trap" aria-hidden="true">
        <label htmlFor="enquiry-website">Leave this field empty</label>
        <input id="enquiry-website" ref={honeypot} name="website" type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>
      <p className="field__hint">
        We use these details only to answer your enquiry. See our <Link to="/privacy">privacy notice</Link>.
      </p>
      <Button type="submit" size="lg" disabled={sending}>
        {sending ? 'Sending...' : 'Send Enquiry'}
      </Button>
    </form>
  );
}
