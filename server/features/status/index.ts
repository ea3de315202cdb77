// The public face of the status page: heartbeats and backend probes: the only module of this folder that the rest of the server imports.
export { startHeartbeat } from './heartbeats';
export { registerStatusRoutes } from './routes';
export { defaultProbes, statusReporter } from './status';
export { forgetComponentState, reportComponentState, type ComponentName } from './components';
