export { FaucetButton } from './faucet-button';
