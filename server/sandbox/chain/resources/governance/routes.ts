// `/governance/*`: DReps, the constitutional committee, proposals and votes.
import type { Request, Router } from 'express';
import type { GovernanceQueries } from './queries';
import { parseGovActionId } from '../../gov';
import { CC_MESSAGE, DREP_MESSAGE, GOV_ACTION_MESSAGE, ORDER_BY_MESSAGE, booleanQuery, certIndexParam, txHashParam } from '../../../../blockfrost/contract';
import { badRequest } from '../../../../blockfrost/http';
import { found, ordered, param } from '../../route-kit';
import { sliced } from '../../budget';

const TX_HASH = /^[0-9a-fA-F]{64}$/;
const SUBS = ['parameters', 'withdrawals', 'votes', 'metadata'] as const;
type Sub = (typeof SUBS)[number] | null;
const isSub = (s: string): s is Exclude<Sub, null> => (SUBS as readonly string[]).includes(s);

/** A proposal named by {tx_hash}/{cert_index} or by its CIP-129 {gov_action_id}. */
function proposalRef(first: string, second?: string): { txHash: string; index: number } {
  if (second === undefined) {
    const id = parseGovActionId(first);
    if (!id) throw badRequest(GOV_ACTION_MESSAGE);
    return id;
  }
  const txHash = txHashParam(first);
  return { txHash, index: certIndexParam(second) };
}

export function mountGovernanceRoutes(router: Router, chain: GovernanceQueries): void {
  const gov = () => chain.governance();
  mountDrepRoutes(router, chain);
  router.get('/governance/committee', (_req, res) => {
    res.json(gov().committee());
  });
  router.get('/governance/committee/votes', async (req, res) => {
    const p = ordered(req);
    res.json(await sliced(() => gov().committeeVotes(p)));
  });
  router.get('/governance/committee/:cc_id/votes', async (req, res) => {
    const p = ordered(req);
    const cc = param(req, 'cc_id');
    res.json(found(await sliced(() => gov().committeeVotes(p, cc)), CC_MESSAGE));
  });
  router.get('/governance/proposals', async (req, res) => {
    const p = ordered(req);
    res.json(await sliced(() => gov().proposals(p)));
  });
  const answer = (req: Request, ref: { txHash: string; index: number }, sub: Sub): unknown => {
    const g = gov();
    switch (sub) {
      case null:
        return found(g.proposal(ref.txHash, ref.index));
      case 'parameters':
        return found(g.proposalParameters(ref.txHash, ref.index));
      case 'withdrawals':
        return found(g.proposalWithdrawals(ref.txHash, ref.index, ordered(req)));
      case 'votes':
        return found(g.proposalVotes(ref.txHash, ref.index, ordered(req)));
      default:
        return found(g.proposalMetadata(ref.txHash, ref.index));
    }
  };
  router.get('/governance/proposals/:a', (req, res) => {
    res.json(answer(req, proposalRef(param(req, 'a')), null));
  });
  router.get('/governance/proposals/:a/:b', (req, res) => {
    const [a, b] = [param(req, 'a'), param(req, 'b')];
    // {gov_action_id}/{what} or {tx_hash}/{cert_index}
    if (isSub(b) && !TX_HASH.test(a)) res.json(answer(req, proposalRef(a), b));
    else res.json(answer(req, proposalRef(a, b), null));
  });
  router.get('/governance/proposals/:a/:b/:c', (req, res, next) => {
    const c = param(req, 'c');
    if (!isSub(c)) return next();
    res.json(answer(req, proposalRef(param(req, 'a'), param(req, 'b')), c));
  });
}

function mountDrepRoutes(router: Router, chain: GovernanceQueries): void {
  const gov = () => chain.governance();
  router.get('/governance/dreps', (req, res) => {
    const p = ordered(req);
    const orderBy = req.query.order_by;
    if (orderBy !== undefined && orderBy !== 'amount') throw badRequest(ORDER_BY_MESSAGE);
    const retired = booleanQuery(req.query, 'retired');
    const expired = booleanQuery(req.query, 'expired');
    res.json(gov().dreps(p, { byAmount: orderBy === 'amount', ...(retired === undefined ? {} : { retired }), ...(expired === undefined ? {} : { expired }) }));
  });
  router.get('/governance/dreps/:drep_id', (req, res) => {
    res.json(found(gov().drep(param(req, 'drep_id')), DREP_MESSAGE));
  });
  router.get('/governance/dreps/:drep_id/delegators', (req, res) => {
    const p = ordered(req);
    res.json(found(gov().drepDelegators(param(req, 'drep_id'), p), DREP_MESSAGE));
  });
  router.get('/governance/dreps/:drep_id/metadata', (req, res) => {
    res.json(found(gov().drepMetadata(param(req, 'drep_id')), DREP_MESSAGE));
  });
  router.get('/governance/dreps/:drep_id/updates', (req, res) => {
    const p = ordered(req);
    res.json(found(gov().drepUpdates(param(req, 'drep_id'), p), DREP_MESSAGE));
  });
  router.get('/governance/dreps/:drep_id/votes', (req, res) => {
    const p = ordered(req);
    res.json(found(gov().drepVotes(param(req, 'drep_id'), p), DREP_MESSAGE));
  });
}
