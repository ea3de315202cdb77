// The public face of the push API (Blockfrost's websocket-link protocol on the gateway): the only
// module of this folder that the rest of the server imports.
export { createPushServer, PUSH_PATH, type PushServer } from './server';
export { PushHub, type WatchedChain } from './hub';
export { WriterThread } from './writer-thread';
