// Electron main-process entry, bundled by desktop/build.ts to desktop/main/dist/main.cjs (package.json "main").
import { startCairnDesktop } from './start';

startCairnDesktop({
  env: process.env,
  argv: process.argv,
  platform: process.platform,
  execPath: process.execPath,
  defaultApp: process.defaultApp === true,
});
