import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
  /** The raw message with quoted-printable soft breaks and escapes undone, good enough to find links in. */
  text: string;
}

const decodeQuotedPrintable = (s: string) =>
  s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** A real SMTP server on loopback that keeps every message it receives. */
export async function startSmtpServer(): Promise<{ url: string; mails: ReceivedMail[]; waitForMail(to: string, timeoutMs?: number): Promise<ReceivedMail>; close(): Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, text: decodeQuotedPrintable(raw) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitForMail(to, timeoutMs = 10_000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const found = mails.find((m) => m.to.includes(to));
        if (found) return found;
        if (Date.now() > end) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
