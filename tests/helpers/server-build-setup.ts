import fs from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { ARTIFACTS } from './db-template';
import { stageBuiltApp } from './built-server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder holding the server's build (dist/server, package.json), staged once per run. */
    serverBuild: string;
  }
}

/**
 * The integration project's server processes (server-process.ts) run the build, as operators run it in
 * production (package.json's start:prod): built once per run here, into a folder of its own, rather than
 * each process compiling the TypeScript sources again through tsx.
 */
export default async function setup(project: TestProject) {
  const root = path.join(ARTIFACTS, `server-build-${process.pid}`);
  await stageBuiltApp(root);
  project.provide('serverBuild', root);
  return () => fs.rmSync(root, { recursive: true, force: true });
}
