// The account forms' own checks before asking Auth (spec §5): sign-up's required fields and a new password's length.
export const PASSWORD_MIN_LENGTH = 6;

/** What is wrong with a new password (sign-up, reset), or null. */
export function passwordProblem(password: string): string | null {
  return password.length < PASSWORD_MIN_LENGTH ? `Password must be at least ${PASSWORD_MIN_LENGTH} characters.` : null;
}

/** The sign-up form's first problem, in the order the form shows its fields, or null. */
export function signUpProblem(fullName: string, email: string, password: string): string | null {
  if (!fullName.trim() || !email.trim()) return 'Enter your full name and email address.';
  return passwordProblem(password);
}

/** The reset form's first problem (the new password, then its confirmation), or null. */
export function newPasswordProblem(password: string, confirm: string): string | null {
  return passwordProblem(password) ?? (password !== confirm ? 'The two passwords do not match.' : null);
}
