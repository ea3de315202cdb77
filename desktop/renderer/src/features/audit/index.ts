/** Its pages, each loaded when its route is visited. */
export const auditPages = {
  AuditPage: () => import('./audit-page').then((m) => m.AuditPage),
};
