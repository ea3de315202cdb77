// Replaced at build time by desktop/renderer/vite.config.ts (define), which also writes it to version.json.
declare const __CAIRN_BUILD_ID__: string | undefined;

/** The id of the build this page runs; 'dev' where the bundler did not set one (unit tests). */
export const BUILD_ID: string = typeof __CAIRN_BUILD_ID__ === 'string' ? __CAIRN_BUILD_ID__ : 'dev';
