import fs from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { ARTIFACTS, createTemplate, dropTemplate } from './db-template';

export default async function setup(project: TestProject) {
  const template = await createTemplate();
  project.provide('dbTemplate', template);
  return async () => {
    await dropTemplate(template);
    // The gateways' data folders (testGatewayConfig): workers may be stopped before their exit hooks run.
    for (const name of fs.existsSync(ARTIFACTS) ? fs.readdirSync(ARTIFACTS) : []) {
      if (name.startsWith('gateway-data-')) fs.rmSync(path.join(ARTIFACTS, name), { recursive: true, force: true });
    }
  };
}
