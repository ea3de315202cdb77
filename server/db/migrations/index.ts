import type { Knex } from 'knex';
import * as createUsersAndSessions from './2026-11-22-0100-create-users-and-sessions';
import * as createWorkspacesAndProjects from './2026-11-22-0200-create-workspaces-and-projects';
import * as createGatewayChangesAndUsage from './2026-11-22-0300-create-gateway-changes-and-usage';
import * as createWebhooks from './2026-11-22-0400-create-webhooks';
import * as indexUsageDimensionsByValue from './2026-11-22-0500-index-usage-dimensions-by-value';
import * as createBilling from './2026-11-23-1000-create-billing';
import * as createSandboxLedger from './2026-11-23-1100-create-sandbox-ledger';
import * as createIpfs from './2026-11-23-1200-create-ipfs';
import * as createCommunityEndpoints from './2026-11-23-1300-create-community-endpoints';
import * as privateNetworkCounts from './2026-11-23-1900-private-network-counts';
import * as createSignInThrottle from './2026-11-23-1400-create-sign-in-throttle';
import * as createDesktopSignIns from './2026-11-23-1600-create-desktop-sign-ins';
import * as createWebhookNotices from './2026-11-23-1610-create-webhook-notices';
import * as createUsageWindow from './2026-11-23-1500-create-usage-window';
import * as outboxCancelReasonAndClaimIndex from './2026-11-23-1501-outbox-cancel-reason-and-claim-index';
import * as createServiceHeartbeats from './2026-11-23-1700-create-service-heartbeats';
import * as createPpu from './2026-11-23-1800-create-ppu';
import * as createRequestInsight from './2026-11-23-1910-create-request-insight';
import * as dropMinuteRollups from './2026-11-24-2300-drop-minute-rollups';
import * as outboxFillfactor from './2026-11-24-2310-outbox-fillfactor';
import * as createComponentStates from './2026-11-26-0100-create-component-states';
import * as desktopSignInDevice from './2026-11-26-0110-desktop-sign-in-device';
import * as createAuditEntries from './2026-11-26-1010-create-audit-entries';
import * as createEvmDevChain from './2026-11-26-1051-create-evm-dev-chain';
import * as indexDashboardLists from './2026-11-26-1100-index-dashboard-lists';
import * as failedRequestMessage from './2026-11-26-1050-failed-request-message';
import * as outboxBodyLz4 from './2026-11-26-1130-outbox-body-lz4';
import * as indexOrderAndLogPages from './2026-11-26-1200-index-order-and-log-pages';
import * as indexSessionsByLastSeen from './2026-11-26-1210-index-sessions-by-last-seen';
import * as fillSessionOwners from './2026-11-26-1021-fill-session-owners';
import * as projectKeyRotationAndAllowLists from './2026-11-26-1000-project-key-rotation-and-allow-lists';
import * as sessionOwners from './2026-11-26-1020-session-owners';
import * as webhookSecretOverlap from './2026-11-26-1011-webhook-secret-overlap';
import * as createTrackedTxs from './2026-11-27-1000-create-tracked-txs';
import * as indexTrackedTxValidity from './2026-11-29-1000-index-tracked-tx-validity';
import * as widenSandboxLedgerNetwork from './2026-11-29-1000-widen-sandbox-ledger-network';
import * as txResubmit from './2026-11-29-1010-tx-resubmit';
import * as createDevnets from './2026-11-29-1100-create-devnets';
import * as devnetWebhooks from './2026-11-29-1200-devnet-webhooks';
import * as devnetSteeringLease from './2026-11-30-1000-devnet-steering-lease';
import * as devnetClockRunning from './2026-11-30-1010-devnet-clock-running';
import * as fillDevnetClockRunning from './2026-11-30-1011-fill-devnet-clock-running';
import * as ipfsPinClaim from './2026-11-30-1100-ipfs-pin-claim';
import * as devnetHistorySums from './2026-12-01-1000-devnet-history-sums';

export interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

// One dated file per change, never edited after it lands; append new ones at the end, in order.
export const migrations: ReadonlyArray<readonly [name: string, migration: Migration]> = [
  ['2026-11-22-0100-create-users-and-sessions', createUsersAndSessions],
  ['2026-11-22-0200-create-workspaces-and-projects', createWorkspacesAndProjects],
  ['2026-11-22-0300-create-gateway-changes-and-usage', createGatewayChangesAndUsage],
  ['2026-11-22-0400-create-webhooks', createWebhooks],
  ['2026-11-22-0500-index-usage-dimensions-by-value', indexUsageDimensionsByValue],
  ['2026-11-23-1000-create-billing', createBilling],
  ['2026-11-23-1100-create-sandbox-ledger', createSandboxLedger],
  ['2026-11-23-1200-create-ipfs', createIpfs],
  ['2026-11-23-1300-create-community-endpoints', createCommunityEndpoints],
  ['2026-11-23-1400-create-sign-in-throttle', createSignInThrottle],
  ['2026-11-23-1500-create-usage-window', createUsageWindow],
  ['2026-11-23-1501-outbox-cancel-reason-and-claim-index', outboxCancelReasonAndClaimIndex],
  ['2026-11-23-1600-create-desktop-sign-ins', createDesktopSignIns],
  ['2026-11-23-1610-create-webhook-notices', createWebhookNotices],
  ['2026-11-23-1700-create-service-heartbeats', createServiceHeartbeats],
  ['2026-11-23-1800-create-ppu', createPpu],
  ['2026-11-23-1900-private-network-counts', privateNetworkCounts],
  ['2026-11-23-1910-create-request-insight', createRequestInsight],
  ['2026-11-24-2300-drop-minute-rollups', dropMinuteRollups],
  ['2026-11-24-2310-outbox-fillfactor', outboxFillfactor],
  ['2026-11-26-0100-create-component-states', createComponentStates],
  ['2026-11-26-0110-desktop-sign-in-device', desktopSignInDevice],
  ['2026-11-26-1000-project-key-rotation-and-allow-lists', projectKeyRotationAndAllowLists],
  ['2026-11-26-1010-create-audit-entries', createAuditEntries],
  ['2026-11-26-1011-webhook-secret-overlap', webhookSecretOverlap],
  ['2026-11-26-1020-session-owners', sessionOwners],
  ['2026-11-26-1021-fill-session-owners', fillSessionOwners],
  ['2026-11-26-1050-failed-request-message', failedRequestMessage],
  ['2026-11-26-1051-create-evm-dev-chain', createEvmDevChain],
  ['2026-11-26-1100-index-dashboard-lists', indexDashboardLists],
  ['2026-11-26-1130-outbox-body-lz4', outboxBodyLz4],
  ['2026-11-26-1200-index-order-and-log-pages', indexOrderAndLogPages],
  ['2026-11-26-1210-index-sessions-by-last-seen', indexSessionsByLastSeen],
  ['2026-11-27-1000-create-tracked-txs', createTrackedTxs],
  ['2026-11-29-1000-index-tracked-tx-validity', indexTrackedTxValidity],
  ['2026-11-29-1000-widen-sandbox-ledger-network', widenSandboxLedgerNetwork],
  ['2026-11-29-1010-tx-resubmit', txResubmit],
  ['2026-11-29-1100-create-devnets', createDevnets],
  ['2026-11-29-1200-devnet-webhooks', devnetWebhooks],
  ['2026-11-30-1000-devnet-steering-lease', devnetSteeringLease],
  ['2026-11-30-1010-devnet-clock-running', devnetClockRunning],
  ['2026-11-30-1011-fill-devnet-clock-running', fillDevnetClockRunning],
  ['2026-11-30-1100-ipfs-pin-claim', ipfsPinClaim],
  ['2026-12-01-1000-devnet-history-sums', devnetHistorySums],
];
