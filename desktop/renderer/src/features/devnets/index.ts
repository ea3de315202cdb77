// Devnets' screens: the Devnet card of a Cardano devnet project's page.
export { DevnetCard } from './devnet-card';
