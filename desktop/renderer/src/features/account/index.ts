// The signed-in account: who is signed in, for every feature that asks.
export { meQueries } from './queries';
