import express, { type Router } from 'express';
import type { Mail, Mailer } from '../mail/mailer';
import { APP_ICON_LINK } from '../../shared/site';

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const LINK = /(https?:\/\/[^\s<]+)/g;

const linkify = (s: string) => escape(s).replace(LINK, '<a href="$1">$1</a>');

/** What a mail's HTML part calls a link ('Sign in to Cairn'); a mail without one gets 'Open the link'. */
function linkLabel(mail: Mail, url: string): string {
  const named = mail.html && new RegExp(`<a href="${url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}">([^<]+)</a>`).exec(mail.html);
  return named ? named[1]! : 'Open the link';
}

/** Each link of the mail as a button to press, before the text that has it written out. */
const linkButtons = (mail: Mail) =>
  [...new Set(mail.text.match(LINK) ?? [])].map((url) => `<p><a class="button" href="${escape(url)}">${escape(linkLabel(mail, url))}</a></p>`).join('');

/** Development mailbox: the mails embedded mode captured instead of sending. Never mounted in production. */
export function devMailboxRouter(mailer: Mailer): Router {
  const router = express.Router();
  router.get('/mailbox.json', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ data: mailer.captured() });
  });
  router.get('/mailbox', (_req, res) => {
    const mails = mailer.captured();
    const items = mails
      .map(
        (m) => `<article><h2>${escape(m.subject)}</h2><p class="meta">To ${escape(m.to)} · ${new Date(m.sentAt).toISOString()}</p>${linkButtons(m)}<pre>${linkify(m.text)}</pre></article>`,
      )
      .join('\n');
    res.set('Cache-Control', 'no-store').type('html').send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Development mailbox · Cairn</title>${APP_ICON_LINK}
<style>body{font-family:system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1a1b1e}
article{border:1px solid #dee2e6;border-radius:8px;padding:1rem;margin:1rem 0}h2{margin:0 0 .25rem;font-size:1.1rem}
.meta{color:#555;margin:0 0 .5rem}pre{white-space:pre-wrap;margin:0;font:inherit}pre a{overflow-wrap:anywhere}
.button{display:inline-block;background:#4263eb;color:#fff;padding:.5rem 1rem;border-radius:6px;text-decoration:none;font-weight:600}.note{background:#fff3bf;padding:.75rem;border-radius:6px}</style>
</head><body><h1>Development mailbox</h1>
<p class="note">Embedded mode: no SMTP server is configured (SMTP_URL), so mails are kept here and written to the log instead of being sent. This page does not exist in production.</p>
${items || '<p>No mail yet. Ask for a sign-in link and it shows up here.</p>'}
</body></html>`);
  });
  return router;
}
