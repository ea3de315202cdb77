// V8 flags the server process runs with (package.json's start script passes them to node; a unit
// test keeps the two in step, and bench:gateway and bench:jsonrpc start the gateway and the bare
// proxy it is measured against with them too).
//
// --max-semi-space-size=2 (MB): V8's young generation grows up to 16 MB semi-spaces while a process
// starts (the server loads and compiles hundreds of modules), and stays that large. Each minor
// garbage collection then stops the gateway for 1.5–2.5 ms at the median and 4–6 ms at p90 on the
// 2-core VM, against 1 ms for a small proxy, and requests that arrive meanwhile wait: the gateway's
// p99 stood about 1 ms above the proxy's with its own thread spending no more per request. Capped,
// collections are more frequent but short (about 0.9 ms at the median), which is what a gateway's tail wants.
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=2'] as const;
