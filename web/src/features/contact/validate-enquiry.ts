// Validation of the enquiry form (pure: unit-testable, no DOM).
export type EnquiryKind = 'contact' | 'client' | 'hiring-audit' | 'candidate' | 'other';

export const ENQUIRY_KINDS: { value: EnquiryKind; label: string }[] = [
  { value: 'contact', label: 'General enquiry' },
  { value: 'client', label: 'I am hiring' },
  { value: 'hiring-audit', label: 'Book a Free Hiring Audit' },
  { value: 'candidate', label: 'I am looking for a role' },
  { value: 'other', label: 'Data protection request or complaint' },
];

export type EnquiryInput = { kind: EnquiryKind; name: string; email: string; phone: string; company: string; message: string };
export type EnquiryErrors = Partial<Record<keyof EnquiryInput, string>>;

export function parseKind(value: string | null): EnquiryKind {
  return ENQUIRY_KINDS.some((k) => k.value === value) ? (value as EnquiryKind) : 'contact';
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9 ()-]{7,20}$/;

export function validateEnquiry(v: EnquiryInput): EnquiryErrors {
  const errors: EnquiryErrors = {};
  if (!v.name.trim()) errors.name = 'Please enter your name.';
  else if (v.name.trim().length > 200) errors.name = 'Please keep your name under 200 characters.';
  if (!v.email.trim()) errors.email = 'Please enter your e-mail address.';
  else if (!EMAIL.test(v.email.trim())) errors.email = 'Please enter a valid e-mail address, like name@example.com.';
  if (v.phone.trim() && !PHONE.test(v.phone.trim())) errors.phone = 'Please enter a valid phone number, or leave it blank.';
  if (v.company.trim().length > 200) errors.company = 'Please keep the company name under 200 characters.';
  if (v.message.trim().length < 10) errors.message = 'Please tell us a little about your enquiry (at least 10 characters).';
  else if (v.message.length > 5000) errors.message = 'Please keep your message under 5,000 characters.';
  return errors;
}

/** Forms sent faster than this after they appeared are treated as automated (a human needs longer to fill one in). */
export const MIN_FILL_MS = 3000;
