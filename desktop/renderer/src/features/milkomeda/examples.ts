// The Milkomeda panel's snippets live in shared/ with every other client example, so the test that
// runs them as printed reads the same text the page shows.
export { evmExamples } from '../../../../../shared/client-examples';
export { rpcUrlWithKey } from '../../../../../shared/milkomeda';
