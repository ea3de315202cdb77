import { describe, expect, it } from 'vitest';
import { auditCsvLine, csvField, csvLine } from '../../../../../server/features/audit/csv';
import type { AuditEntryDto } from '../../../../../shared/audit';

describe('csvField', () => {
  it('leaves plain text alone and writes null as empty', () => {
    expect(csvField('plain text')).toBe('plain text');
    expect(csvField(42)).toBe('42');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
  });

  it('quotes fields with a comma, a quote, CR or LF, doubling the quotes (RFC 4180)', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('one\ntwo')).toBe('"one\ntwo"');
    expect(csvField('one\r\ntwo')).toBe('"one\r\ntwo"');
  });

  it.each(['=1+1', '+1', '-1', '@SUM(A1)', '\tcmd', '\rcmd'])('prefixes %j with an apostrophe so no spreadsheet runs it', (v) => {
    const out = csvField(v);
    expect(out.replace(/^"/, '').startsWith("'")).toBe(true);
    expect(out).toContain(v.slice(1));
  });

  it('prefixes before quoting, so the apostrophe sits inside the quotes', () => {
    expect(csvField('=HYPERLINK("x","y")')).toBe(`"'=HYPERLINK(""x"",""y"")"`);
  });

  it('does not touch a sign inside the text', () => {
    expect(csvField('a-b=c')).toBe('a-b=c');
    expect(csvField('user@example.com')).toBe('user@example.com');
  });
});

describe('csvLine and auditCsvLine', () => {
  it('ends each record with CRLF', () => {
    expect(csvLine(['a', 'b,c', null])).toBe('a,"b,c",\r\n');
  });

  it('writes an entry in the header order, details as JSON', () => {
    const e: AuditEntryDto = {
      id: 1,
      at: '2026-11-26T04:00:00.000Z',
      actor: { kind: 'user', userId: 3, label: 'ann@example.com' },
      action: 'project.renamed',
      target: { type: 'project', id: 'u-1', label: '=evil' },
      ip: '127.0.0.1',
      userAgent: 'Mozilla/5.0 (X11, Linux)',
      details: { from: 'a', to: 'b' },
    };
    expect(auditCsvLine(e)).toBe(`2026-11-26T04:00:00.000Z,ann@example.com,user,project.renamed,Project renamed,project,u-1,'=evil,127.0.0.1,"Mozilla/5.0 (X11, Linux)","{""from"":""a"",""to"":""b""}"\r\n`);
  });
});
