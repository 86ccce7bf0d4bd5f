// Helpers for the storage suites: a real SMTP server (smtp-server), minted user tokens, the site fixture that
// stands in for the site schema when it is not there, and bounded waiting.
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

/**
 * The parts of the site schema the applications SQL is written against (data contract names), created only
 * when the site schema is absent, plus an admin check for the test's admin e-mail.
 */
export const SITE_FIXTURE = `
do $$
begin
  if to_regclass('public.jobs') is null then
    create table public.jobs (id uuid primary key default gen_random_uuid(), job_id text unique, title text,
      status text default 'active');
  end if;
  if to_regclass('public.applications') is null then
    create table public.applications (id uuid primary key default gen_random_uuid(), job_id uuid references public.jobs (id),
      first_name text not null, last_name text not null, email text not null, phone text, cover_letter text,
      cv_object text, privacy_consent boolean not null check (privacy_consent), created_at timestamptz not null default now());
    alter table public.applications enable row level security;
    create policy "Anyone can apply" on public.applications for insert to anon, authenticated with check (true);
    grant insert on public.applications to anon, authenticated;
  end if;
end
$$;
create or replace function public.is_admin() returns boolean language sql stable set search_path = ''
  as $f$ select coalesce(auth.jwt() ->> 'email' = 'admin@firm.example', false) $f$;
select app_private.install_application_triggers();
update app_private.settings set value = 'inbox@firm.example' where key = 'firm_inbox';
update app_private.settings set value = 'https://firm.example' where key = 'site_url';
insert into public.jobs (job_id, title) values ('PPR-1042', 'Senior Development Manager');
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
