// The account forms' checks before Auth is asked: what a candidate is told, and that a good form passes.
import { describe, expect, it } from 'vitest';
import { newPasswordProblem, passwordProblem, PASSWORD_MIN_LENGTH, signUpProblem } from './account-checks';

describe('passwordProblem', () => {
  it('wants at least six characters (spec §5)', () => {
    expect(PASSWORD_MIN_LENGTH).toBe(6);
    expect(passwordProblem('')).toBe('Password must be at least 6 characters.');
    expect(passwordProblem('12345')).toBe('Password must be at least 6 characters.');
    expect(passwordProblem('123456')).toBeNull();
  });

  it('counts spaces as characters (a password is never trimmed)', () => {
    expect(passwordProblem('      ')).toBeNull();
  });
});

describe('signUpProblem', () => {
  it('passes a complete form', () => {
    expect(signUpProblem('Sam Patel', 'sam@example.com', 'secret1')).toBeNull();
  });

  it('asks for the name and e-mail first, blank or spaces alike', () => {
    expect(signUpProblem('', 'sam@example.com', 'secret1')).toBe('Enter your full name and email address.');
    expect(signUpProblem('Sam', '   ', 'x')).toBe('Enter your full name and email address.');
  });

  it('then the password length', () => {
    expect(signUpProblem('Sam', 'sam@example.com', 'short')).toBe('Password must be at least 6 characters.');
  });
});

describe('newPasswordProblem', () => {
  it('checks the length before the confirmation', () => {
    expect(newPasswordProblem('abc', 'xyz')).toBe('Password must be at least 6 characters.');
  });

  it('wants the two entries to match exactly', () => {
    expect(newPasswordProblem('secret12', 'secret13')).toBe('The two passwords do not match.');
    expect(newPasswordProblem('secret12', 'secret12 ')).toBe('The two passwords do not match.');
    expect(newPasswordProblem('secret12', 'secret12')).toBeNull();
  });
});
