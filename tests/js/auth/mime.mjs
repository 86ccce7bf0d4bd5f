// Reads a message as an SMTP server received it (RFC 5322 + MIME): unfolded headers, RFC 2047 encoded words,
// multipart bodies, and quoted-printable / base64 parts, so a test sees the text a mail client would show.

/** Splits a header block from its body and unfolds the headers into a Map of lower-case name → list of values. */
function splitHeaders(raw) {
  const at = raw.search(/\r?\n\r?\n/);
  const head = at < 0 ? raw : raw.slice(0, at);
  const body = at < 0 ? '' : raw.slice(at).replace(/^\r?\n\r?\n/, '');
  const headers = new Map();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon < 1) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()]);
  }
  return { headers, body };
}

/** Decodes RFC 2047 encoded words (`=?utf-8?B?…?=` / `=?utf-8?Q?…?=`) in a header value. */
export function decodeWords(value) {
  return value
    .replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?)/g, '$1')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_, charset, enc, text) => {
      const bytes =
        enc.toUpperCase() === 'B'
          ? Buffer.from(text, 'base64')
          : Buffer.from(
              text.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_m, h) => String.fromCharCode(parseInt(h, 16))),
              'latin1',
            );
      return new TextDecoder(charset.toLowerCase()).decode(bytes);
    });
}

function decodeBody(body, encoding, charset) {
  const enc = (encoding ?? '7bit').toLowerCase();
  let bytes;
  if (enc === 'base64') bytes = Buffer.from(body.replace(/\s+/g, ''), 'base64');
  else if (enc === 'quoted-printable') {
    const soft = body.replace(/=\r?\n/g, '');
    bytes = Buffer.from(soft.replace(/=([0-9A-Fa-f]{2})/g, (_m, h) => String.fromCharCode(parseInt(h, 16))), 'latin1');
  } else bytes = Buffer.from(body, 'latin1');
  return new TextDecoder(charset ?? 'utf-8').decode(bytes);
}

function param(value, name) {
  const m = value?.match(new RegExp(`;\\s*${name}="?([^";]+)"?`, 'i'));
  return m?.[1];
}

/** Leaf parts of a MIME entity: [{ type, text }]. */
function leaves(raw) {
  const { headers, body } = splitHeaders(raw);
  const contentType = headers.get('content-type')?.[0] ?? 'text/plain';
  const type = contentType.split(';')[0].trim().toLowerCase();
  if (type.startsWith('multipart/')) {
    const delimiter = `--${param(contentType, 'boundary')}`;
    const parts = [];
    let current = null;
    for (const line of body.split(/\r?\n/)) {
      if (line.trimEnd() === delimiter) parts.push((current = []));
      else if (line.trimEnd() === `${delimiter}--`) current = null;
      else current?.push(line);
    }
    return parts.map((lines) => lines.join('\r\n')).flatMap(leaves);
  }
  const encoding = headers.get('content-transfer-encoding')?.[0];
  return [{ type, text: decodeBody(body, encoding, param(contentType, 'charset')) }];
}

/**
 * Parses one received message: `{ from, to, subject, text, html }` (header values decoded; `text` / `html` the
 * decoded bodies of the text/plain and text/html parts, or undefined).
 */
export function parseMessage(raw) {
  const { headers } = splitHeaders(raw);
  const header = (name) => (headers.has(name) ? decodeWords(headers.get(name).join(', ')) : undefined);
  const parts = leaves(raw);
  return {
    from: header('from'),
    to: header('to'),
    subject: header('subject'),
    text: parts.find((p) => p.type === 'text/plain')?.text,
    html: parts.find((p) => p.type === 'text/html')?.text,
  };
}
