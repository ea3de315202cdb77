// The public face of Milkomeda: the JSON-RPC handler and the development chain page: the only module of this folder that the rest of the server imports.
export { BATCH_TOO_LARGE, createJsonRpcHandler, MAX_BATCH_ANSWER_BYTES, type EvmBackend, type JsonRpcHandler } from './jsonrpc';
export { registerMilkomedaRoutes } from './routes';
