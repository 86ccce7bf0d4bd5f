// Applications with a CV, as the site makes them with supabase-js: anonymous upload into the private `cvs`
// bucket, the application row, and the two notification e-mails delivered to a real SMTP server; what anon may
// not do with a CV; what an admin may; and delivery after an SMTP outage.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGateway } from '../lib/gateway.mjs';
import { ADMIN, JWT_SECRET, SITE_FIXTURE, elfBytes, eventually, pdfBytes, startSmtp, userToken } from './support.mjs';

let gw;
let smtp;
let anon;
let admin;
const messages = [];
const storageDir = mkdtempSync(join(tmpdir(), 'gw-storage-'));

before(async () => {
  smtp = await startSmtp(0, messages);
  gw = await startGateway({
    sql: SITE_FIXTURE,
    env: {
      PGRST_JWT_SECRET: JWT_SECRET,
      FILE_STORAGE_BACKEND_PATH: storageDir,
      GATEWAY_MAIL_DIR: join(storageDir, 'mail'),
      GOTRUE_SMTP_HOST: '127.0.0.1',
      GOTRUE_SMTP_PORT: String(smtp.port),
      GOTRUE_SMTP_ADMIN_EMAIL: 'noreply@firm.example',
      GOTRUE_SMTP_SENDER_NAME: 'Firm Recruitment',
      GATEWAY_OUTBOX_RETRY_BASE_SECS: '0.2',
      GATEWAY_OUTBOX_RETRY_MAX_SECS: '0.5',
    },
  });
  anon = gw.client();
  const adminToken = await userToken({ sub: ADMIN.id, email: ADMIN.email });
  admin = gw.client(gw.anonKey, { accessToken: async () => adminToken });
});

after(async () => {
  await gw?.stop();
  await smtp?.close();
  rmSync(storageDir, { recursive: true, force: true });
});

/**
 * Inserts an application as the site does: supabase-js as anon through the data API, without reading it back.
 * Whatever X-Forwarded-For the browser sends, the gateway keys limits on the real client (here: this process).
 */
async function apply(row, headers = {}) {
  const client = gw.client(gw.anonKey, { global: { headers } });
  const { error, status } = await client.from('applications').insert(row);
  if (!error) assert.equal(status, 201);
  return error;
}

/** Uploads a fresh CV as anon and returns its object name. */
async function uploadCv() {
  const path = `${randomUUID()}/cv.pdf`;
  const { error } = await anon.storage.from('cvs').upload(path, pdfBytes(), { contentType: 'application/pdf' });
  assert.equal(error, null);
  return path;
}

function application(email, cvObject) {
  const jobId = gw.sql("select id from public.jobs where job_id = 'PPR-1042'");
  return {
    job_id: jobId,
    first_name: 'Ada',
    last_name: 'Lovelace',
    email,
    phone: '+44 20 7946 0000',
    cover_letter: 'I build things.',
    cv_object: cvObject,
    privacy_consent: true,
  };
}

test('an application with a real PDF ends with the row, the object and two delivered e-mails', async () => {
  const path = `${randomUUID()}/cv.pdf`;
  const { data, error } = await anon.storage.from('cvs').upload(path, pdfBytes(), { contentType: 'application/pdf' });
  assert.equal(error, null);
  assert.equal(data.path, path);
  const before = messages.length;
  assert.equal(await apply(application('ada@example.com', path)), null);

  assert.equal(gw.sql(`select count(*) from public.applications where cv_object = '${path}'`), '1');
  assert.equal(gw.sql(`select count(*) from storage.objects where bucket_id = 'cvs' and name = '${path}'`), '1');
  await eventually(() => messages.length >= before + 2, 'two e-mails');
  const inbox = messages.find((m) => m.to.includes('inbox@firm.example'));
  const ack = messages.find((m) => m.to.includes('ada@example.com'));
  assert.match(inbox.raw, /Subject: New application: Ada Lovelace for Senior Development Manager/);
  assert.match(inbox.raw, /https:\/\/firm\.example\/admin/);
  assert.match(inbox.raw, new RegExp(path));
  assert.match(ack.raw, /within 2 weeks/);
  assert.match(ack.raw, /From: "Firm Recruitment" <noreply@firm\.example>/);
  assert.equal(gw.sql("select count(*) from gateway.outbox where status = 'sent'"), '2');
});

test('anon cannot read, list, overwrite or sign a CV; an admin reads it through a short-lived signed URL', async () => {
  const path = `${randomUUID()}/cv.pdf`;
  assert.equal((await anon.storage.from('cvs').upload(path, pdfBytes(), { contentType: 'application/pdf' })).error, null);

  const download = await anon.storage.from('cvs').download(path);
  assert.ok(download.error, 'anon download must fail');
  const list = await anon.storage.from('cvs').list(path.split('/')[0]);
  assert.deepEqual(list.data, []);
  const overwrite = await anon.storage.from('cvs').upload(path, pdfBytes(), { contentType: 'application/pdf', upsert: true });
  assert.ok(overwrite.error, 'anon overwrite must fail');
  const again = await anon.storage.from('cvs').upload(path, pdfBytes(), { contentType: 'application/pdf' });
  assert.ok(again.error, 'a second upload to the same name must fail');
  const second = await anon.storage.from('cvs').upload(`${path.split('/')[0]}/other.pdf`, pdfBytes(), { contentType: 'application/pdf' });
  assert.ok(second.error, 'a used folder is not fresh');
  const sign = await anon.storage.from('cvs').createSignedUrl(path, 60);
  assert.ok(sign.error, 'anon signing must fail');
  assert.equal(sign.error.statusCode, '404');
  const notUuid = await anon.storage.from('cvs').upload('mine/cv.pdf', pdfBytes(), { contentType: 'application/pdf' });
  assert.equal(notUuid.error?.statusCode, '403');

  const candidateToken = await userToken({ email: 'candidate@example.com' });
  const candidate = gw.client(gw.anonKey, { accessToken: async () => candidateToken });
  const refused = await candidate.storage.from('cvs').createSignedUrl(path, 60);
  assert.ok(refused.error, 'a signed-in user without the admin role cannot sign a CV');

  const signed = await admin.storage.from('cvs').createSignedUrl(path, 60);
  assert.equal(signed.error, null);
  const res = await fetch(signed.data.signedUrl);
  assert.equal(res.status, 200);
  assert.deepEqual(Buffer.from(await res.arrayBuffer()), pdfBytes());
  const listed = await admin.storage.from('cvs').list(path.split('/')[0]);
  assert.deepEqual(listed.data.map((o) => o.name), ['cv.pdf']);
});

