// The Milkomeda project page's panel.
export { isMilkomeda, MilkomedaPanel } from './lazy-panel';
