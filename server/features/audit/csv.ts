import { auditActionLabels, type AuditEntryDto } from '../../../shared/audit';

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote, CR or LF, quotes doubled. A field
 * a spreadsheet would read as a formula (starting with = + - @, or a tab or CR that some read past)
 * gets a leading apostrophe, so opening the export never runs what someone typed into a name.
 */
export function csvField(value: string | number | null | undefined): string {
  let s = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const csvLine = (fields: ReadonlyArray<string | number | null | undefined>): string => `${fields.map(csvField).join(',')}\r\n`;

export const AUDIT_CSV_HEADER = ['time', 'actor', 'actor_type', 'action', 'action_label', 'target_type', 'target_id', 'target', 'ip', 'user_agent', 'details'] as const;

export const auditCsvLine = (e: AuditEntryDto): string =>
  csvLine([e.at, e.actor.label, e.actor.kind, e.action, auditActionLabels[e.action] ?? e.action, e.target.type, e.target.id, e.target.label, e.ip, e.userAgent, e.details ? JSON.stringify(e.details) : null]);
