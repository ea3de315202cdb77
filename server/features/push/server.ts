// The push API on the gateway: Blockfrost's websocket-link protocol at /ws (also after a network
// segment or a key segment, as the REST paths take them). The upgrade passes the key and allow-list
// steps and the project's connection cap; every message then passes the limits step and is metered
// like a REST request; notifications come from the hub (hub.ts) as blocks are added.
import http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import type { Logger } from '../../logger';
import type { KeyCache, ProjectKey } from '../../gateway/key-cache';
import { CATCH_UP, type Admission } from '../../gateway/admission';
import { REFUSALS, type Refusal } from '../../gateway/refusals';
import type { RequestTarget } from '../../gateway/gateway';
import { blockfrostError } from '../../blockfrost/http';
import { addressNetworkOf } from '../../../shared/networks';
import { isAddressOfNetwork } from '../../blockfrost/contract';
import type { CardanoNetwork } from '../../../shared/cardano/address';
import { networkApi, type CallBackend } from './network-api';
import { answerFrame, endpointOf, errorFrame, parseFrame, PushError, badParams, textFrame, type Frame, type MessageId } from './protocol';
import type { PushHub, Subscriber } from './hub';
import { FrameWriter } from './socket-write';
import * as commands from './commands';

/** The path of the push API (Blockfrost serves it at wss://cardano-mainnet.blockfrost.io/ws). */
export const PUSH_PATH = '/ws';
/** What an upgrade is metered under when an allow-list refuses it. */
const UPGRADE_ENDPOINT = 'WS /ws';
/** The largest message a client may send (a transaction to submit as hex, with room). */
const MAX_MESSAGE_BYTES = 128 * 1024;
/** Addresses one connection may subscribe to. */
export const MAX_ADDRESSES = 10_000;
/** A client that lets this much of its notifications pile up unread is disconnected. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

export const CLOSE_IDLE = 4000;
export const CLOSE_KEY = 4003;
const UNEXPECTED = 'An unexpected error occurred while answering the message.';

export const connectionsRefusal = (limit: number): Refusal => ({
  status: 429,
  message: `This project has ${limit} websocket connection${limit === 1 ? '' : 's'} open, as many as its plan allows: close one first, or upgrade the plan.`,
});
export const NOT_CARDANO: Refusal = { status: 400, message: 'The push API (/ws) serves the Cardano networks only.' };

export interface PushServerDeps {
  logger: Logger;
  keys: Pick<KeyCache, 'lookup' | 'catchUp' | 'onChange'>;
  admission: Admission;
  locate: (req: http.IncomingMessage) => RequestTarget;
  clientIp: (req: http.IncomingMessage) => string;
  callBackend: CallBackend;
  hub: PushHub;
  version: string;
  idleTimeoutMs: number;
  now?: () => number;
}

/**
 * One connection. Its frames are written to the upgraded socket itself, header and payload in one
 * buffer (a block's is shared by every subscriber with the same subscription id): one system call
 * each (socket-write.ts), where the library's send frames every message again and writes it in two.
 * The library's own frames (pongs, the close) go to the same socket between whole frames, as it
 * writes each frame at once: it holds frames back only while compressing, and compression is off.
 */
class Session implements Subscriber {
  blockSubscription: MessageId | undefined = undefined;
  addressSubscription: MessageId | undefined = undefined;
  blockSent = 0;
  addresses: Set<string> = new Set();
  lastSeen: number;
  private readonly frames: FrameWriter;

  constructor(
    readonly ws: WebSocket,
    private readonly socket: Duplex,
    readonly key: string,
    public project: ProjectKey,
    /** The network the client addressed (undefined: the key's own, as on REST). */
    readonly addressed: string | undefined,
    readonly cardano: CardanoNetwork,
    readonly ip: string,
    readonly origin: string | undefined,
    readonly userAgent: string | undefined,
    now: number,
  ) {
    this.lastSeen = now;
    this.frames = new FrameWriter(socket);
  }

  write(frame: Buffer): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    if (this.socket.writableLength > MAX_BUFFERED_BYTES) {
      this.ws.close(1008, 'Notifications are not being read');
      return;
    }
    this.frames.write(frame);
  }

  lend(): number {
    if (this.ws.readyState !== WebSocket.OPEN) return -1;
    return this.frames.lend();
  }

  settle(written: number, frame: Buffer): void {
    // A connection left mid-frame was closed by its writer; the library hears of it from its socket.
    this.frames.settle(written, frame);
  }

  /** Sends a message's text as one frame. */
  send(text: string): void {
    this.write(textFrame(text));
  }
}

/** Answers an upgrade it refuses as the REST API would, then closes the socket. */
function refuseUpgrade(socket: Duplex, refusal: Refusal): void {
  const body = JSON.stringify(blockfrostError(refusal.status, refusal.message));
  socket.end(
    `HTTP/1.1 ${refusal.status} ${http.STATUS_CODES[refusal.status] ?? 'Error'}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\nAccess-Control-Allow-Origin: *\r\n\r\n${body}`,
  );
}

