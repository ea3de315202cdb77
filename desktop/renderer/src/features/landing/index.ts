// The landing page: the entry renders it directly, so it is in the first chunk.
export { LandingPage } from './landing-page';
