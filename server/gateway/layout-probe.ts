import { createJsonRpcBackend } from '../features/milkomeda/index';
export const x = createJsonRpcBackend;
