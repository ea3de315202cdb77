import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { deniedReason } from '../../../desktop/renderer/src/components/permission';
import { actions, deniedMessages } from '../../../shared/permissions';

// A permission the user lacks is explained by one helper (components/permission.ts) that reads the one
// matrix: no page writes the sentence again, so the screen and the server's 403 say the same words.
const root = path.resolve(import.meta.dirname, '../../..');
const rendererSrc = path.join(root, 'desktop/renderer/src');
const HELPER = 'components/permission.ts';

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return /\.tsx?$/.test(e.name) ? [full] : [];
  });
}

/** Every place in the renderer, outside the helper, that writes a permission refusal itself. */
function refusalsOutsideHelper(files: Record<string, string>): string[] {
  const denials = actions.map((a) => deniedMessages[a]).filter((m) => m !== deniedMessages['workspace.view']);
  const phrasings = [/Only the owner/i, /(don't|do not) have permission/i, /\bdeniedMessages\b/, /\bmessages\.permission\b/];
  return Object.entries(files).flatMap(([file, code]) => {
    if (file === HELPER) return [];
    const found = [...denials.filter((d) => code.includes(d)), ...phrasings.filter((p) => p.test(code)).map(String)];
    return found.map((f) => `${file}: ${f}`);
  });
}

const renderer = () => Object.fromEntries(sources(rendererSrc).map((f) => [path.relative(rendererSrc, f), fs.readFileSync(f, 'utf8')]));

describe('permission texts in the renderer', () => {
  it('are written by the one helper only', () => {
    expect(refusalsOutsideHelper(renderer())).toEqual([]);
  });

  it.each([
    ['a refusal of the matrix copied into a page', "const why = 'Only the owner, administrators and maintainers can delete webhooks.';"],
    ['a refusal reworded in a page', "const why = 'Only the owner, administrators and maintainers can roll project keys.';"],
    ["the spec's sentence built in a page", 'const why = `You don\'t have permission to create a new ${resource} in this workspace.`;'],
    ['the matrix read past the helper', "const why = deniedMessages['projects.update'];"],
  ])('are refused when %s', (_what, code) => {
    expect(refusalsOutsideHelper({ 'features/projects/probe.tsx': code })).not.toEqual([]);
  });

  it("answer in the server's words, the spec's sentence for creating", () => {
    expect(deniedReason('collaborator', 'projects.add')).toBe("You don't have permission to create a new project in this workspace.");
    expect(deniedReason('collaborator', 'webhooks.add')).toBe("You don't have permission to create a new webhook in this workspace.");
    expect(deniedReason('maintainer', 'invites.add')).toBe("You don't have permission to create a new invitation in this workspace.");
    expect(deniedReason('maintainer', 'workspace.transfer')).toBe(deniedMessages['workspace.transfer']);
    expect(deniedReason('maintainer', 'projects.update')).toBeNull();
  });
});
