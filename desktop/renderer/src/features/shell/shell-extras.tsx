import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { MarketingConsentModal } from './consent-modal';
import { DeployChecker } from './deploy-checker';
import { MaintenanceGate } from './maintenance-page';
import { siteQueries } from '../site/index';

/**
 * The dashboard shell's extras around the page content: the maintenance page instead of the content while
 * maintenance mode is on, the marketing consent modal while consent is unset, and the deploy checker.
 * Mounted once by the signed-in layout: `<ShellExtras><Outlet /></ShellExtras>`.
 */
export function ShellExtras({ children }: { children: ReactNode }) {
  const maintenance = useQuery(siteQueries.site()).data?.maintenance.enabled ?? false;
  return (
    <>
      <MaintenanceGate>{children}</MaintenanceGate>
      {!maintenance && <MarketingConsentModal />}
      <DeployChecker />
    </>
  );
}
