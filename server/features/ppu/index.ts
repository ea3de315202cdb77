// The public face of pay as you go: orders, balances, the payment watcher: the only module of this folder that the rest of the server imports.
export { addBalanceSpends, orderPaymentTarget, ppuBalance, ppuSettings, ppuStartupLine, raiseBalanceSpent } from './ppu';
export { registerPpuRoutes, type PpuExtras } from './routes';
export { paymentChainSource, startPaymentWatcherFor } from './watcher';
