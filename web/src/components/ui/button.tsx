// Buttons and button-styled links: one look for <button>, internal <Link> and external <a>.
import type { AnchorHTMLAttributes, ButtonHTMLAttributes, ReactNode } from 'react';
import { Link } from 'react-router';

export type ButtonVariant = 'primary' | 'accent' | 'outline' | 'outline-light' | 'ghost';
export type ButtonSize = 'sm' | 'md' | 'lg';

export function buttonClass(variant: ButtonVariant = 'primary', size: ButtonSize = 'md', block = false, extra = ''): string {
  return ['btn', `btn--${variant}`, size !== 'md' && `btn--${size}`, block && 'btn--block', extra].filter(Boolean).join(' ');
}

type Common = { variant?: ButtonVariant; size?: ButtonSize; block?: boolean; className?: string; children: ReactNode };

export function Button({ variant, size, block, className, type = 'button', ...rest }: Common & ButtonHTMLAttributes<HTMLButtonElement>) {
  return <button type={type} className={buttonClass(variant, size, block, className)} {...rest} />;
}

/** Internal navigation styled as a button. */
export function ButtonLink({ to, variant, size, block, className, ...rest }: Common & { to: string } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'>) {
  return <Link to={to} className={buttonClass(variant, size, block, className)} {...rest} />;
}

/** External link (or mailto:/tel:) styled as a button; `newTab` opens it in a new tab safely. */
export function ButtonAnchor({ href, newTab, variant, size, block, className, ...rest }: Common & { href: string; newTab?: boolean } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  return (
    <a
      href={href}
      className={buttonClass(variant, size, block, className)}
      {...(newTab ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
      {...rest}
    />
  );
}
