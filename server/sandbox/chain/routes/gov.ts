// Governance (Conway: DReps, the constitutional committee, proposals and votes), /network/eras and
// nut.link oracles, in Blockfrost's shapes.
import type { Request, Router } from 'express';
import { param } from './params';
import { decodeBech32 } from '../../../../shared/cardano/bech32';
import { isAddressOfNetwork, type SandboxChain } from '../api';
import { parseGovActionId } from '../gov';
import { badRequest, notFound, parsePagination, type PageRequest } from '../../../blockfrost/http';

const TX_HASH = /^[0-9a-fA-F]{64}$/;
const CERT_INDEX = /^\d{1,5}$/;
const TICKER = /^[\x21-\x7e]{1,64}$/;

function found<T>(value: T | null | undefined, malformed: string): T {
  if (value === undefined) throw badRequest(malformed);
  if (value === null) throw notFound();
  return value;
}

function booleanParam(req: Request, name: string): boolean | undefined {
  const raw = req.query[name];
  if (raw === undefined) return undefined;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw badRequest(`querystring/${name} must be boolean`);
}

const DREP = 'Invalid or malformed DRep id.';
const CC = 'Invalid or malformed committee credential: a CIP-129 cc_hot1… or cc_cold1… id.';

export function mountGovRoutes(router: Router, chain: SandboxChain): void {
  const gov = () => chain.governance();
  const page = (req: Request): PageRequest => parsePagination(req.query, true);

  router.get('/governance/dreps', (req, res) => {
    const p = page(req);
    const orderBy = req.query.order_by;
    if (orderBy !== undefined && orderBy !== 'amount') throw badRequest('querystring/order_by must be equal to one of the allowed values');
    const retired = booleanParam(req, 'retired');
    const expired = booleanParam(req, 'expired');
    res.json(gov().dreps(p, { byAmount: orderBy === 'amount', ...(retired === undefined ? {} : { retired }), ...(expired === undefined ? {} : { expired }) }));
  });
  router.get('/governance/dreps/:drep_id', (req, res) => {
    res.json(found(gov().drep(param(req, 'drep_id')), DREP));
  });
  router.get('/governance/dreps/:drep_id/delegators', (req, res) => {
    const p = page(req);
    res.json(found(gov().drepDelegators(param(req, 'drep_id'), p), DREP));
  });
  router.get('/governance/dreps/:drep_id/metadata', (req, res) => {
    res.json(found(gov().drepMetadata(param(req, 'drep_id')), DREP));
  });
  router.get('/governance/dreps/:drep_id/updates', (req, res) => {
    const p = page(req);
    res.json(found(gov().drepUpdates(param(req, 'drep_id'), p), DREP));
  });
  router.get('/governance/dreps/:drep_id/votes', (req, res) => {
    const p = page(req);
    res.json(found(gov().drepVotes(param(req, 'drep_id'), p), DREP));
  });

  router.get('/governance/committee', (_req, res) => {
    res.json(gov().committee());
  });
  router.get('/governance/committee/votes', (req, res) => {
    res.json(gov().committeeVotes(page(req)));
  });
  router.get('/governance/committee/:cc_id/votes', (req, res) => {
    const p = page(req);
    res.json(found(gov().committeeVotes(p, param(req, 'cc_id')), CC));
  });

  router.get('/governance/proposals', (req, res) => {
    res.json(gov().proposals(page(req)));
  });
  /** A proposal named by {tx_hash}/{cert_index} or by its CIP-129 {gov_action_id}. */
  const proposalRef = (first: string, second?: string): { txHash: string; index: number } => {
    if (second === undefined) {
      const id = parseGovActionId(first);
      if (!id) throw badRequest('Invalid or malformed governance action id (CIP-129 gov_action1…).');
      return id;
    }
    if (!TX_HASH.test(first)) throw badRequest('Missing or malformed transaction hash.');
    if (!CERT_INDEX.test(second)) throw badRequest('Invalid or malformed certificate index.');
    return { txHash: first.toLowerCase(), index: Number(second) };
  };
  const SUBS = ['parameters', 'withdrawals', 'votes', 'metadata'] as const;
  type Sub = (typeof SUBS)[number] | null;
  const answer = (req: Request, ref: { txHash: string; index: number }, sub: Sub): unknown => {
    const g = gov();
    switch (sub) {
      case null:
        return found(g.proposal(ref.txHash, ref.index), '');
      case 'parameters':
        return found(g.proposalParameters(ref.txHash, ref.index), '');
      case 'withdrawals':
        return found(g.proposalWithdrawals(ref.txHash, ref.index, page(req)), '');
      case 'votes':
        return found(g.proposalVotes(ref.txHash, ref.index, page(req)), '');
      default:
        return found(g.proposalMetadata(ref.txHash, ref.index), '');
    }
  };
  router.get('/governance/proposals/:a', (req, res) => {
    res.json(answer(req, proposalRef(param(req, 'a')), null));
  });
  router.get('/governance/proposals/:a/:b', (req, res) => {
    const [a, b] = [param(req, 'a'), param(req, 'b')];
    // {gov_action_id}/{what} or {tx_hash}/{cert_index}
    if ((SUBS as readonly string[]).includes(b) && !TX_HASH.test(a)) res.json(answer(req, proposalRef(a), b as Sub));
    else res.json(answer(req, proposalRef(a, b), null));
  });
  router.get('/governance/proposals/:a/:b/:c', (req, res, next) => {
    const c = param(req, 'c');
    if (!(SUBS as readonly string[]).includes(c)) return next();
    res.json(answer(req, proposalRef(param(req, 'a'), param(req, 'b')), c as Sub));
  });

  router.get('/pools/:pool_id/votes', (req, res) => {
    const id = param(req, 'pool_id');
    const bech = decodeBech32(id);
    let hex: string | null = null;
    if (bech !== null && bech.prefix === 'pool' && bech.bytes.length === 28) hex = Buffer.from(bech.bytes).toString('hex');
    else if (/^[0-9a-fA-F]{56}$/.test(id)) hex = id.toLowerCase();
    if (hex === null) throw badRequest('Invalid or malformed pool id format.');
    const p = page(req);
    res.json(found(gov().poolVotes(hex, p), ''));
  });

  router.get('/network/eras', (_req, res) => {
    res.json(chain.eras());
  });

  const oracle = (req: Request): string => {
    const address = param(req, 'address');
    if (!isAddressOfNetwork(address, chain.network)) throw badRequest('Invalid address for this network or malformed address format.');
    return address;
  };
  const ticker = (req: Request): string => {
    const t = param(req, 'ticker');
    if (!TICKER.test(t)) throw badRequest('Invalid or malformed ticker.');
    return t;
  };
  router.get('/nutlink/tickers/:ticker', (req, res) => {
    const t = ticker(req);
    res.json(found(chain.nutlinkTicker(t, page(req)), ''));
  });
  router.get('/nutlink/:address', (req, res) => {
    res.json(found(chain.nutlinkAddress(oracle(req)), ''));
  });
  router.get('/nutlink/:address/tickers', (req, res) => {
    const address = oracle(req);
    res.json(found(chain.nutlinkTickers(address, page(req)), ''));
  });
  router.get('/nutlink/:address/tickers/:ticker', (req, res) => {
    const address = oracle(req);
    const t = ticker(req);
    res.json(found(chain.nutlinkAddressTicker(address, t, page(req)), ''));
  });
}
