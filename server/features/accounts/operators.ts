import type { Config } from '../../config';

/** The accounts named in OPERATOR_EMAILS run this Cairn: the operator page and its calls are theirs. */
export const isOperator = (config: Pick<Config, 'operatorEmails'>, email: string | null | undefined): boolean =>
  !!email && config.operatorEmails.includes(email.trim().toLowerCase());
