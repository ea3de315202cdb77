import type { Db } from '../../db/index';

/** Background parts whose state the status page shows besides the running processes. */
export type ComponentName = 'Payment watcher' | 'Shared rate limits';

/**
 * The process each part runs in: while that role's heartbeat is stale the part is not answering
 * either, whatever it last reported. The gateways report the shared rate limits (Redis).
 */
export const COMPONENT_ROLES: Record<ComponentName, 'gateway' | 'worker'> = {
  'Payment watcher': 'worker',
  'Shared rate limits': 'gateway',
};
const isComponentName = (name: string): name is ComponentName => Object.hasOwn(COMPONENT_ROLES, name);

export interface ComponentState {
  name: ComponentName;
  state: 'operational' | 'down';
  /** Epoch ms since which the part has been in this state. */
  since: number;
}

/** Records that a part is (again) working, or not, since `since`. */
export async function reportComponentState(db: Db, { name, state, since }: ComponentState, now = Date.now()): Promise<void> {
  await db('component_states').insert({ name, state, since, updated_at: now }).onConflict('name').merge(['state', 'since', 'updated_at']);
}

/** The part stopped (its process shuts down, or the part is turned off): the page no longer lists it. */
export async function forgetComponentState(db: Db, name: ComponentName): Promise<void> {
  await db('component_states').where({ name }).delete();
}

export async function componentStates(db: Db): Promise<ComponentState[]> {
  const rows = (await db('component_states').select('name', 'state', 'since').orderBy('name')) as Array<{ name: string; state: string; since: number | string }>;
  return rows
    .filter((r) => isComponentName(r.name) && (r.state === 'operational' || r.state === 'down'))
    .map((r) => ({ name: r.name as ComponentName, state: r.state as ComponentState['state'], since: Number(r.since) }));
}
