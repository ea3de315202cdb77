// Writes docs/configuration.md from the configuration schema (server/config.ts): every environment
// variable with its default and its description, so the page cannot drift from what start-up accepts.
// `npm run docs:config` writes it; tests/unit/server/config-docs.test.ts fails when it is stale.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import { configSchema, upstreamSchema } from '../config';

type AnySchema = z.ZodType;

/** The default a schema falls back to when the variable is unset, as the text one would write; undefined when it has none. */
function defaultOf(schema: AnySchema): unknown {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  switch (def.type) {
    case 'default':
      return def.defaultValue;
    case 'pipe':
      // z.preprocess(f, inner) is a pipe into `inner`; `.default(x).transform(f)` is a pipe out of the default.
      return defaultOf(def.in as AnySchema) ?? defaultOf(def.out as AnySchema);
    case 'optional':
    case 'nullable':
      return defaultOf(def.innerType as AnySchema);
    default:
      return undefined;
  }
}

/** A description as one table cell: pipes, '<' (not a tag) and '*' (not emphasis) escaped. */
const cell = (text: string) => text.replace(/[|<*]/g, (c) => `\\${c}`).replace(/\n/g, ' ');

function table(shape: Record<string, AnySchema>): string {
  const rows = Object.entries(shape).map(([name, schema]) => {
    const fallback = defaultOf(schema);
    const shown = fallback === undefined ? '(unset)' : fallback === '' ? '(empty)' : `\`${String(fallback)}\``;
    const description = schema.description;
    if (!description) throw new Error(`${name} has no description: add .describe('…') to it in server/config.ts`);
    return `| \`${name}\` | ${shown} | ${cell(description)} |`;
  });
  return ['| variable | default | description |', '|---|---|---|', ...rows].join('\n');
}

/** The whole of docs/configuration.md. */
export function renderConfigurationDoc(): string {
  return `<!-- Generated from server/config.ts by \`npm run docs:config\`; edit the schema's descriptions, not this file. -->

# Configuration

Cairn reads environment variables (or a \`.env\` file) once at start-up, in \`server/config.ts\`. Every
variable is optional: with none set, Cairn runs on its embedded defaults (SQLite under \`./data\`,
sign-in links in the log and at \`/dev/mailbox\`, captcha off, test billing, the sandbox chain and the
embedded IPFS store). A bad value stops start-up with one line naming the variable, e.g.
\`Invalid configuration: PORT must be a whole number between 1 and 65535 (got "abc")\`; values that may
carry credentials are never echoed. \`.env.example\` lists every variable with its default.

Pairs that must be set together (both or neither): \`HCAPTCHA_SITE_KEY\` and \`HCAPTCHA_SECRET\`,
\`STRIPE_SECRET_KEY\` and \`STRIPE_WEBHOOK_SECRET\`, \`FILECOIN_PINNING_SERVICE_URL\` and
\`FILECOIN_PINNING_SERVICE_TOKEN\`.

${table(configSchema.shape as Record<string, AnySchema>)}

## Upstreams

One pair of variables per network that can have a backend of its own, named by the network table
(\`shared/networks.ts\`): \`<stem>_URL\` and \`<stem>_AUTH\`.

${table(upstreamSchema.shape as Record<string, AnySchema>)}
`;
}

const docPath = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/configuration.md');

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  fs.writeFileSync(docPath, renderConfigurationDoc());
  console.log(`Wrote ${path.relative(process.cwd(), docPath)}`);
}
