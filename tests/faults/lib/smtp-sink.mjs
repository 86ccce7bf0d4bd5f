// A loopback SMTP relay for the fault suite that can be slow on purpose: it can hold its answer to RCPT TO (the
// client is mid-transaction, nothing is accepted yet) or to the end of DATA (the whole message is in, the 250 is
// pending). It keeps the Message-ID of every message whose data arrived (`received`) and of every message it
// accepted (`accepted`; once its data is in, a relay keeps the message even if the client has gone meanwhile).
import { createServer } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A free loopback port (a server on it is "down" until something listens). */
export const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/** A relay on `port`; `delays.rcptMs` / `delays.dataMs` (changeable later) hold those answers. */
export function slowSink(port, delays = {}) {
  const sink = { delays: { rcptMs: 0, dataMs: 0, ...delays }, rcpts: 0, received: [], accepted: [] };
  // a held answer does not keep the test process alive once everything else is done
  const later = (ms, fn) => (ms > 0 ? setTimeout(fn, ms).unref() : fn());
  sink.server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, done) {
      sink.rcpts++;
      later(sink.delays.rcptMs, () => done());
    },
    onData(stream, _session, done) {
      let raw = '';
      stream.on('data', (d) => (raw += d));
      stream.on('end', () => {
        const id = raw.match(/^Message-ID:\s*(<[^>]+>)/im)?.[1] ?? 'none';
        sink.received.push(id);
        later(sink.delays.dataMs, () => {
          sink.accepted.push(id);
          done();
        });
      });
    },
  });
  // a client that leaves while an answer is held makes the late answer fail to write: not an error here
  sink.server.on('error', () => {});
  return new Promise((resolve) => sink.server.listen(port, '127.0.0.1', () => resolve(sink)));
}
