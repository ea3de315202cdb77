// What surrounds the signed-in pages: the marketing consent, maintenance and new-deploy notices.
export { forgetConsentDeferral } from './consent-modal';
export { ShellExtras } from './shell-extras';