test('a cv.pdf that is really an executable is rejected', async () => {
  const { error } = await anon.storage.from('cvs').upload(`${randomUUID()}/cv.pdf`, elfBytes(), { contentType: 'application/pdf' });
  assert.equal(error.statusCode, '415');
  assert.equal(error.message, 'mime type application/x-executable is not supported');
});

test('a 10.5 MB CV is refused with 413', async () => {
  const big = Buffer.alloc(10.5 * 1024 * 1024, 0x20);
  pdfBytes().copy(big);
  const { error } = await anon.storage.from('cvs').upload(`${randomUUID()}/cv.pdf`, big, { contentType: 'application/pdf' });
  assert.equal(error.statusCode, '413');
  assert.equal(error.message, 'The object exceeded the maximum allowed size');
});

test('a ../ path is rejected and nothing is stored outside the folder', async () => {
  const count = () => gw.sql('select count(*) from storage.objects');
  const n = count();
  const viaClient = await anon.storage.from('cvs').upload(`${randomUUID()}/../cv.pdf`, pdfBytes(), { contentType: 'application/pdf' });
  assert.ok(viaClient.error);
  const res = await fetch(`${gw.url}/storage/v1/object/cvs/${randomUUID()}%2F..%2F..%2Fcv.pdf`, {
    method: 'POST',
    headers: { apikey: gw.anonKey, authorization: `Bearer ${gw.anonKey}`, 'content-type': 'application/pdf' },
    body: pdfBytes(),
  });
  const body = await res.json();
  assert.equal(body.statusCode, '400');
  assert.equal(body.code, 'InvalidKey');
  assert.equal(count(), n);
});

test('an application must point at an uploaded CV', async () => {
  const error = await apply(application('nocv@example.com', `${randomUUID()}/cv.pdf`));
  assert.equal(error?.code, '23503', JSON.stringify(error));
  assert.equal(error.message, 'The CV was not found; upload it first');
  assert.equal(gw.sql("select count(*) from public.applications where email = 'nocv@example.com'"), '0');
  assert.equal(gw.sql("select count(*) from gateway.outbox where to_address = 'nocv@example.com'"), '0');
});

test('anon cannot read its application back', async () => {
  const { data, error } = await anon.from('applications').select('id');
  assert.equal(error?.code, '42501', JSON.stringify(error));
  assert.equal(data, null);
});

test('an address is never locked out, but one client is limited per hour with 429 and Retry-After', async () => {
  for (let i = 0; i < 6; i++) {
    assert.equal(await apply(application('flood@example.com', await uploadCv()), { 'x-forwarded-for': `203.0.113.${i}` }), null);
  }
  let refused = null;
  for (let i = 0; i < 10 && !refused; i++) {
    refused = await apply(application(`other${i}@example.com`, await uploadCv()), { 'x-forwarded-for': `198.51.100.${i}` });
  }
  assert.ok(refused, 'a new X-Forwarded-For does not make a new client');
  assert.equal(refused.code, 'PT429', JSON.stringify(refused));
  assert.match(refused.message, /Too many submissions/);
  const res = await fetch(`${gw.url}/rest/v1/applications`, {
    method: 'POST',
    headers: { apikey: gw.anonKey, authorization: `Bearer ${gw.anonKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(application('refused@example.com', await uploadCv())),
  });
  assert.equal(res.status, 429);
  assert.ok(Number(res.headers.get('retry-after')) >= 1, 'Retry-After in seconds');
  assert.equal(gw.sql("select count(*) from public.applications where email = 'flood@example.com'"), '6');
});

test('a message queued while SMTP is down is delivered once it is back', async () => {
  await eventually(() => gw.sql("select count(*) from gateway.outbox where status = 'queued'") === '0', 'an idle outbox');
  await smtp.close();
  gw.sql("select gateway.enqueue_mail('late@example.com', 'Queued during an outage', 'Hello')");
  await eventually(
    () => gw.sql("select attempts >= 1 and status = 'queued' from gateway.outbox where to_address = 'late@example.com'") === 't',
    'a failed attempt',
  );
  smtp = await startSmtp(smtp.port, messages);
  const late = await eventually(() => messages.find((m) => m.to.includes('late@example.com')), 'delivery after the outage');
  assert.match(late.raw, /Subject: Queued during an outage/);
  assert.equal(gw.sql("select status from gateway.outbox where to_address = 'late@example.com'"), 'sent');
});
