// The public face of sign-in (e-mail link, OAuth, the desktop app), users, their settings: the only module of this folder that the rest of the server imports.
export { SESSION_COOKIE, authRouter } from './auth-routes';
export { registerMeRoutes } from './me-routes';
export { registerSettingsRoutes } from './settings-routes';
export { isOperator } from './operators';
export { pruneSignInThrottle } from './sign-in-throttle';
export { pruneDesktopSignIns } from './desktop-sign-ins';
export { createPassport } from './strategies';
export { findUserByEmail, findUserById } from './users';
export { registerAccountRoutes } from './account-routes';
export type { CancelBilling } from './account-deletion';
