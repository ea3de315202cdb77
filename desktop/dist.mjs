// `npm run dist:desktop`: packages the desktop app with electron-builder, from the repository root (the app's
// package.json is the root's: its "main" is the bundled main process) with electron-builder.yml. electron-builder
// and Electron are the desktop tools (desktop/package.json), installed apart from the web's because they want
// Node 22.12 or newer: npm ci --prefix desktop.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const desktop = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(desktop);

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(`npm run dist:desktop needs Node.js 22.12 or newer (Electron's tools); this is ${process.version}.`);
  process.exit(1);
}
const electronPackage = path.join(desktop, 'node_modules', 'electron', 'package.json');
if (!fs.existsSync(electronPackage)) {
  console.error('The desktop tools are not installed: run npm ci --prefix desktop (Node 22.12 or newer), then npm run dist:desktop.');
  process.exit(1);
}
const { build } = await import('electron-builder');
const { parse } = await import('yaml');
const config = parse(fs.readFileSync(path.join(root, 'electron-builder.yml'), 'utf8'));
// The root package.json does not name Electron: its version is the desktop tools' Electron.
const electronVersion = JSON.parse(fs.readFileSync(electronPackage, 'utf8')).version;
await build({ projectDir: root, config: { ...config, electronVersion }, publish: 'never' });