/** One message's answer: a subscription change, or a command that reads the chain or submits to it. */
async function run(deps: PushServerDeps, s: Session, frame: Frame, call: Parameters<CallBackend>[2]): Promise<unknown> {
  const network = s.project.network;
  const feed = deps.hub.feedOf(network, s.project.projectId);
  switch (frame.command) {
    case 'SUBSCRIBE_BLOCK':
      s.blockSubscription = frame.id;
      feed.subscribeBlocks(s);
      return { subscribed: true };
    case 'UNSUBSCRIBE_BLOCK':
      s.blockSubscription = undefined;
      feed.unsubscribeBlocks(s);
      return { subscribed: false };
    case 'SUBSCRIBE_ADDRESS': {
      const list = frame.params.addresses;
      if (!Array.isArray(list) || list.length === 0) throw badParams('Missing parameter addresses: a list of addresses.');
      if (list.length > MAX_ADDRESSES) throw badParams(`At most ${MAX_ADDRESSES} addresses per connection.`);
      const bad = list.find((a) => typeof a !== 'string' || a.length > 200 || !isAddressOfNetwork(a, s.cardano));
      if (bad !== undefined) throw badParams(`Invalid address for ${network}: ${String(bad).slice(0, 120)}`);
      const next = new Set(list as string[]);
      feed.setAddresses(s, s.addresses, next);
      s.addresses = next;
      s.addressSubscription = frame.id;
      return { subscribed: true };
    }
    case 'UNSUBSCRIBE_ADDRESS':
      feed.setAddresses(s, s.addresses, []);
      s.addresses = new Set();
      s.addressSubscription = undefined;
      return { subscribed: false };
    default: {
      const ctx = { api: networkApi(deps.callBackend, network, call), network: s.cardano, version: deps.version };
      switch (frame.command) {
        case 'GET_SERVER_INFO':
          return commands.getServerInfo(ctx);
        case 'GET_BLOCK':
          return commands.getBlock(ctx, frame.params);
        case 'GET_ACCOUNT_INFO':
          return commands.getAccountInfo(ctx, frame.params);
        case 'GET_ACCOUNT_UTXO':
          return commands.getAccountUtxo(ctx, frame.params);
        case 'GET_TRANSACTION':
          return commands.getTransaction(ctx, frame.params);
        case 'GET_BALANCE_HISTORY':
          return commands.getBalanceHistory(ctx, frame.params);
        case 'ESTIMATE_FEE':
          return commands.estimateFee(ctx);
        case 'PUSH_TRANSACTION':
          return commands.pushTransaction(ctx, frame.params);
      }
    }
  }
}

/** The key step's project for a key (looked up again once the key cache caught up, for a key created a moment ago). */
async function projectOf({ admission, keys }: PushServerDeps, key: string | string[] | undefined): Promise<ProjectKey | Refusal> {
  let p = admission.project(key, false);
  if (p === CATCH_UP) {
    await keys.catchUp().catch(() => undefined);
    p = admission.project(key, true);
  }
  return p === CATCH_UP ? REFUSALS.invalidKey : p;
}

