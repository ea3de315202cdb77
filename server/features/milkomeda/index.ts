// The public face of Milkomeda: the JSON-RPC backend and the development chain page: the only module of this folder that the rest of the server imports.
export { BATCH_TOO_LARGE, createJsonRpcBackend, MAX_BATCH_ANSWER_BYTES, type EvmBackend } from './jsonrpc';
export { registerMilkomedaRoutes } from './routes';
