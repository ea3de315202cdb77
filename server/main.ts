// The process entry: reads and checks the configuration (and --role), and only with a valid one loads
// roles.ts, which starts the parts. A configuration error is one line on stderr and exit code 1, in a
// fraction of a second, before any of the server's modules is loaded.
import 'dotenv/config';
import { ConfigError, loadConfig, type Config } from './config';
import type { Role } from './roles';

const ROLES: Role[] = ['all', 'api', 'gateway', 'worker'];

/** `--role api|gateway|worker` starts one part, so operators can scale parts out; `all` (the default) starts every part. */
function parseRole(argv: string[]): Role {
  const i = argv.indexOf('--role');
  const value = i === -1 ? 'all' : argv[i + 1];
  if (!ROLES.includes(value as Role)) throw new ConfigError(`Invalid option: --role must be one of ${ROLES.join(', ')}`);
  return value as Role;
}

let config: Config;
let role: Role;
try {
  config = loadConfig();
  role = parseRole(process.argv.slice(2));
  // Without SMTP, sign-in links would only reach the log: acceptable on a laptop, never in production.
  if (config.isProduction && !config.mail.smtpUrl && role !== 'gateway') {
    throw new ConfigError('Invalid configuration: SMTP_URL must be set when NODE_ENV is production (without it sign-in links could only be written to the log)');
  }
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(err.message + '\n');
    process.exit(1);
  }
  throw err;
}
import('./roles')
  .then(({ start }) => start(config, role))
  .catch((err: unknown) => {
    const e = err as NodeJS.ErrnoException & { port?: number };
    const reason =
      e.code === 'EADDRINUSE'
        ? `port ${e.port ?? ''} is already in use (set PORT or GATEWAY_PORT to another port)`
        : e.code === 'ECONNREFUSED'
          ? 'a service refused the connection (check DATABASE_URL and REDIS_URL)'
          : (e.message ?? String(err));
    process.stderr.write(`Cairn could not start: ${reason}\n`);
    process.exit(1);
  });
