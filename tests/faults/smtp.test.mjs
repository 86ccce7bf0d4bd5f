// SMTP down for a while (issue 14, case 4): queued mail stays in the outbox with back-off while nothing listens,
// and is delivered once an SMTP server is back — each message accepted exactly once although two gateways share
// the outbox, and every attempt at a row carries the same Message-ID (the server refuses each first attempt
// after its data with a 451, as a greylisting relay does).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { SMTPServer } from 'smtp-server';
import { openStack, sleep, waitFor } from './lib/faults.mjs';
import { freePort } from './lib/smtp-sink.mjs';

let stack;
before(() => (stack = openStack('smtp')));
after(() => stack?.close());

/** An SMTP server on `port` that refuses the first DATA of each Message-ID with 451 and keeps what it accepts. */
function greylistingSink(port) {
  const attempts = [];
  const accepted = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, done) {
      let raw = '';
      stream.on('data', (d) => (raw += d));
      stream.on('end', () => {
        const id = raw.match(/^Message-ID:\s*(<[^>]+>)/im)?.[1] ?? 'none';
        const first = !attempts.includes(id);
        attempts.push(id);
        if (first) return done(Object.assign(new Error('greylisted, try again later'), { responseCode: 451 }));
        accepted.push(id);
        done();
      });
    },
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve({ server, attempts, accepted })));
}

test('SMTP down: mail waits with back-off, then is delivered once each with a stable Message-ID', async () => {
  const port = await freePort();
  const env = {
    GOTRUE_SMTP_HOST: '127.0.0.1',
    GOTRUE_SMTP_PORT: String(port),
    GOTRUE_SMTP_ADMIN_EMAIL: 'noreply@faults.test',
    GATEWAY_OUTBOX_RETRY_BASE_SECS: '0.25',
    GATEWAY_OUTBOX_RETRY_MAX_SECS: '1',
    GATEWAY_OUTBOX_POLL_SECS: '0.5',
  };
  await stack.gateway(env);
  await stack.gateway(env);
  const sql = stack.cluster.sql;
  const ids = sql("select gateway.enqueue_mail('person' || g || '@example.com', 'Fault ' || g, 'body ' || g) from generate_series(1, 6) g")
    .split('\n').map(Number);
  assert.equal(ids.length, 6);

  await sleep(2500);
  const down = sql("select status, attempts, last_error is not null from gateway.outbox order by id").split('\n').map((l) => l.split('|'));
  console.log(`smtp down 2.5 s: ${down.map(([s, a]) => `${s}/${a}`).join(' ')}`);
  for (const [status, attempts, hasError] of down) {
    assert.equal(status, 'queued', 'kept in the outbox while SMTP is down');
    assert.equal(hasError, 't', 'the failure is recorded');
    // back-off 0.25, 0.5, 1, 1 s: about 4 attempts in 2.5 s (a tight loop would make dozens)
    assert.ok(Number(attempts) >= 2 && Number(attempts) <= 6, `retried with back-off (${attempts} attempts)`);
  }

  const sink = await greylistingSink(port);
  try {
    const started = performance.now();
    await waitFor('every message to be sent', () => sql("select count(*) from gateway.outbox where status = 'sent'") === '6', 20000);
    console.log(`smtp back: all 6 sent ${Math.round(performance.now() - started)} ms after the server came back;` +
      ` ${sink.attempts.length} DATA attempts, ${sink.accepted.length} accepted`);
    await sleep(1500); // anything sent twice would arrive now
    assert.equal(sink.accepted.length, 6, `each message accepted once: ${sink.accepted.join(' ')}`);
    assert.equal(new Set(sink.accepted).size, 6, 'no message accepted twice');
    const expected = ids.map((id) => new RegExp(`^<outbox\\.${id}\\.\\d+@faults\\.test>$`));
    for (const re of expected) assert.equal(sink.accepted.filter((m) => re.test(m)).length, 1, `one message for ${re}`);
    assert.deepEqual(new Set(sink.attempts), new Set(sink.accepted), 'every retry of a row carried the same Message-ID');
  } finally {
    sink.server.close();
  }
});
