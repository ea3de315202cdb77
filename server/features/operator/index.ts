// The public face of the operator's calls: the only module of this folder that the rest of the server imports.
export { findUserForOperator, grantBoostByOperator, listUsersForOperator, setPlanByOperator } from './admin';
export { registerOperatorRoutes } from './routes';
