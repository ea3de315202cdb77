// The public face of IPFS: the backend the gateway calls, pins and storage: the only module of this folder that the rest of the server imports.
export { createIpfsBackend, type IpfsBackend } from './backend';
export { storageUsed, storedBytes } from './pins';
export { registerIpfsRoutes } from './routes';
