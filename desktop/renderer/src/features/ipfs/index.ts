// The IPFS part of an IPFS project's page.
export { IpfsPanel } from './lazy-panel';
export { ipfsQueries } from './queries';
