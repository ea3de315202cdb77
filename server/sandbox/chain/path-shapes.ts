import { pathShape } from '../../blockfrost/http';
import { createSandboxChain } from './chain';
import type { SandboxChain } from './api';
import { sandboxRouter } from './router';

interface RouterLike {
  stack: Array<{ route?: { path: unknown } }>;
}

/** The path shapes the sandbox chain answers, read from its Express router (a throwaway chain when none is given: only the router's shape is read). */
export function sandboxPathShapes(chain?: SandboxChain): Set<string> {
  const router = sandboxRouter(chain ?? createSandboxChain({ network: 'preview', blockIntervalMs: 3_600_000 }), { catchAll: false }) as unknown as RouterLike;
  const shapes = new Set<string>();
  for (const layer of router.stack) {
    const p = layer.route?.path;
    for (const one of Array.isArray(p) ? p : [p]) if (typeof one === 'string') shapes.add(pathShape(one));
  }
  return shapes;
}
