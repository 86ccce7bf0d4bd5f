// Reads the messages the gateway wrote to its mail folder (GATEWAY_MAIL_DIR): newest for an address, its verify link
// and its code.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export function messagesTo(dir, address) {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .filter((m) => m.includes(`To: ${address}\r\n`));
}

export async function waitForMail(dir, address, count = 1) {
  for (let i = 0; i < 100; i++) {
    const list = messagesTo(dir, address);
    if (list.length >= count) return list[count - 1];
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no mail #${count} to ${address}`);
}

export function linkOf(message) {
  const link = message.split(/\s+/).find((w) => w.includes('/auth/v1/verify?'));
  if (!link) throw new Error(`no link in ${message}`);
  return new URL(link);
}

export function codeOf(message) {
  return message.split(/\s+/).find((w) => /^\d{6}$/.test(w));
}
