// Blockfrost's websocket-link protocol, as @trezor/blockchain-link's Blockfrost worker speaks it: a
// client sends {id, command, params}; each answer is {id, type: 'message', data} or
// {id, type: 'error', data: {error: {message}}}; a notification carries the id of the message that
// subscribed to it.

export const COMMANDS = [
  'GET_SERVER_INFO',
  'GET_BLOCK',
  'GET_ACCOUNT_INFO',
  'GET_ACCOUNT_UTXO',
  'GET_TRANSACTION',
  'GET_BALANCE_HISTORY',
  'ESTIMATE_FEE',
  'PUSH_TRANSACTION',
  'SUBSCRIBE_BLOCK',
  'UNSUBSCRIBE_BLOCK',
  'SUBSCRIBE_ADDRESS',
  'UNSUBSCRIBE_ADDRESS',
] as const;
export type Command = (typeof COMMANDS)[number];
const commandSet = new Set<string>(COMMANDS);

/** The id a client gave its message, echoed as it came (the Trezor client matches notifications by its string). */
export type MessageId = string | number | null;

export interface Frame {
  id: MessageId;
  command: Command;
  params: Record<string, unknown>;
}

/** A refusal of a message: its status (metering's) and the text the client gets. */
export class PushError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export const badParams = (message: string): PushError => new PushError(400, message);

/** Metered under this when a frame names no command Cairn knows (one row for every such frame, not one per text sent). */
export const UNKNOWN_COMMAND = 'WS (unknown command)';
export const endpointOf = (command: Command | null): string => (command ? `WS ${command}` : UNKNOWN_COMMAND);

/** A frame as text: the message, or why it is not one (with the id when it could be read). */
export function parseFrame(text: string): { frame: Frame } | { id: MessageId; command: Command | null; error: PushError } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { id: null, command: null, error: badParams('The message is not JSON: send {"id", "command", "params"}.') };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { id: null, command: null, error: badParams('The message must be a JSON object {"id", "command", "params"}.') };
  const o = value as { id?: unknown; command?: unknown; params?: unknown };
  const id: MessageId = typeof o.id === 'string' || typeof o.id === 'number' ? o.id : null;
  if (typeof o.command !== 'string' || !commandSet.has(o.command)) {
    return { id, command: null, error: badParams(`Unknown command${typeof o.command === 'string' ? ` ${o.command.slice(0, 64)}` : ''}: one of ${COMMANDS.join(', ')}.`) };
  }
  const command = o.command as Command;
  if (o.params !== undefined && o.params !== null && (typeof o.params !== 'object' || Array.isArray(o.params))) return { id, command, error: badParams('params must be an object.') };
  return { frame: { id, command, params: (o.params ?? {}) as Record<string, unknown> } };
}

const idJson = (id: MessageId): string => JSON.stringify(id);

/** An answer or a notification whose data is already JSON (a block's, made once for every subscriber). */
export const messageFrame = (id: MessageId, dataJson: string): string => `{"id":${idJson(id)},"type":"message","data":${dataJson}}`;

export const answerFrame = (id: MessageId, data: unknown): string => messageFrame(id, JSON.stringify(data ?? null));

export const errorFrame = (id: MessageId, message: string): string => JSON.stringify({ id, type: 'error', data: { error: { message } } });

/**
 * A server's websocket text frame (final, unmasked, RFC 6455 §5.2) holding `text`: header and
 * payload in one buffer, so a frame shared by many connections is made once and each connection's
 * send is one socket write of the same bytes.
 */
export function textFrame(text: string): Buffer {
  const length = Buffer.byteLength(text);
  const header = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(header + length);
  frame[0] = 0x81; // FIN, opcode 1 (text)
  if (length < 126) frame[1] = length;
  else if (length < 65_536) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeUInt32BE(Math.floor(length / 2 ** 32), 2);
    frame.writeUInt32BE(length >>> 0, 6);
  }
  frame.write(text, header, 'utf8');
  return frame;
}