export function createPushServer(deps: PushServerDeps) {
  const { logger, keys, admission, hub } = deps;
  const now = deps.now ?? Date.now;
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES, perMessageDeflate: false, clientTracking: false });
  const sessions = new Set<Session>();
  const perProject = new Map<number, number>();
  // Upgrades admitted but not yet open count toward the cap too, so a burst of them cannot pass it.
  const opening = new Map<number, number>();

  const countOf = (projectId: number) => (perProject.get(projectId) ?? 0) + (opening.get(projectId) ?? 0);
  const add = (m: Map<number, number>, id: number, n: number) => {
    const v = (m.get(id) ?? 0) + n;
    if (v <= 0) m.delete(id);
    else m.set(id, v);
  };

  /** Handles an upgrade to the push path; answers false for any other path (the caller refuses it). */
  function upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const target = deps.locate(req);
    if (target.rest !== PUSH_PATH) return false;
    socket.on('error', () => socket.destroy());
    void admitUpgrade(req, socket, head, target).catch((err: unknown) => {
      logger.error({ err: { message: (err as Error).message } }, 'push: an upgrade failed');
      if (!socket.destroyed) refuseUpgrade(socket, { status: 500, message: UNEXPECTED });
    });
    return true;
  }

  async function admitUpgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer, target: RequestTarget): Promise<void> {
    const started = performance.now();
    const p = await projectOf(deps, target.key);
    if (!('projectId' in p)) return refuseUpgrade(socket, p);
    const keyRefusal = admission.keyRefusal(p, target.network, false);
    if (keyRefusal) return refuseUpgrade(socket, keyRefusal);
    const cardano = addressNetworkOf(p.network);
    if (!cardano) return refuseUpgrade(socket, NOT_CARDANO);
    const ip = deps.clientIp(req);
    const origin = req.headers.origin;
    const list = admission.refusingList(p, origin, ip);
    if (list !== null) {
      const call = admission.admittedCall(p, ip, now(), started, req.headers['user-agent']);
      return refuseUpgrade(socket, admission.steps.refusedByList(call, list, UPGRADE_ENDPOINT));
    }
    const limit = p.websocketConnections;
    if (countOf(p.projectId) >= limit) return refuseUpgrade(socket, connectionsRefusal(limit));
    add(opening, p.projectId, 1);
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      add(opening, p.projectId, -1);
    };
    // handleUpgrade refuses a bad handshake by closing the socket, without a session.
    socket.once('close', settle);
    wss.handleUpgrade(req, socket, head, (ws) => {
      settle();
      open(ws, new Session(ws, socket, target.key as string, p, target.network, cardano, ip, origin, req.headers['user-agent'], now()));
    });
  }

  function open(ws: WebSocket, s: Session): void {
    sessions.add(s);
    add(perProject, s.project.projectId, 1);
    ws.on('message', (data, isBinary) => {
      s.lastSeen = now();
      const text = isBinary ? null : Buffer.isBuffer(data) ? data.toString('utf8') : Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data).toString('utf8');
      void onMessage(s, text).catch((err: unknown) => logger.error({ err: { message: (err as Error).message } }, 'push: a message failed'));
    });
    ws.on('error', () => ws.terminate());
    ws.on('close', () => {
      sessions.delete(s);
      add(perProject, s.project.projectId, -1);
      const feed = hub.feedOf(s.project.network, s.project.projectId);
      feed.unsubscribeBlocks(s);
      feed.setAddresses(s, s.addresses, []);
    });
  }

  async function onMessage(s: Session, text: string | null): Promise<void> {
    const parsed = text === null ? { id: null, command: null, error: badParams('Binary messages are not part of the protocol: send JSON text.') } : parseFrame(text);
    const id = 'frame' in parsed ? parsed.frame.id : parsed.id;
    const command = 'frame' in parsed ? parsed.frame.command : parsed.command;
    // Every message is a request: the key (still good?), the lists, the bucket and the quota, then metering.
    const decision = await admission.admit({ key: s.key, network: s.addressed, origin: s.origin, ip: s.ip, userAgent: s.userAgent, endpoint: endpointOf(command) });
    if (!decision.admitted) {
      s.send(errorFrame(id, decision.refusal.message));
      if (decision.refusal.status === 403 && decision.refusal !== REFUSALS.origin && decision.refusal !== REFUSALS.ip) s.ws.close(CLOSE_KEY, 'The project key is no longer valid');
      return;
    }
    s.project = decision.call.project;
    let status = 200;
    let message: string | undefined;
    try {
      if (!('frame' in parsed)) throw parsed.error;
      s.send(answerFrame(id, await run(deps, s, parsed.frame, decision.call)));
    } catch (err) {
      if (err instanceof PushError) {
        status = err.status;
        message = err.message;
      } else {
        logger.error({ err: { message: (err as Error).message }, command }, 'push: answering a message failed');
        status = 500;
        message = UNEXPECTED;
      }
      s.send(errorFrame(id, message));
    }
    admission.answered(decision.record, status, message);
  }

  // A connection whose key stops working (project deleted, key rolled without grace or its grace
  // over, network turned off, account restricted) is closed as soon as the key cache learns of it.
  const stopListening = keys.onChange(() => {
    for (const s of sessions) {
      const p = keys.lookup(s.key);
      if (!p || p.projectId !== s.project.projectId || admission.keyRefusal(p, s.addressed, false)) s.ws.close(CLOSE_KEY, 'The project key is no longer valid');
      else s.project = p;
    }
  });

  const idleSweep = setInterval(
    () => {
      const before = now() - deps.idleTimeoutMs;
      for (const s of sessions) if (s.lastSeen < before) s.ws.close(CLOSE_IDLE, 'Idle for too long');
    },
    Math.max(50, Math.min(30_000, Math.floor(deps.idleTimeoutMs / 4))),
  );
  idleSweep.unref();

  return {
    upgrade,
    /** Open connections (all projects). */
    get size(): number {
      return sessions.size;
    },
    /** Open connections of a project. */
    connectionsOf: (projectId: number): number => perProject.get(projectId) ?? 0,
    /** Closes every connection (the gateway is stopping). */
    close(): void {
      stopListening();
      clearInterval(idleSweep);
      for (const s of sessions) s.ws.close(1001, 'The server is shutting down');
      wss.close();
    },
  };
}

export type PushServer = ReturnType<typeof createPushServer>;
