// The enquiry form's validation: the message each field shows, and the enquiry kinds an address may ask for.
import { describe, expect, it } from 'vitest';
import { parseKind, validateEnquiry, type EnquiryInput } from './validate-enquiry';

const valid: EnquiryInput = {
  kind: 'contact',
  name: 'Priya Shah',
  email: 'priya@example.co.uk',
  phone: '',
  company: '',
  message: 'I would like to discuss a senior hire.',
};

describe('validateEnquiry', () => {
  it('accepts a complete enquiry', () => {
    expect(validateEnquiry(valid)).toEqual({});
  });

  it('names every missing required field at once', () => {
    expect(validateEnquiry({ ...valid, name: '  ', email: '', message: '' })).toEqual({
      name: 'Please enter your name.',
      email: 'Please enter your e-mail address.',
      message: 'Please tell us a little about your enquiry (at least 10 characters).',
    });
  });

  it.each(['name', 'name@', '@example.com', 'name@example', 'two words@example.com', 'a@b@c.com'])('refuses the e-mail %s', (email) => {
    expect(validateEnquiry({ ...valid, email }).email).toBe('Please enter a valid e-mail address, like name@example.com.');
  });

  it('trims the e-mail before checking it', () => {
    expect(validateEnquiry({ ...valid, email: '  priya@example.co.uk  ' })).toEqual({});
  });

  it('accepts UK phone numbers and a blank phone, refuses letters and short numbers', () => {
    for (const phone of ['', '020 7946 0958', '+44 (0)20 7946 0958', '07700-900123']) expect(validateEnquiry({ ...valid, phone }).phone).toBeUndefined();
    for (const phone of ['call me', '12345', '+44 20 7946 0958 ext 12'])
      expect(validateEnquiry({ ...valid, phone }).phone).toBe('Please enter a valid phone number, or leave it blank.');
  });

  it('holds the name and company to 200 characters', () => {
    expect(validateEnquiry({ ...valid, name: 'a'.repeat(200), company: 'b'.repeat(200) })).toEqual({});
    expect(validateEnquiry({ ...valid, name: 'a'.repeat(201) }).name).toBe('Please keep your name under 200 characters.');
    expect(validateEnquiry({ ...valid, company: 'b'.repeat(201) }).company).toBe('Please keep the company name under 200 characters.');
  });

  it('wants a message of 10 to 5,000 characters, not counting the spaces around it', () => {
    expect(validateEnquiry({ ...valid, message: '   123456789   ' }).message).toMatch(/at least 10 characters/);
    expect(validateEnquiry({ ...valid, message: '1234567890' }).message).toBeUndefined();
    expect(validateEnquiry({ ...valid, message: 'x'.repeat(5000) }).message).toBeUndefined();
    expect(validateEnquiry({ ...valid, message: 'x'.repeat(5001) }).message).toBe('Please keep your message under 5,000 characters.');
  });
});

describe('parseKind', () => {
  it('reads a known kind from the address', () => {
    expect(parseKind('hiring-audit')).toBe('hiring-audit');
    expect(parseKind('candidate')).toBe('candidate');
  });

  it('falls back to a general enquiry for anything else', () => {
    for (const value of [null, '', 'HIRING-AUDIT', 'admin', 'client ']) expect(parseKind(value)).toBe('contact');
  });
});
