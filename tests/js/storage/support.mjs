// Helpers for the storage suites: a real SMTP server (smtp-server), minted user tokens, the rows the applications
// suite adds to the real site schema, and bounded waiting.
import { SMTPServer } from 'smtp-server';
import { SignJWT } from 'jose';
import { randomUUID } from 'node:crypto';

export const JWT_SECRET = 'test-legacy-secret-with-at-least-32-characters!';

/** A user token (HS256 with the legacy secret the gateway is started with). */
export async function userToken({ sub = randomUUID(), email, role = 'authenticated' } = {}) {
  return new SignJWT({ sub, email, role, aud: 'authenticated' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(JWT_SECRET));
}

/** Starts an SMTP server on 127.0.0.1 (`port` 0: any free port) that keeps every message. */
export async function startSmtp(port = 0, messages = []) {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (d) => (raw += d));
      stream.on('end', () => {
        messages.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return { server, port: server.server.address().port, messages, close: () => new Promise((r) => server.close(r)) };
}

/** Polls `check` until it returns a truthy value (bounded: about 15 s). */
export async function eventually(check, what = 'condition') {
  for (let i = 0; i < 300; i++) {
    const v = await check();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The admin of the applications suite: a real auth user with the site's admin role (public.user_roles). */
export const ADMIN = { id: '6f1c2a4e-0b7d-4c1e-9a51-2f3d4e5a6b7c', email: 'admin@firm.example' };

/**
 * The rows the applications suite needs in the real site schema (sql/migrations): an active job that satisfies the
 * jobs constraints, an admin through user_roles (public.is_admin() reads it), and the firm's settings for mail.
 */
export const SITE_FIXTURE = `
insert into auth.users (id, aud, role, email, email_confirmed_at, created_at, updated_at)
values ('${ADMIN.id}', 'authenticated', 'authenticated', '${ADMIN.email}', now(), now(), now());
insert into public.user_roles (user_id, role) values ('${ADMIN.id}', 'admin');
insert into public.jobs (job_id, status, title, company, location, salary, type)
values ('PPR-1042', 'active', 'Senior Development Manager', 'Northbank Estates', 'London', '£85,000 - £95,000', 'Permanent');
update private.settings set value = 'inbox@firm.example' where key = 'firm_inbox';
update private.settings set value = 'https://firm.example' where key = 'site_url';
`;

/** A small real PDF. */
export function pdfBytes() {
  const body =
    '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n' +
    'trailer\n<< /Root 1 0 R >>\n%%EOF\n';
  return Buffer.from(body, 'latin1');
}

/** The start of an x86-64 ELF executable. */
export function elfBytes() {
  const b = Buffer.alloc(4096);
  Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]).copy(b);
  b[16] = 2;
  b[18] = 0x3e;
  return b;
}
