// Target (a) of bench:jsonrpc: the embedded EVM development chain (Hardhat EDR, chain id 2001) and its
// loopback JSON-RPC server, in its own process, exactly as the gateway starts it without an upstream.
import { startDevChain } from '../../../server/sandbox/evm-chain';
import { serveUntilDisconnected } from './child-server';

const chain = await startDevChain();
serveUntilDisconnected({ url: chain.url }, () => chain.close());
