// The public face of the workspace audit log: the one function other features call to record an
// entry, the request origin it records, its routes and the retention step.
export { recordAudit, recordAuditForMember, auditBy, originOf, NO_ORIGIN, pruneAuditEntries, forgetAuditPerson, DELETED_USER_LABEL, type AuditEntryInput, type AuditOrigin, type RequestLike } from './audit';
export { registerAuditRoutes } from './routes';
export type { AuditAction, AuditActor, AuditTarget } from '../../../shared/audit';
